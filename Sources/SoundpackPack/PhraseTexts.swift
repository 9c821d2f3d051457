// `--phrase-text ID=TEXT` (init and synth): the words of a new pack's announcements, written into
// its pack.json as texts and phrases, checked the same way for both commands.

import Foundation
import SoundpackCore
import SoundpackSupport

/// The words of a new pack's announcements (`--phrase-text ID=TEXT`), checked once when they are
/// read and then written into its pack.json.
public struct PhraseTexts: Sendable, Equatable {
    /// The texts each clip key gets.
    var texts: [String: String] = [:]
    /// The declared phrases, nil for words around the amount only (prefix, suffix).
    var phrases: [String: [String]]?
    /// The phrase given first, nil with no phrases.
    var defaultPhrase: String?

    /// Why the given texts make no pack, as data: the command phrases it with its flag.
    public enum Problem: Error, Sendable, Equatable {
        /// An id is given twice.
        case givenTwice(id: String)
        /// Two phrases need the same clip key (`pay`'s words after {amount} are clip `pay-after`).
        case sharedClip(key: String, owner: String, id: String)
        /// `prefix` or `suffix` given together with phrases.
        case aroundAmountWithPhrases(id: String)
        /// Not 1-32 of a-z, 0-9 and '-', starting with a letter or digit.
        case notAPhraseID(String)
        /// `{amount}` appears more than once in the text of `id`.
        case amountTwice(id: String)
        /// The text of `id` has no words besides `{amount}`.
        case noWords(id: String)
    }

    /// No texts: the pack keeps what it has.
    public init() {}

    /// `given` (in order), checked: `prefix`/`suffix` set the words around the amount of a pack
    /// without phrases; any other id declares a phrase, its text split at `{amount}` (the words
    /// after it are the clip ID-after; the first given is the default phrase). Each id is given once,
    /// each clip belongs to one phrase, and prefix/suffix cannot be mixed with phrases.
    public init(_ given: [(id: String, text: String)]) throws(Problem) {
        let aroundAmount = Set([Token.prefix.rawValue, Token.suffix.rawValue])
        var seen = Set<String>()
        for (id, _) in given where !seen.insert(id).inserted { throw .givenTwice(id: id) }
        guard !given.isEmpty else { return }
        if given.allSatisfy({ aroundAmount.contains($0.id) }) {
            for (id, text) in given { texts[id] = text }
            return
        }
        var phrases: [String: [String]] = [:]
        // Which phrase each clip key came from: `pay`'s words after {amount} are clip `pay-after`,
        // which a phrase named `pay-after` would also claim.
        var owners: [String: String] = [:]
        for (id, text) in given {
            guard !aroundAmount.contains(id) else { throw .aroundAmountWithPhrases(id: id) }
            guard Phrasebook.isValidName(id) else { throw .notAPhraseID(id) }
            let parts = text.components(separatedBy: Phrasebook.amountPiece)
            guard parts.count <= 2 else { throw .amountTwice(id: id) }
            var pieces: [String] = []
            let claims = [(id, parts[0])] + (parts.count == 2 ? [("\(id)-after", parts[1])] : [])
            for (index, (key, words)) in claims.enumerated() {
                if index == 1 { pieces.append(Phrasebook.amountPiece) }
                let trimmed = words.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty else { continue }
                if let owner = owners[key] { throw .sharedClip(key: key, owner: owner, id: id) }
                owners[key] = id
                texts[key] = trimmed
                pieces.append(key)
            }
            guard !pieces.isEmpty else { throw .noWords(id: id) }
            phrases[id] = pieces
        }
        self.phrases = phrases
        defaultPhrase = given[0].id
    }

    /// Whether no text was given.
    public var isEmpty: Bool { texts.isEmpty && phrases == nil }

    /// Writes the texts (and the phrases, with the first as the default) into `pack`.
    public func apply(to pack: inout PackFile) {
        for (key, text) in texts { pack.texts[key] = text }
        if let phrases {
            pack.phrases = phrases
            pack.defaultPhrase = defaultPhrase
        }
    }

    /// The phrases of a new pack: the ones it declares, else prefix, amount and, when a text gave
    /// words for one, the suffix (a pack's suffix is said only when it has a clip, so a new pack
    /// with suffix words gets a clip for them, not a text nobody hears).
    public static func phrasebook(of pack: PackFile) -> Phrasebook {
        guard pack.phrases == nil else { return pack.phrasebook }
        return Phrasebook(grammar: pack.grammar, hasSuffix: pack.texts[Token.suffix.rawValue] != nil)
    }
}

extension Phrasebook {
    /// The phrase `id` of pack `pack`, refused (with the phrases it has) when there is none.
    public func phrase(named id: String, of pack: String) throws(SoundpackError) -> Phrase {
        guard let phrase = phrase(id) else {
            throw .refused("pack \(pack) has no phrase '\(id.quoted(limit: 40))'", hint: "its phrases: \(phrases.map(\.id).joined(separator: ", "))")
        }
        return phrase
    }
}

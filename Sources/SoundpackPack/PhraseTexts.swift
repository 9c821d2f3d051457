// `--phrase-text ID=TEXT` (init and synth): the words of a new pack's announcements, written into
// its pack.json as texts and phrases, checked the same way for both commands.

import Foundation
import SoundpackCore
import SoundpackSupport

/// The words of a new pack's announcements (`--phrase-text ID=TEXT`), checked and written into its pack.json.
public enum PhraseTexts {
    /// Writes `given` (in order) into `pack`: `prefix`/`suffix` set the words around the amount of a
    /// pack without phrases; any other id declares a phrase, its text split at `{amount}` (the words
    /// after it are the clip ID-after; the first given is the default phrase). Each id is given once,
    /// each clip belongs to one phrase, and prefix/suffix cannot be mixed with phrases.
    public static func apply(_ given: [(id: String, text: String)], to pack: inout PackFile) throws(SoundpackError) {
        let aroundAmount = Set([Token.prefix.rawValue, Token.suffix.rawValue])
        var seen = Set<String>()
        for (id, _) in given where !seen.insert(id).inserted {
            throw .usage("--phrase-text \(id.quoted(limit: 40))=… is given twice", hint: "give each id once")
        }
        guard !given.isEmpty else { return }
        if given.allSatisfy({ aroundAmount.contains($0.id) }) {
            for (id, text) in given { pack.texts[id] = text }
            return
        }
        var phrases: [String: [String]] = [:]
        // Which phrase each clip key came from: `pay`'s words after {amount} are clip `pay-after`,
        // which a phrase named `pay-after` would also claim.
        var owners: [String: String] = [:]
        func claim(_ key: String, _ text: String, for id: String) throws(SoundpackError) {
            if let owner = owners[key] {
                throw .usage("--phrase-text \(owner)=… and \(id)=… both need the clip '\(key)'",
                             hint: "the words after {amount} of phrase ID are clip ID-after; rename one of the phrases")
            }
            owners[key] = id
            pack.texts[key] = text
        }
        for (id, text) in given {
            guard !aroundAmount.contains(id) else {
                throw .usage("--phrase-text \(id)=… cannot be given with phrases", hint: "prefix and suffix belong to a pack without phrases; write the words into each phrase, like wechat='微信到账{amount}'")
            }
            guard Phrasebook.isValidName(id) else {
                throw .usage("--phrase-text: '\(id.quoted(limit: 40))' is not a phrase id", hint: "use 1-32 of a-z, 0-9 and '-', starting with a letter or digit")
            }
            let parts = text.components(separatedBy: Phrasebook.amountPiece)
            guard parts.count <= 2 else { throw .usage("--phrase-text \(id): '{amount}' may appear once") }
            var pieces: [String] = []
            let before = parts[0].trimmingCharacters(in: .whitespaces)
            if !before.isEmpty { try claim(id, before, for: id); pieces.append(id) }
            if parts.count == 2 {
                pieces.append(Phrasebook.amountPiece)
                let after = parts[1].trimmingCharacters(in: .whitespaces)
                if !after.isEmpty { try claim("\(id)-after", after, for: id); pieces.append("\(id)-after") }
            }
            guard !pieces.isEmpty else { throw .usage("--phrase-text \(id) has no words", hint: "e.g. \(id)='微信到账{amount}'") }
            phrases[id] = pieces
        }
        pack.phrases = phrases
        pack.defaultPhrase = given[0].id
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

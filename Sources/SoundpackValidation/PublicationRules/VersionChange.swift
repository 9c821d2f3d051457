// What changed between two versions of a pack, and the semantic-version bump that change needs.

import SoundpackAudio
import SoundpackCore

/// The size of a version bump.
public enum Bump: Int, Comparable, Sendable, Codable {
    case none, patch, minor, major
    /// A smaller bump comes first: none, patch, minor, major.
    public static func < (a: Bump, b: Bump) -> Bool { a.rawValue < b.rawValue }
    /// As messages say it: `no`, `patch`, `minor`, `major`.
    public var name: String { ["no", "patch", "minor", "major"][rawValue] }

    /// The bump from `old` to `new` (assumes `new > old`).
    public static func between(_ old: SemanticVersion, _ new: SemanticVersion) -> Bump {
        if new.major != old.major { return .major }
        if new.minor != old.minor { return .minor }
        return new.patch != old.patch ? .patch : .none
    }
}

/// The facts of a version that decide its compatibility, from a validated pack or (SoundpackPublish)
/// a catalog record and the store's manifest.
public struct VersionFacts: Sendable, Equatable {
    /// What the bump rule compares of one clip.
    public struct Clip: Sendable, Hashable {
        /// The clip's SHA-256.
        public var sha256: String
        /// Its sample format, when known.
        public var format: ClipFormat?
        /// One clip's facts.
        public init(sha256: String, format: ClipFormat?) {
            self.sha256 = sha256
            self.format = format
        }
    }

    /// The version these facts are of.
    public var version: SemanticVersion
    /// Its pack digest.
    public var digest: String
    /// How it reads amounts, with its options.
    public var grammar: Grammar
    /// The largest amount it says.
    public var maxAmount: Amount
    /// Clip key → hash and format.
    public var clips: [String: Clip]
    /// pack.json's texts (`prefix` → 微信到账), when known.
    public var texts: [String: String]?
    /// Clip key → its path in the pack, when known.
    public var paths: [String: String]?
    /// What the version can announce, when known (the store's manifest keeps it, and the catalog
    /// for versions recorded since migration 7).
    public var phrasebook: Phrasebook?
    /// Each clip's words and print, when its audio was read (a pack folder, or the store's clips):
    /// what tells a changed clip that sounds like another word's.
    public var voices: EarlierVoices?

    /// The one constructor; both sides of a comparison are built from typed facts through it.
    public init(version: SemanticVersion, digest: String, grammar: Grammar, maxAmount: Amount, clips: [String: Clip],
                texts: [String: String]? = nil, paths: [String: String]? = nil, phrasebook: Phrasebook? = nil) {
        self.version = version
        self.digest = digest
        self.grammar = grammar
        self.maxAmount = maxAmount
        self.clips = clips
        self.texts = texts
        self.paths = paths
        self.phrasebook = phrasebook
    }

    /// Equal when every fact but `voices` is: a catalog record keeps no clip's sound.
    public static func == (a: VersionFacts, b: VersionFacts) -> Bool {
        a.version == b.version && a.digest == b.digest && a.grammar == b.grammar && a.maxAmount == b.maxAmount && a.clips == b.clips
            && a.texts == b.texts && a.paths == b.paths && a.phrasebook == b.phrasebook
    }

    /// The most common clip format: the pack's format.
    var format: ClipFormat? {
        var counts: [ClipFormat: Int] = [:]
        for clip in clips.values { if let format = clip.format { counts[format, default: 0] += 1 } }
        return counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key.description > $1.key.description }?.key
    }
}

extension VersionFacts {
    /// The facts of a validated pack (nil when its pack.json could not be read).
    public init?(_ report: PackReport) {
        guard let manifest = report.packFile, let digest = report.digest else { return nil }
        var clips: [String: Clip] = [:]
        for clip in report.clips { if let facts = clip.facts { clips[clip.key] = Clip(sha256: facts.sha256, format: facts.format) } }
        self.init(version: manifest.version, digest: digest, grammar: manifest.grammar, maxAmount: manifest.maxAmount, clips: clips,
                  texts: manifest.texts, paths: manifest.clips, phrasebook: manifest.phrasebook)
        var printed: [String: EarlierVoices.Clip] = [:]
        for clip in report.clips {
            guard let facts = clip.facts, let print = facts.print else { continue }
            let words = clip.token.map { manifest.grammar.text(of: $0, texts: manifest.texts) } ?? manifest.texts[clip.key] ?? clip.key
            printed[clip.key] = EarlierVoices.Clip(words: words, sha256: facts.sha256, print: print)
        }
        voices = EarlierVoices(version: manifest.version, clips: printed)
    }
}

/// The differences between two versions, each with the bump it needs.
public struct VersionChange: Sendable, Codable, Equatable {
    /// One difference: what changed, the detail, and the bump it needs.
    public struct Item: Sendable, Codable, Equatable {
        /// What changed (`tokens removed`).
        public var kind: String
        /// Which (`亿`).
        public var detail: String
        /// The bump it needs.
        public var needs: Bump
    }

    /// The older version.
    public var from: String
    /// The newer version.
    public var to: String
    /// Tokens the newer version has and the older lacks, in reading order.
    public var tokensAdded: [String]
    /// Tokens the older version has and the newer lacks.
    public var tokensRemoved: [String]
    /// Tokens in both whose clip's bytes changed.
    public var audioChanged: [String]
    /// Of those, each that now sounds like another token's older clip → that token (`audio.swapped`);
    /// nil when either side's audio was not read.
    public var soundsLike: [String: String]?
    /// Phrase ids added, removed and changed (pieces or being the default); nil when neither
    /// version declares phrases, or one side's are not known.
    public var phrasesAdded: [String]?
    /// Phrase ids the newer version no longer has.
    public var phrasesRemoved: [String]?
    /// Phrase ids whose pieces or default-ness changed.
    public var phrasesChanged: [String]?
    /// Every difference, gravest kinds first.
    public var items: [Item]

    /// The bump the changes need together.
    public var required: Bump { items.map(\.needs).max() ?? .none }

    /// The differences from `old` to `new`, each with the bump it needs.
    public init(from old: VersionFacts, to new: VersionFacts) {
        from = old.version.description
        to = new.version.description
        let oldTokens = Set(old.clips.keys), newTokens = Set(new.clips.keys)
        tokensAdded = newTokens.subtracting(oldTokens).sorted(by: new.grammar.precedes)
        tokensRemoved = oldTokens.subtracting(newTokens).sorted(by: new.grammar.precedes)
        audioChanged = oldTokens.intersection(newTokens).filter { old.clips[$0]?.sha256 != new.clips[$0]?.sha256 }.sorted(by: new.grammar.precedes)
        var items: [Item] = []
        if !tokensRemoved.isEmpty {
            items.append(Item(kind: "tokens removed", detail: tokensRemoved.joined(separator: " "), needs: .major))
        }
        if old.grammar != new.grammar {
            let describe = { (g: Grammar) in ([g.id.rawValue] + g.chosenOptions.map { "\($0.name)=\($0.value)" }).joined(separator: " ") }
            items.append(Item(kind: "grammar changed", detail: "\(describe(old.grammar)) → \(describe(new.grammar))", needs: .major))
        }
        if let a = old.format, let b = new.format, a != b {
            items.append(Item(kind: "sample format changed", detail: "\(a) → \(b)", needs: .major))
        }
        if old.maxAmount != new.maxAmount {
            let (a, b) = (old.maxAmount, new.maxAmount)
            items.append(Item(kind: b < a ? "maxAmount lowered" : "maxAmount raised", detail: "\(a) → \(b)", needs: b < a ? .major : .minor))
        }
        // Phrases are compared when either side declares them: a payload names a phrase, so one
        // removed or saying other clips (or another default) breaks pushes written for the old version.
        if let a = old.phrasebook, let b = new.phrasebook, a.isDeclared || b.isDeclared {
            (phrasesAdded, phrasesRemoved, phrasesChanged) = Self.phraseChanges(from: a, to: b, into: &items)
        }
        if !tokensAdded.isEmpty {
            items.append(Item(kind: "tokens added", detail: tokensAdded.joined(separator: " "), needs: .minor))
        }
        if !audioChanged.isEmpty {
            items.append(Item(kind: "audio changed", detail: audioChanged.joined(separator: " "), needs: .patch))
        }
        if let a = old.voices, let b = new.voices {
            let comparison = VoiceComparison.compare(b, with: a)
            soundsLike = Dictionary(comparison.swaps.map { ($0.key, $0.soundsLike) }, uniquingKeysWith: { first, _ in first })
            for swap in comparison.swaps.sorted(by: { new.grammar.precedes($0.key, $1.key) }) {
                items.append(Item(kind: "audio changed", detail: "\(swap.key) — sounds like the earlier \(swap.soundsLike)", needs: .patch))
            }
            if comparison.voiceChanged {
                items.append(Item(kind: "voice changed", detail: "\(comparison.changed) changed clips resemble none of \(a.version)'s", needs: .patch))
            }
        }
        if let a = old.texts, let b = new.texts, a != b {
            let keys = Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted(by: new.grammar.precedes)
            items.append(Item(kind: "texts changed", detail: keys.map { "\($0): \(a[$0] ?? "(none)") → \(b[$0] ?? "(none)")" }.joined(separator: "; "), needs: .patch))
        }
        if let a = old.paths, let b = new.paths {
            let moved = Set(a.keys).intersection(b.keys).filter { a[$0] != b[$0] }.sorted(by: new.grammar.precedes)
            if !moved.isEmpty {
                items.append(Item(kind: "paths changed", detail: moved.map { "\($0): \(a[$0] ?? "") → \(b[$0] ?? "")" }.joined(separator: "; "), needs: .patch))
            }
        }
        // What differs when nothing listed does: the texts, when one side cannot say them.
        if items.isEmpty && old.digest != new.digest && (old.texts == nil || new.texts == nil) {
            items.append(Item(kind: "pack changed", detail: "texts differ (one side's texts are not recorded; compare the pack folders)", needs: .patch))
        }
        self.items = items
    }

    /// The phrases added, removed and changed between two phrasebooks, with their items (and one
    /// for another default phrase) appended to `items`.
    private static func phraseChanges(
        from a: Phrasebook, to b: Phrasebook, into items: inout [Item]
    ) -> (added: [String], removed: [String], changed: [String]) {
        let (was, now) = (a.written, b.written)
        let added = Set(now.keys).subtracting(was.keys).sorted(), removed = Set(was.keys).subtracting(now.keys).sorted()
        let changed = Set(was.keys).intersection(now.keys).filter { was[$0] != now[$0] }.sorted()
        if !removed.isEmpty { items.append(Item(kind: "phrases removed", detail: removed.joined(separator: " "), needs: .major)) }
        if !changed.isEmpty {
            let detail = changed.map { "\($0): \(was[$0]?.joined(separator: " ") ?? "") → \(now[$0]?.joined(separator: " ") ?? "")" }
            items.append(Item(kind: "phrases changed", detail: detail.joined(separator: "; "), needs: .major))
        }
        if a.defaultID != b.defaultID {
            items.append(Item(kind: "default phrase changed", detail: "\(a.defaultID) → \(b.defaultID)", needs: .major))
        }
        if !added.isEmpty { items.append(Item(kind: "phrases added", detail: added.joined(separator: " "), needs: .minor)) }
        return (added, removed, changed)
    }
}

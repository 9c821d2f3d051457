// What changed between two versions of a pack, and the semantic-version bump that change needs.

import SoundpackCore

/// The size of a version bump.
public enum Bump: Int, Comparable, Sendable, Codable {
    case none, patch, minor, major
    public static func < (a: Bump, b: Bump) -> Bool { a.rawValue < b.rawValue }
    public var name: String { ["no", "patch", "minor", "major"][rawValue] }

    /// The bump from `old` to `new` (assumes `new > old`).
    public static func between(_ old: SemanticVersion, _ new: SemanticVersion) -> Bump {
        if new.major != old.major { return .major }
        if new.minor != old.minor { return .minor }
        return new.patch != old.patch ? .patch : .none
    }
}

/// The facts of a version that decide its compatibility.
public struct VersionFacts: Sendable, Equatable {
    public var version: String
    public var digest: String
    public var grammar: String
    public var two: String
    public var maxAmount: String
    /// Token → (sha256, "rate Hz, channels, codec")
    public var clips: [String: (sha256: String, format: String)]

    public static func == (a: VersionFacts, b: VersionFacts) -> Bool {
        a.version == b.version && a.digest == b.digest && a.grammar == b.grammar && a.two == b.two && a.maxAmount == b.maxAmount
            && a.clips.mapValues { "\($0.sha256) \($0.format)" } == b.clips.mapValues { "\($0.sha256) \($0.format)" }
    }

    /// The most common clip format: the pack's format.
    var format: String? {
        var counts: [String: Int] = [:]
        for clip in clips.values { counts[clip.format, default: 0] += 1 }
        return counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key
    }
}

/// The differences between two versions, each with the bump it needs.
public struct VersionChange: Sendable, Codable, Equatable {
    public struct Item: Sendable, Codable, Equatable {
        public var kind: String
        public var detail: String
        public var needs: Bump
    }

    public var from: String
    public var to: String
    public var tokensAdded: [String]
    public var tokensRemoved: [String]
    public var audioChanged: [String]
    public var items: [Item]

    /// The bump the changes need together.
    public var required: Bump { items.map(\.needs).max() ?? .none }

    public init(from old: VersionFacts, to new: VersionFacts) {
        from = old.version
        to = new.version
        let oldTokens = Set(old.clips.keys), newTokens = Set(new.clips.keys)
        tokensAdded = newTokens.subtracting(oldTokens).sorted(by: Token.precedes)
        tokensRemoved = oldTokens.subtracting(newTokens).sorted(by: Token.precedes)
        audioChanged = oldTokens.intersection(newTokens).filter { old.clips[$0]?.sha256 != new.clips[$0]?.sha256 }.sorted(by: Token.precedes)
        var items: [Item] = []
        if !tokensRemoved.isEmpty {
            items.append(Item(kind: "tokens removed", detail: tokensRemoved.joined(separator: " "), needs: .major))
        }
        if old.grammar != new.grammar || old.two != new.two {
            items.append(Item(kind: "grammar changed", detail: "\(old.grammar) two=\(old.two) → \(new.grammar) two=\(new.two)", needs: .major))
        }
        if let a = old.format, let b = new.format, a != b {
            items.append(Item(kind: "sample format changed", detail: "\(a) → \(b)", needs: .major))
        }
        if old.maxAmount != new.maxAmount, let a = try? Amount(parsing: old.maxAmount), let b = try? Amount(parsing: new.maxAmount) {
            items.append(Item(kind: b < a ? "maxAmount lowered" : "maxAmount raised", detail: "\(a) → \(b)", needs: b < a ? .major : .minor))
        }
        if !tokensAdded.isEmpty {
            items.append(Item(kind: "tokens added", detail: tokensAdded.joined(separator: " "), needs: .minor))
        }
        if !audioChanged.isEmpty {
            items.append(Item(kind: "audio changed", detail: audioChanged.joined(separator: " "), needs: .patch))
        }
        if items.isEmpty && old.digest != new.digest {
            items.append(Item(kind: "pack changed", detail: "texts or paths differ", needs: .patch))
        }
        self.items = items
    }
}

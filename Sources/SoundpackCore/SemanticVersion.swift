// Semantic versions (semver.org 2.0) as packs declare them in pack.json `version`.

/// `MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]`, ordered by semver precedence.
public struct SemanticVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let major: Int
    public let minor: Int
    public let patch: Int
    public let prerelease: [String]
    public let build: [String]

    public init?(_ text: String) {
        if let core = Self.plainCore(text) {
            (major, minor, patch, prerelease, build) = (core.0, core.1, core.2, [], [])
        } else {
            guard let version = Self.readInFull(text) else { return nil }
            self = version
        }
    }

    init(major: Int, minor: Int, patch: Int, prerelease: [String], build: [String]) {
        (self.major, self.minor, self.patch, self.prerelease, self.build) = (major, minor, patch, prerelease, build)
    }

    /// Any version text, read part by part.
    static func readInFull(_ text: String) -> SemanticVersion? {
        var rest = Substring(text)
        var build: [String] = []
        if let plus = rest.firstIndex(of: "+") {
            build = rest[rest.index(after: plus)...].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            rest = rest[..<plus]
            guard build.allSatisfy(Self.isIdentifier) else { return nil }
        }
        var prerelease: [String] = []
        if let dash = rest.firstIndex(of: "-") {
            prerelease = rest[rest.index(after: dash)...].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            rest = rest[..<dash]
            guard prerelease.allSatisfy(Self.isIdentifier),
                  prerelease.allSatisfy({ !Self.isNumeric($0) || $0 == "0" || !$0.hasPrefix("0") }) else { return nil }
        }
        let core = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard core.count == 3,
              core.allSatisfy({ Self.isNumeric(String($0)) && ($0 == "0" || !$0.hasPrefix("0")) && $0.count <= 9 }),
              let major = Int(core[0]), let minor = Int(core[1]), let patch = Int(core[2]) else { return nil }
        return SemanticVersion(major: major, minor: minor, patch: patch, prerelease: prerelease, build: build)
    }

    public var description: String {
        var text = "\(major).\(minor).\(patch)"
        if !prerelease.isEmpty { text += "-" + prerelease.joined(separator: ".") }
        if !build.isEmpty { text += "+" + build.joined(separator: ".") }
        return text
    }

    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        if (lhs.major, lhs.minor, lhs.patch) != (rhs.major, rhs.minor, rhs.patch) {
            return (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }
        switch (lhs.prerelease.isEmpty, rhs.prerelease.isEmpty) {
        case (true, true), (true, false): return false
        case (false, true): return true
        case (false, false): break
        }
        for (a, b) in zip(lhs.prerelease, rhs.prerelease) where a != b {
            // Numeric identifiers compare as numbers at any length (no leading zeros: the longer
            // is the larger, then digit by digit); `Int(a)` would fail past Int.max.
            switch (isNumeric(a), isNumeric(b)) {
            case (true, true): return a.utf8.count != b.utf8.count ? a.utf8.count < b.utf8.count : Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
            case (true, false): return true
            case (false, true): return false
            case (false, false): return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
            }
        }
        return lhs.prerelease.count < rhs.prerelease.count
    }

    /// Whether `self` is a pre-release of `other`'s version (`1.0.0-rc.1` of `1.0.0` or of `1.0.0-rc.2`).
    public func isPrerelease(ofSameCoreAs other: SemanticVersion) -> Bool {
        !prerelease.isEmpty && (major, minor, patch) == (other.major, other.minor, other.patch)
    }

    /// Orders version strings by semver precedence; strings that are not versions come first.
    public static func isOlder(_ a: String, than b: String) -> Bool {
        switch (SemanticVersion(a), SemanticVersion(b)) {
        case let (x?, y?): return x < y
        case (nil, .some): return true
        default: return false
        }
    }

    /// `MAJOR.MINOR.PATCH` alone, each 1–9 digits without a leading zero, read byte by byte (a
    /// catalog's thousands of versions are read in every index rewrite); nil for anything else,
    /// which the reading above then takes as it always did.
    private static func plainCore(_ text: String) -> (Int, Int, Int)? {
        var parts = (0, 0, 0), part = 0, value = 0, digits = 0, leadingZero = false
        for byte in text.utf8 {
            if byte == 0x2E {
                guard digits > 0, part < 2 else { return nil }
                if part == 0 { parts.0 = value } else { parts.1 = value }
                (part, value, digits, leadingZero) = (part + 1, 0, 0, false)
                continue
            }
            guard byte >= 0x30, byte <= 0x39, digits < 9, !leadingZero else { return nil }
            leadingZero = digits == 0 && byte == 0x30
            value = value * 10 + Int(byte - 0x30)
            digits += 1
        }
        guard part == 2, digits > 0 else { return nil }
        parts.2 = value
        return parts
    }

    private static func isIdentifier(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D
        }
    }

    private static func isNumeric(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}

/// Versions travel in files as their text ("1.2.0").
extension SemanticVersion: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let version = SemanticVersion(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a semantic version")
        }
        self = version
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

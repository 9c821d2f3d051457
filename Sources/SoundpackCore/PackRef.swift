// `ID[@VERSION]`: how people, commands and pushes name a pack or one version of it. One parser and
// one formatter, for the command line, the engine and the phone.

/// A pack, or one version of it: `wechat` (its newest version that is not yanked) or
/// `wechat@1.0.1`. Its `description` is the one way soundpack writes a version's name.
public struct PackRef: Sendable, Hashable, CustomStringConvertible {
    public var id: String
    /// Nil: the newest version that is not yanked.
    public var version: SemanticVersion?

    public init(id: String, version: SemanticVersion? = nil) {
        self.id = id
        self.version = version
    }

    /// Why a text is not `ID[@VERSION]`, as data: the reader phrases it for its own audience.
    public enum Problem: Error, Sendable, Equatable {
        /// The part before `@` (the whole text, without one) is not a pack id: 1-63 of a-z, 0-9
        /// and `-`, starting with a letter or digit (`PackFile.isValidID`).
        case notAnID(String)
        /// The part after `@` is not a semantic version (it may be empty: `wechat@`).
        case notAVersion(String)
    }

    /// `text` read as `ID[@VERSION]`; everything after the first `@` is the version.
    public init(parsing text: String) throws(Problem) {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard PackFile.isValidID(parts[0]) else { throw .notAnID(parts[0]) }
        id = parts[0]
        guard parts.count == 2 else { return }
        guard let version = SemanticVersion(parts[1]) else { throw .notAVersion(parts[1]) }
        self.version = version
    }

    /// Nil unless `text` is a valid pack id, optionally followed by `@` and a semantic version.
    public init?(_ text: String) {
        guard let parsed = try? PackRef(parsing: text) else { return nil }
        self = parsed
    }

    /// `id@version`, or `id` alone when no version is named.
    public var description: String { version.map { "\(id)@\($0)" } ?? id }
}

extension PackRef {
    /// `id@version`: the name of one published version.
    public static func name(_ id: String, _ version: SemanticVersion) -> String { PackRef(id: id, version: version).description }

    /// `id@version` for a version as a file wrote it, not yet read as a semantic version (the
    /// exported manifest's), so a wrong one is shown as it is.
    public static func name(_ id: String, versionText: String) -> String { "\(id)@\(versionText)" }
}

/// The name this type had before it was the one `ID[@VERSION]` of the package.
@available(*, deprecated, renamed: "PackRef")
public typealias PackPin = PackRef

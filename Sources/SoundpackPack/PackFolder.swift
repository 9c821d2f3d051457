// A pack folder: where it is read from, and how the user named it. Set once when a command
// starts, so nothing downstream rewrites a report's path.

/// A pack folder as the user named it and as the engine reads it.
public struct PackFolder: Sendable, Hashable {
    /// The manifest every pack folder holds at its root (DESIGN §3).
    public static let packFile = "pack.json"

    /// The absolute path every file of the pack is read from.
    public let path: String
    /// The folder as the user wrote it (relative or absolute): what reports, messages and the
    /// catalog's validation history show.
    public let shown: String

    /// The pack folder at `path` (absolute), shown in messages as `shown` (as the user typed it).
    public init(path: String, shown: String) {
        self.path = path
        self.shown = shown
    }

    /// A folder named by its absolute path.
    public init(absolute path: String) { self.init(path: path, shown: path) }

    /// `file` (relative to the pack) as the user would find it: `packs/wechat/clips/5.caf`.
    public func shown(_ file: String) -> String {
        (shown.hasSuffix("/") ? String(shown.dropLast()) : shown) + "/" + file
    }
}

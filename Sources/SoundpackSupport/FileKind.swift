// What stands at a path, told from its metadata alone: a reader of files someone else named looks
// before it opens, so a FIFO (which would wait for a writer) or a device (which opening can act on)
// is never opened.

import Foundation

package enum FileKind: Sendable, Equatable {
    case regular
    /// Anything but a regular file, named for messages: "a folder", "a FIFO", "a socket"…
    case other(String)

    /// The kind of file a `stat` mode describes.
    package init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .other("a folder")
        case S_IFIFO: self = .other("a FIFO")
        case S_IFCHR: self = .other("a character device")
        case S_IFBLK: self = .other("a block device")
        case S_IFSOCK: self = .other("a socket")
        case S_IFLNK: self = .other("a symbolic link")
        default: self = .other("a special file")
        }
    }

    /// "a regular file", or what `other` names.
    package var name: String {
        switch self {
        case .regular: return "a regular file"
        case .other(let name): return name
        }
    }

    /// What `path` names, symbolic links followed as `open` follows them; nil when `stat` fails
    /// (`errno` says why: ENOENT or ENOTDIR when there is nothing).
    package static func of(_ path: String) -> FileKind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileKind(mode: info.st_mode)
    }

    /// What stands at `path` itself: a symbolic link is reported, never followed (lstat); nil
    /// when there is nothing (`errno` says why).
    package static func at(_ path: String) -> FileKind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileKind(mode: info.st_mode)
    }
}

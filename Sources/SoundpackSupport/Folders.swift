// Creating a folder and its parents one component at a time, in a loop: a path 30,000 levels deep
// from a hostile argument fails with the system's error (ENAMETOOLONG), never with a stack
// overflow, and every component that exists must already be a folder.

import Foundation
import SoundpackCore

package enum Folders {
    /// The longest path the system takes; longer arguments are refused before any work.
    package static let maxPathBytes = Int(PATH_MAX)

    /// Creates `path` and any missing parents (like `mkdir -p`), with mode 0755.
    package static func create(_ path: String) throws(POSIXFailure) {
        guard path.utf8.count < maxPathBytes else {
            throw POSIXFailure("cannot create \(path.quoted(limit: 80)): the path is \(path.utf8.count) bytes, above the system's \(maxPathBytes)", code: ENAMETOOLONG)
        }
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.slashSeparated {
            current += "/" + component
            if mkdir(current, 0o755) == 0 { continue }
            let reason = errno
            var info = stat()
            guard reason == EEXIST, stat(current, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                if reason == EEXIST { throw POSIXFailure("cannot create \(path.quoted(limit: 80)): \(current.quoted(limit: 80)) is not a folder", code: ENOTDIR) }
                throw POSIXFailure("cannot create \(current.quoted(limit: 80)): \(String(cString: strerror(reason)))", code: reason)
            }
        }
    }
}

extension Folders {
    /// One entry found by `walk`.
    package struct Entry: Sendable, Equatable {
        package enum Kind: Sendable, Equatable { case file, folder, other }
        /// Path relative to the walked folder, components joined with `/`.
        package var path: String
        /// A regular file, a folder, or anything else (symlink, FIFO, device, socket).
        package var kind: Kind
    }

    /// The path with every symlink resolved (realpath(3)), for a path that may not exist yet: its
    /// deepest existing ancestor resolved, the missing rest appended. Two paths name the same file
    /// only when these agree; comparing the paths as written misses a link.
    package static func realPath(_ path: String) -> String {
        let parts = URL(fileURLWithPath: path).standardizedFileURL.path.utf8
            .split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
        // realpath(3) takes at most PATH_MAX bytes, so the search starts at the longest prefix that
        // fits and walks up from there: a path 30,000 levels deep costs a few thousand short calls,
        // not 30,000 calls on the whole path.
        var count = 0, length = 0
        while count < parts.count, length + 1 + parts[count].utf8.count < Int(PATH_MAX) {
            length += 1 + parts[count].utf8.count
            count += 1
        }
        while true {
            if let resolved = realpath("/" + parts[0..<count].joined(separator: "/"), nil) {
                defer { free(resolved) }
                var result = String(cString: resolved)
                for part in parts[count...] { result += (result.hasSuffix("/") ? "" : "/") + part }
                return result
            }
            guard count > 0 else { return path }
            count -= 1
        }
    }

    /// Every file and folder under `root`, walked with readdir (no stat for entries whose type the
    /// directory reports), without following symlinks, with an explicit stack (any depth).
    /// Paths are joined component by component, never cut by character counts: a name that starts
    /// with a combining mark stays a name of its own. `skipHidden` leaves out names starting with
    /// `.` and everything under them.
    package static func walk(_ root: String, skipHidden: Bool = false) -> [Entry] {
        var entries: [Entry] = []
        var pending: [String] = [""]
        while let relative = pending.popLast() {
            let folder = relative.isEmpty ? root : root + "/" + relative
            guard let directory = opendir(folder) else { continue }
            defer { closedir(directory) }
            while let item = readdir(directory) {
                let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name == "." || name == ".." || (skipHidden && name.hasPrefix(".")) { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                var kind: Entry.Kind
                switch Int32(item.pointee.d_type) {
                case Int32(DT_DIR): kind = .folder
                case Int32(DT_REG): kind = .file
                case Int32(DT_UNKNOWN):
                    var info = stat()
                    guard lstat(root + "/" + path, &info) == 0 else { continue }
                    kind = info.st_mode & S_IFMT == S_IFDIR ? .folder : (info.st_mode & S_IFMT == S_IFREG ? .file : .other)
                default: kind = .other
                }
                entries.append(Entry(path: path, kind: kind))
                if kind == .folder { pending.append(path) }
            }
        }
        return entries.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }
}

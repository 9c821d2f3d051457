// Creating a folder and its parents one component at a time, in a loop: a path 30,000 levels deep
// from a hostile argument fails with the system's error (ENAMETOOLONG), never with a stack
// overflow, and every component that exists must already be a folder.

import Foundation

public enum Folders {
    /// The longest path the system takes; longer arguments are refused before any work.
    public static let maxPathBytes = Int(PATH_MAX)

    /// Creates `path` and any missing parents (like `mkdir -p`), with mode 0755.
    public static func create(_ path: String) throws(POSIXFailure) {
        guard path.utf8.count < maxPathBytes else {
            throw POSIXFailure("cannot create \(path.quoted(limit: 80)): the path is \(path.utf8.count) bytes, above the system's \(maxPathBytes)", code: ENAMETOOLONG)
        }
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
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

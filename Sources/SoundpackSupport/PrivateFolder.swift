// Folders only this user made, opened without following a symbolic link: where locks are taken and
// versions staged. A folder another user made first (a predictable name in /tmp) or a link planted
// in its place is refused, never used, so nobody else decides what a lock opens or a clean-up removes.

import Foundation
import SoundpackCore

package enum PrivateFolder {
    /// Opens the folder `path` (created with mode 0700 when missing and `create` is true): it must
    /// be a folder, not a symbolic link, and owned by this user. The folders above it are the
    /// caller's (a path the user named, resolved). The descriptor is the caller's to close.
    package static func open(_ path: String, create: Bool = true) throws(POSIXFailure) -> Int32 {
        try open(path, in: AT_FDCWD, shown: path, create: create)
    }

    /// The same for `name`, one component, inside the open folder `parent`; `shown` names it in
    /// messages.
    package static func open(_ name: String, in parent: Int32, shown: String, create: Bool = true) throws(POSIXFailure) -> Int32 {
        if create, mkdirat(parent, name, 0o700) != 0, errno != EEXIST {
            throw POSIXFailure("cannot create \(shown.quoted(limit: 120))")
        }
        let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = errno
            var info = stat()
            if fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0 {
                let kind = FileKind(mode: info.st_mode).name
                throw POSIXFailure("\(shown.quoted(limit: 120)) is \(kind), not a folder soundpack made", code: reason == ELOOP ? ELOOP : ENOTDIR)
            }
            errno = reason
            throw POSIXFailure("cannot open \(shown.quoted(limit: 120))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let failure = POSIXFailure("cannot read \(shown.quoted(limit: 120))")
            close(fd)
            throw failure
        }
        guard info.st_uid == geteuid() else {
            close(fd)
            throw POSIXFailure("\(shown.quoted(limit: 120)) belongs to user \(info.st_uid), not to this user (\(geteuid()))", code: EPERM)
        }
        return fd
    }

    /// Opens `names`, one folder inside the other, under the folder `base` (the caller's: a path the
    /// user named, followed as given), each a private folder as `open(_:in:shown:create:)` wants it.
    package static func open(_ names: [String], under base: String, create: Bool = true) throws(POSIXFailure) -> Int32 {
        var fd = SystemCall.open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXFailure("cannot open \(base.quoted(limit: 120))") }
        var shown = base
        for name in names {
            shown += (shown.hasSuffix("/") ? "" : "/") + name
            let parent = fd
            defer { close(parent) }
            fd = try open(name, in: parent, shown: shown, create: create)
        }
        return fd
    }

    /// Opens the file `name` in the private folder `folder` for a lock (read and write, created
    /// 0600 when missing), never through a symbolic link: a link or anything but a regular file in
    /// its place is refused.
    package static func openLockFile(_ name: String, in folder: Int32, shown: String) throws(POSIXFailure) -> Int32 {
        var info = stat()
        if fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT != S_IFREG {
            let kind = FileKind(mode: info.st_mode).name
            throw POSIXFailure("\(shown.quoted(limit: 120)) is \(kind), not a lock file soundpack made", code: EEXIST)
        }
        let fd = openat(folder, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXFailure("cannot open \(shown.quoted(limit: 120))") }
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw POSIXFailure("\(shown.quoted(limit: 120)) is not a lock file soundpack made", code: EEXIST)
        }
        return fd
    }
}

extension Folders {
    /// The names in the open folder `fd` (`.` and `..` left out), read through a duplicate of the
    /// descriptor, which stays open.
    package static func names(in fd: Int32) -> [String] {
        let copy = dup(fd)
        guard copy >= 0 else { return [] }
        guard let directory = fdopendir(copy) else {
            close(copy)
            return []
        }
        defer { closedir(directory) }
        rewinddir(directory)
        var names: [String] = []
        while let item = readdir(directory) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// How deep `remove` goes into folders before it gives up (leaving the rest).
    static let maxRemovalDepth = 256

    /// Removes `name` from the open folder `parent` and, when it is a folder, everything in it,
    /// without following a symbolic link anywhere: a link is removed, never what it points to, and
    /// every folder is opened relative to the one above it (O_NOFOLLOW), so a link swapped in for a
    /// folder meanwhile is not entered either. True when nothing is left.
    @discardableResult
    package static func remove(_ name: String, in parent: Int32) -> Bool {
        remove(name, in: parent, depth: 0)
    }

    private static func remove(_ name: String, in parent: Int32, depth: Int) -> Bool {
        var info = stat()
        guard fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return errno == ENOENT }
        guard info.st_mode & S_IFMT == S_IFDIR else { return unlinkat(parent, name, 0) == 0 || errno == ENOENT }
        guard depth < maxRemovalDepth else { return false }
        let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return false }
        var emptied = true
        for entry in names(in: fd) where !remove(entry, in: fd, depth: depth + 1) { emptied = false }
        close(fd)
        return emptied && (unlinkat(parent, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
    }
}

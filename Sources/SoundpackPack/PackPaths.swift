// The paths inside a pack folder: which clip paths may be opened, how a path is written
// canonically, and which audio files the folder holds.

import Foundation
import SoundpackSupport

package enum PackPaths {
    /// Extensions counted as audio files when looking for files no clip uses.
    static let audioExtensions: Set<String> = ["caf", "wav", "wave", "aif", "aiff", "aifc", "mp3", "m4a", "aac", "flac", "ogg", "opus"]

    /// A clip path without `.` components or repeated slashes: `./clips//5.caf` → `clips/5.caf`.
    package static func normalized(_ path: String) -> String {
        isNormal(path) ? path : path.slashSeparated.filter { $0 != "." }.joined(separator: "/")
    }

    /// Whether `path` is its own normal form: no component empty or `.` (so no slash at either
    /// end, none twice), as nearly every clip path is; one pass over its bytes.
    private static func isNormal(_ path: String) -> Bool {
        var component = 0, dot = false, empty = true
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if component == 0 || (component == 1 && dot) { return false }
                component = 0
            } else {
                dot = component == 0 && byte == UInt8(ascii: ".")
                component += 1
            }
            empty = false
        }
        return !empty && component > 0 && !(component == 1 && dot)
    }

    /// Where a clip goes in a published version: its pack path under `clips/` (`shi.caf` →
    /// `clips/shi.caf`; `clips/shi.caf` stays). Two different pack paths must never land on one
    /// store path (validation refuses such a pack).
    package static func storePath(_ packPath: String) -> String {
        let clean = normalized(packPath)
        return clean.hasBytePrefix("clips/") ? clean : "clips/" + clean
    }

    /// The longest a path component may be (bytes): what file systems and object keys allow.
    package static let maxComponentBytes = 255

    /// Why a clip path must not be opened, or nil: absolute, `..`, empty, or through a symlink.
    package static func unsafeReason(_ path: String, root: URL) -> String? {
        var folders = Set<[UInt8]>(), size = 0
        return unsafeReason(path, root: root.path, checkedFolders: &folders, size: &size)
    }

    /// `unsafeReason(_:root:)` for many paths of one pack: `checkedFolders` keeps the folders
    /// already found not to be symlinks, so each is looked at once. Only the pack's own checks
    /// fill it, and a path is opened right after its check; what changes on disk in between is
    /// refused when the file is opened (it must be a regular file). `size` gets the size the
    /// file had when looked at (0 when it is missing).
    /// The folders are told apart by their bytes (`pathKey`): two spellings of one name that
    /// Swift's String counts as equal (`é` composed or as `e` + U+0301) are two folders on Linux.
    package static func unsafeReason(_ path: String, root: String, checkedFolders: inout Set<[UInt8]>, size: inout Int) -> String? {
        size = 0
        if path.isEmpty { return "the path is empty" }
        if path.hasBytePrefix("/") || path.hasBytePrefix("~") { return "the path is absolute; write it relative to the pack folder" }
        if path.utf8.contains(UInt8(ascii: "\\")) { return "the path contains a backslash; use '/'" }
        if hasParentComponent(path) { return "the path contains '..' and could point outside the pack" }
        // Each folder on the way (the normal path up to each slash), then the file.
        let clean = normalized(path)
        let ends = clean.utf8.indices.filter { clean.utf8[$0] == UInt8(ascii: "/") } + (clean.isEmpty ? [] : [clean.endIndex])
        for (index, end) in ends.enumerated() {
            let joined = String(clean[..<end])
            let folder = index < ends.count - 1
            if folder && checkedFolders.contains(joined.pathKey) { continue }
            var info = stat()
            let found = lstat(root + "/" + joined, &info) == 0
            if found, info.st_mode & S_IFMT == S_IFLNK {
                return "'\(joined)' is a symbolic link; clips must be regular files inside the pack"
            }
            if folder { checkedFolders.insert(joined.pathKey) } else if found { size = Int(info.st_size) }
        }
        return nil
    }

    /// Whether a component of `path` is `..`.
    private static func hasParentComponent(_ path: String) -> Bool {
        var length = 0, dots = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if length == 2 && dots == 2 { return true }
                (length, dots) = (0, 0)
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return length == 2 && dots == 2
    }

    /// Regular audio files (by extension) under `root`, as sorted relative paths; hidden names and
    /// symlinks are skipped.
    package static func audioFiles(under root: URL) -> [String] {
        Folders.walk(root.path, skipHidden: true).filter { entry in
            entry.kind == .file && audioExtensions.contains(pathExtension(entry.path).lowercased())
        }.map(\.path).sorted()
    }

    /// What follows the last `.` of the last component, as `NSString.pathExtension` says it
    /// (`b.CAF` → `CAF`; `.caf` and `b.` have none), without bridging an ASCII path (nearly every
    /// file's) to `NSString`. Any other path is bridged: Foundation reads it by characters, and a
    /// character may join a `.` to the scalar before it (U+0600 is one that does).
    package static func pathExtension(_ path: String) -> Substring {
        let bytes = path.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }), bytes.last != UInt8(ascii: "/") else { return Substring((path as NSString).pathExtension) }
        let name = bytes.lastIndex(of: UInt8(ascii: "/")).map(bytes.index(after:)) ?? bytes.startIndex
        guard let dot = bytes[name...].lastIndex(of: UInt8(ascii: ".")), dot != name else { return "" }
        return path[bytes.index(after: dot)...]
    }
}

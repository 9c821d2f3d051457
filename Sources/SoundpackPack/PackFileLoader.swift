// Reads a pack folder's pack.json under a size cap and parses it.

import Foundation
import SoundpackCore
import SoundpackSupport

/// Reads and parses a pack folder's pack.json, refusing one over `maxBytes` unread.
public enum PackFileLoader {
    /// pack.json files above this size are refused unread; a real one is a few kilobytes.
    package static let maxBytes = PackFile.maxBytes

    /// The parsed pack.json of the pack folder `directory`.
    public static func load(directory: String) throws(PackFileError) -> PackFile {
        try PackFile(json: try read(directory: directory))
    }

    /// The bytes of the pack folder's pack.json, refused unread when it is not a regular file or
    /// above the cap.
    public static func read(directory: String) throws(PackFileError) -> Data {
        let path = URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent(PackFolder.packFile).path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder) else {
            throw PackFileError(field: nil, message: "the pack folder does not exist")
        }
        guard isFolder.boolValue else { throw PackFileError(field: nil, message: "not a folder; give the pack folder that holds pack.json") }
        // lstat, not FileManager's attributes: those also look up the owner's and group's names.
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw PackFileError(field: nil, message: "no pack.json in the folder (run `soundpack init` to scaffold one)")
        }
        guard FileKind(mode: info.st_mode) == .regular else {
            throw PackFileError(field: nil, message: "pack.json is not a regular file")
        }
        let size = Int(info.st_size)
        guard size <= maxBytes else {
            throw PackFileError(field: nil, message: "pack.json is \(size) bytes, above the \(maxBytes / 1024) KiB cap")
        }
        do { return Data(try CappedFile.read(path, cap: maxBytes, what: "pack.json")) } catch {
            throw PackFileError(field: nil, message: "pack.json cannot be read: \(error.description)")
        }
    }
}

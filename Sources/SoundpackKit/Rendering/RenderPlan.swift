// What `render` writes where: one file, the bytes of one file for a stream, or a folder of files.
// Decided here from the request and what is on disk; the command only phrases the problems.

import Foundation
import SoundpackCore

public enum RenderDestination: Sendable, Equatable {
    /// One amount into a regular file (replaced whole), its container from its extension.
    case file(String, Container)
    /// One amount for standard output or an existing device or FIFO: rendered aside, then the
    /// bytes written into it, never replacing it.
    case stream(Container)
    /// Each amount into `AMOUNT.EXT` in the folder (made if missing, its parent must exist).
    case folder(String, Container)

    /// Why a request names no destination.
    public enum Problem: Error, Sendable, Equatable {
        /// A container was asked for that the file name contradicts.
        case containerConflict(asked: Container, named: Container)
        /// One amount into a file whose extension names no container.
        case unknownContainer
        /// Several amounts, but the output names a file (`stream`: a stream or device).
        case severalAmountsNeedAFolder(stream: Bool)
    }

    /// The destination of `amounts` (nil: read from a file, so possibly several) at `path`
    /// (absolute; `isStandardOutput` for `-`). `container` is the one asked for, nil when none was:
    /// files in a folder and streams then use CAF.
    public static func resolve(path: String, isStandardOutput: Bool, amounts: Int?, container: Container?) throws(Problem) -> RenderDestination {
        var info = stat()
        let exists = !isStandardOutput && stat(path, &info) == 0
        let isFolder = exists && info.st_mode & S_IFMT == S_IFDIR
        let special = isStandardOutput || (exists && info.st_mode & S_IFMT != S_IFREG && !isFolder)
        let byName = AudioFileWriter.container(forExtension: (path as NSString).pathExtension)
        let chosen = container ?? .caf
        guard amounts == 1, !isFolder else {
            if special { throw .severalAmountsNeedAFolder(stream: true) }
            if !isFolder, byName != nil { throw .severalAmountsNeedAFolder(stream: false) }
            return .folder(path, chosen)
        }
        if special { return .stream(chosen) }
        guard let byName else { throw .unknownContainer }
        if let container, container != byName { throw .containerConflict(asked: container, named: byName) }
        return .file(path, byName)
    }
}

extension PackRenderer {
    /// The file `amount` renders to, as bytes: written aside in the temporary folder, read back,
    /// removed.
    public func bytes(_ amount: Amount, container: Container) throws(AudioError) -> Data {
        let aside = FileManager.default.temporaryDirectory
            .appendingPathComponent("soundpack-render-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).\(container.rawValue)").path
        defer { unlink(aside) }
        try write(amount, to: aside, container: container)
        guard let data = FileManager.default.contents(atPath: aside) else { throw AudioError("cannot read back the rendered \(amount)") }
        return data
    }

    /// Makes the output folder, but not the folders above it: a typo there is an error.
    public static func makeOutputFolder(_ path: String) throws(SoundpackError) {
        let parent = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
            throw .environment("the folder \(parent) does not exist", hint: "create it first")
        }
        do { try Folders.create(path) } catch { throw .environment(error.message) }
    }
}

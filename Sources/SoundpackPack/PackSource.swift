// What a command argument names: a pack folder on disk, or a published version `ID[@VERSION]`.
// diff, export and payload resolve their arguments this one way.

import Foundation
import SoundpackCore
import SoundpackSupport

/// What a command argument names: a pack folder on disk, or a published version `ID[@VERSION]`.
public enum PackSource: Sendable, Hashable {
    case folder(PackFolder)
    /// A version of a published pack; nil: the newest that is not yanked.
    case published(id: String, version: SemanticVersion?)

    /// Why an argument names no pack, as data: the command phrases it.
    public enum Problem: Error, Sendable, Equatable {
        /// No pack.json there, and not a pack id either.
        case neither
        /// A pack id, but the part after `@` is not a semantic version (it may be empty).
        case notAVersion(String)
    }

    /// `argument` is a folder when it holds a pack.json that is a regular file, else it must be
    /// `ID[@VERSION]` with a valid pack id and semantic version.
    public static func resolve(_ argument: String, workingDirectory: String) throws(Problem) -> PackSource {
        let path = argument.hasPrefix("/") ? argument : URL(fileURLWithPath: workingDirectory).appendingPathComponent(argument).path
        var info = stat()
        if stat(path + "/" + PackFolder.packFile, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
            return .folder(PackFolder(path: path, shown: argument))
        }
        let ref: PackRef
        do { ref = try PackRef(parsing: argument) } catch {
            switch error {
            case .notAnID: throw .neither
            case .notAVersion(let version): throw .notAVersion(version)
            }
        }
        return .published(id: ref.id, version: ref.version)
    }
}

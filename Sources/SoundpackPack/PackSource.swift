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

    /// `argument` is a folder when it holds a pack.json that is a regular file, else it must be
    /// `ID[@VERSION]` with a valid pack id and semantic version. A malformed version is a usage
    /// error; a name that is no pack, a refused request.
    public static func resolve(_ argument: String, workingDirectory: String) throws(SoundpackError) -> PackSource {
        let path = argument.hasPrefix("/") ? argument : URL(fileURLWithPath: workingDirectory).appendingPathComponent(argument).path
        var info = stat()
        if stat(path + "/" + PackFolder.packFile, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
            return .folder(PackFolder(path: path, shown: argument))
        }
        let ref: PackRef
        do { ref = try PackRef(parsing: argument) } catch {
            switch error {
            case .notAnID:
                throw .refused("'\(argument.quoted(limit: 80))' is neither a pack folder (no pack.json there) nor ID[@VERSION]")
            case .notAVersion(let version):
                throw .usage("'\(version.quoted(limit: 80))' in '\(argument.quoted(limit: 80))' is not a semantic version; write ID@1.2.0")
            }
        }
        return .published(id: ref.id, version: ref.version)
    }
}

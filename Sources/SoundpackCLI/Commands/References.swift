// `ID@VERSION` references to recorded versions, as diff, yank, show, export and payload take them.

import SoundpackCore
import SoundpackKit

/// `ID@VERSION` split in two; the version, when given, must be a semantic version.
func parseReference(_ text: String, requireVersion: Bool) throws(SoundpackError) -> (id: String, version: SemanticVersion?) {
    let parts = text.split(separator: "@", maxSplits: 1).map(String.init)
    guard let id = parts.first, !id.isEmpty else { throw .usage("'\(text)' is not ID[@VERSION]") }
    if requireVersion && parts.count < 2 { throw .usage("'\(text)' needs a version: ID@VERSION") }
    guard parts.count > 1 else { return (id, nil) }
    guard let version = SemanticVersion(parts[1]) else {
        throw .usage("'\(parts[1])' in '\(text)' is not a semantic version", hint: "write ID@1.2.0")
    }
    return (id, version)
}

extension CLIContext {
    /// What a pack argument names (`PackSource`): a folder with a pack.json, or ID[@VERSION].
    /// `requireVersion`: a published version must name its version.
    func packSource(_ argument: String, requireVersion: Bool = false) throws(SoundpackError) -> PackSource {
        let source: PackSource
        do { source = try PackSource.resolve(argument, workingDirectory: workingDirectory) } catch {
            throw error.kind == .usage ? error : SoundpackError(error.kind, error.what, hint: "soundpack list shows the published packs")
        }
        if requireVersion, case .published(let id, nil) = source {
            throw .usage("'\(id.visible)' needs a version: ID@VERSION", hint: "or name a pack folder")
        }
        return source
    }
}

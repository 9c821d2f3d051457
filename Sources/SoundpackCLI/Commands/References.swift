// `ID@VERSION` references to recorded versions, as diff, yank, show, export and payload take them.

import SoundpackCore
import SoundpackKit

/// `text` read as `ID[@VERSION]` (`PackRef`), its problems phrased for the command line;
/// `requireVersion`: it must name a version.
func parseReference(_ text: String, requireVersion: Bool) throws(SoundpackError) -> PackRef {
    let ref: PackRef
    do { ref = try PackRef(parsing: text) } catch {
        switch error {
        case .notAnID(""):
            throw .usage("'\(text.visible)' is not ID[@VERSION]")
        case .notAnID(let id):
            throw .usage("'\(text.visible)' is not ID[@VERSION]: '\(id.visible)' is not a pack id", hint: "use 1-63 of a-z, 0-9 and '-', starting with a letter or digit")
        case .notAVersion(let version):
            throw .usage("'\(version.visible)' in '\(text.visible)' is not a semantic version", hint: "write ID@1.2.0")
        }
    }
    if requireVersion && ref.version == nil { throw .usage("'\(text.visible)' needs a version: ID@VERSION") }
    return ref
}

/// `--base-url`, read once as a `BaseURL`; nil when it is not given.
func baseURL(_ arguments: ParsedArguments) throws(SoundpackError) -> BaseURL? {
    guard let text = arguments.value("--base-url") else { return nil }
    do { return try BaseURL(checking: text) } catch { throw error.with(hint: "check --base-url") }
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

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

extension Declaration {
    /// `--base-url URL` (export, payload), read once as a `BaseURL`.
    static func baseURL(to path: WritableKeyPath<Options, BaseURL?> & Sendable, help: String) -> Self {
        .option("--base-url", to: path, value: "URL", help: help) { (text: String) throws(SoundpackError) -> BaseURL in
            do throws(SoundpackError) { return try BaseURL(checking: text) } catch { throw error.of(.usage).with(hint: "check --base-url") }
        }
    }
}

extension BaseURL: ArgumentValue {
    init?(argument: String) { try? self.init(checking: argument) }
}

extension PaymentID: ArgumentValue {
    init?(argument: String) { self.init(argument) }
}

extension PackRef: ArgumentValue {
    init?(argument: String) { try? self.init(parsing: argument) }
}

extension CLIContext {
    /// What a pack argument names (`PackSource`): a folder with a pack.json, or ID[@VERSION].
    /// `requireVersion`: a published version must name its version.
    func packSource(_ argument: String, requireVersion: Bool = false) throws(SoundpackError) -> PackSource {
        let source: PackSource
        do { source = try PackSource.resolve(argument, workingDirectory: workingDirectory) } catch {
            switch error {
            case .neither:
                throw .refused("'\(argument.quoted(limit: 80))' is neither a pack folder (no pack.json there) nor ID[@VERSION]",
                               hint: "soundpack list shows the published packs")
            case .notAVersion(let version):
                throw .usage("'\(version.quoted(limit: 80))' in '\(argument.quoted(limit: 80))' is not a semantic version; write ID@1.2.0")
            }
        }
        if requireVersion, case .published(let id, nil) = source {
            throw .usage("'\(id.visible)' needs a version: ID@VERSION", hint: "or name a pack folder")
        }
        return source
    }
}

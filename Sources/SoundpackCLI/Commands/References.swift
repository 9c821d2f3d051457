// `ID@VERSION` references to recorded versions, as diff, yank, show, export and payload take them.

import SoundpackCore

/// `ID@VERSION` split in two; the version, when given, must be a semantic version.
func parseReference(_ text: String, requireVersion: Bool) throws(CLIError) -> (id: String, version: SemanticVersion?) {
    let parts = text.split(separator: "@", maxSplits: 1).map(String.init)
    guard let id = parts.first, !id.isEmpty else { throw .usage("'\(text)' is not ID[@VERSION]") }
    if requireVersion && parts.count < 2 { throw .usage("'\(text)' needs a version: ID@VERSION") }
    guard parts.count > 1 else { return (id, nil) }
    guard let version = SemanticVersion(parts[1]) else {
        throw .usage("'\(parts[1])' in '\(text)' is not a semantic version", hint: "write ID@1.2.0")
    }
    return (id, version)
}

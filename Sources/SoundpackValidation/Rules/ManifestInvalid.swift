import SoundpackCore
import SoundpackPack
import SoundpackSupport

/// `manifest.invalid` (error): pack.json is missing, not JSON, or breaks the schema.
///
/// The message names the field at fault and what it should hold, so the fix is one edit. Also
/// refused here: two clip files that would be published at one store path (token 5 → `5.caf`
/// and token 9 → `clips/5.caf`), which would break the version at birth, and paths or a version
/// too long to become a file name.
struct ManifestInvalid: PackRule {
    static let id = RuleID.manifestInvalid
    static let severity = Severity.error
    static let summary = "pack.json is missing, not JSON, or does not follow schemas/pack.schema.json."

    func check(_ pack: InspectedPack) -> [Finding] {
        if let problem = pack.packFileError {
            var finding = finding(file: PackFolder.packFile, at: problem.field, problem.description)
            // A syntax error has no key to locate: its own line and column place it.
            (finding.line, finding.column) = (problem.line, problem.column)
            return [finding]
        }
        guard let manifest = pack.packFile else { return [] }
        var findings: [Finding] = []
        var byStorePath: [String: (key: String, path: String)] = [:]
        for clip in pack.clips where clip.unsafePath == nil {
            let target = PackPaths.storePath(clip.path)
            if let other = byStorePath[target], PackPaths.normalized(other.path) != PackPaths.normalized(clip.path) {
                findings.append(finding(token: clip.key, file: PackFolder.packFile, at: "clips.\(clip.key)",
                                        "clips '\(other.key)' (\(other.path)) and '\(clip.key)' (\(clip.path)) would both be published as \(target); rename one file"))
            } else if byStorePath[target] == nil {
                byStorePath[target] = (clip.key, clip.path)
            }
            if let long = clip.path.slashSeparated.first(where: { $0.utf8.count > PackPaths.maxComponentBytes }) {
                findings.append(finding(token: clip.key, file: PackFolder.packFile, at: "clips.\(clip.key)",
                                        "clip path component '\(String(long).quoted())' is \(long.utf8.count) bytes, above \(PackPaths.maxComponentBytes); shorten it"))
            }
        }
        // The archive is named ID-VERSION.tar.gz: it has to fit in one file name.
        let archiveName = "\(manifest.id)-\(manifest.version).tar.gz"
        if archiveName.utf8.count > PackPaths.maxComponentBytes {
            findings.append(finding(file: PackFolder.packFile, at: "version",
                                    "field 'version': '\(manifest.version.description.quoted())' is too long to name the archive \(manifest.id)-VERSION.tar.gz (\(archiveName.utf8.count) bytes, at most \(PackPaths.maxComponentBytes)); shorten its build metadata"))
        }
        return findings
    }
}

extension RuleID {
    /// `manifest.invalid`, declared by `ManifestInvalid`.
    public static let manifestInvalid = RuleID(declaring: "manifest.invalid")
}

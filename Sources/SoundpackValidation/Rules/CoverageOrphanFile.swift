import SoundpackPack
import SoundpackSupport

/// `coverage.orphan-file` (warning): an audio file in the pack folder that no clip entry uses; it
/// would be shipped and downloaded for nothing, or a clip entry points at the wrong file.
struct CoverageOrphanFile: PackRule {
    static let id = RuleID.coverageOrphanFile
    static let severity = Severity.warning
    static let summary = "An audio file in the pack that no clip uses; it is shipped for nothing."

    func check(_ pack: InspectedPack) -> [Finding] {
        guard pack.packFile != nil else { return [] }
        let used = Set(pack.clips.map { PackPaths.normalized($0.path).pathKey })  // by bytes: NFC and NFD are two files
        return pack.audioFiles.filter { !used.contains($0.pathKey) }.map {
            finding(file: $0, "audio file is not used by any clip in pack.json")
        }
    }
}

extension RuleID {
    /// `coverage.orphan-file`, declared by `CoverageOrphanFile`.
    public static let coverageOrphanFile = RuleID(declaring: "coverage.orphan-file")
}

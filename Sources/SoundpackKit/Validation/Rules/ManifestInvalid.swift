import SoundpackCore

/// `manifest.invalid` (error): pack.json is missing, not JSON, or breaks the schema.
///
/// The message names the field at fault and what it should hold, so the fix is one edit.
struct ManifestInvalid: ValidationRule {
    static let id = RuleID.manifestInvalid

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let problem = pack.manifestError else { return [] }
        return [Finding(Self.id, .error, file: PackFolder.manifestFile, problem.description)]
    }
}

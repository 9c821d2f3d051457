/// `manifest.unsafe-path` (error): a clip path that is absolute, contains `..`, or goes through a
/// symlink. Such a path could read files outside the pack; it is never opened.
struct ManifestUnsafePath: ValidationRule {
    static let id = RuleID.manifestUnsafePath

    func check(_ pack: InspectedPack) -> [Finding] {
        pack.clips.compactMap { clip in
            clip.unsafePath.map { Finding(Self.id, .error, token: clip.key, file: clip.path, "clip for '\(clip.key)' refused: \($0)") }
        }
    }
}

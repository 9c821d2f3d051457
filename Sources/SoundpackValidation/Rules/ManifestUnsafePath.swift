/// `manifest.unsafe-path` (error): a clip path that is absolute, contains `..`, or goes through a
/// symlink. Such a path could read files outside the pack; it is never opened.

import SoundpackSupport
struct ManifestUnsafePath: PackRule {
    static let id = RuleID.manifestUnsafePath
    static let severity = Severity.error
    static let summary = "A clip path is absolute, contains '..', or goes through a symlink; it is never opened."

    func check(_ pack: InspectedPack) -> [Finding] {
        pack.clips.compactMap { clip in
            clip.unsafePath.map { finding(token: clip.key, file: clip.path, "clip for '\(clip.key)' refused: \($0)") }
        }
    }
}

extension RuleID {
    /// `manifest.unsafe-path`, declared by `ManifestUnsafePath`.
    public static let manifestUnsafePath = RuleID(declaring: "manifest.unsafe-path")
}

import SoundpackSupport

/// `audio.empty` (error): the clip has no frames, or no sample above the silence threshold
/// (`checks.silenceThresholdDbfs`, default −50 dBFS). The token would be announced as a gap.
struct AudioEmpty: PackRule {
    static let id = RuleID.audioEmpty
    static let severity = Severity.error
    static let summary = "A clip has no frames or is silence only."

    func check(_ pack: InspectedPack) -> [Finding] {
        let threshold = pack.packFile?.checks.silenceThresholdDbfs ?? -50
        return pack.clips.compactMap { clip in
            guard let facts = clip.facts else { return nil }
            if facts.frames == 0 {
                return finding(token: clip.key, file: clip.path, "clip has no audio frames")
            }
            if facts.silent {
                return finding(token: clip.key, file: clip.path,
                               "clip is silence only: no sample above \(Format.number(threshold)) dBFS in \(Format.seconds(facts.durationSeconds))")
            }
            return nil
        }
    }
}

extension RuleID {
    /// `audio.empty`, declared by `AudioEmpty`.
    public static let audioEmpty = RuleID(declaring: "audio.empty")
}

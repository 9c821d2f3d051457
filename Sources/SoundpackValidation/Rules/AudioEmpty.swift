import SoundpackSupport

/// `audio.empty` (error): the clip has no frames, or no sample above the silence threshold
/// (`checks.silenceThresholdDbfs`, default −50 dBFS). The token would be announced as a gap.
struct AudioEmpty: ValidationRule {
    static let id = RuleID.audioEmpty

    func check(_ pack: InspectedPack) -> [Finding] {
        let threshold = pack.packFile?.checks.silenceThresholdDbfs ?? -50
        return pack.clips.compactMap { clip in
            guard let facts = clip.facts else { return nil }
            if facts.frames == 0 {
                return Finding(Self.id, .error, token: clip.key, file: clip.path, "clip has no audio frames")
            }
            if facts.silent {
                return Finding(Self.id, .error, token: clip.key, file: clip.path,
                               "clip is silence only: no sample above \(Format.number(threshold)) dBFS in \(Format.seconds(facts.durationSeconds))")
            }
            return nil
        }
    }
}

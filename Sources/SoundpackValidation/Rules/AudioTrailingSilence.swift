import SoundpackSupport

/// `audio.trailing-silence` (warning): silence after the voice ends longer than
/// `checks.maxTrailingSilenceMs` (default 80 ms). Silence means samples at or below
/// `checks.silenceThresholdDbfs` (default −50 dBFS).
struct AudioTrailingSilence: PackRule {
    static let id = RuleID.audioTrailingSilence
    static let severity = Severity.warning
    static let summary = "Silence after the voice is longer than checks.maxTrailingSilenceMs."

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let checks = pack.packFile?.checks else { return [] }
        return pack.clips.compactMap { clip in
            guard let facts = clip.facts, !facts.silent, facts.trailingSilenceMs > checks.maxTrailingSilenceMs else { return nil }
            return finding(token: clip.key, file: clip.path,
                           "\(Format.number(facts.trailingSilenceMs)) ms of silence after the voice, above \(Format.number(checks.maxTrailingSilenceMs)) ms (checks.maxTrailingSilenceMs); trim it (soundpack convert --trim-silence)")
        }
    }
}

extension RuleID {
    /// `audio.trailing-silence`, declared by `AudioTrailingSilence`.
    public static let audioTrailingSilence = RuleID(declaring: "audio.trailing-silence")
}

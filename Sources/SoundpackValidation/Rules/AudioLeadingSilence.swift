import SoundpackSupport

/// `audio.leading-silence` (warning): silence before the voice starts longer than
/// `checks.maxLeadingSilenceMs` (default 80 ms). Joined clips then sound halting. Silence means
/// samples at or below `checks.silenceThresholdDbfs` (default −50 dBFS).
struct AudioLeadingSilence: PackRule {
    static let id = RuleID.audioLeadingSilence
    static let severity = Severity.warning
    static let summary = "Silence before the voice is longer than checks.maxLeadingSilenceMs; joined clips sound halting."

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let checks = pack.packFile?.checks else { return [] }
        return pack.clips.compactMap { clip in
            guard let facts = clip.facts, !facts.silent, facts.leadingSilenceMs > checks.maxLeadingSilenceMs else { return nil }
            return finding(token: clip.key, file: clip.path,
                           "\(Format.number(facts.leadingSilenceMs)) ms of silence before the voice, above \(Format.number(checks.maxLeadingSilenceMs)) ms (checks.maxLeadingSilenceMs); trim it (soundpack convert --trim-silence)")
        }
    }
}

extension RuleID {
    /// `audio.leading-silence`, declared by `AudioLeadingSilence`.
    public static let audioLeadingSilence = RuleID(declaring: "audio.leading-silence")
}

import SoundpackSupport

/// `audio.dc-offset` (warning): the mean of a channel is more than `checks.maxDcOffsetPercent`
/// (default 0.5 %) of full scale away from zero. Joined clips then step at every boundary, which
/// is heard as a click, and headroom is lost.
struct AudioDCOffset: PackRule {
    static let id = RuleID.audioDCOffset
    static let severity = Severity.warning
    static let summary = "A channel's mean is off zero by more than checks.maxDcOffsetPercent; joins click."

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let limit = pack.packFile?.checks.maxDcOffsetPercent else { return [] }
        return pack.clips.compactMap { clip in
            guard let facts = clip.facts, abs(facts.dcOffsetPercent) > limit else { return nil }
            return finding(token: clip.key, file: clip.path,
                           "DC offset of \(Format.number(facts.dcOffsetPercent)) % of full scale, above \(Format.number(limit)) % (checks.maxDcOffsetPercent); remove it with a high-pass filter")
        }
    }
}

extension RuleID {
    /// `audio.dc-offset`, declared by `AudioDCOffset`.
    public static let audioDCOffset = RuleID(declaring: "audio.dc-offset")
}

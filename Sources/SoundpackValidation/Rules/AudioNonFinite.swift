import SoundpackSupport

/// `audio.non-finite` (error): a float clip holds NaN or infinite samples, or samples beyond the
/// float headroom (±16, +24 dBFS). Such a file is not audio: every level, silence and loudness
/// figure of it would be garbage, and joined into an announcement it plays as a burst of noise or
/// silence. The samples are measured as silence, so the other rules still run on finite numbers;
/// this rule makes sure such a clip never passes.
struct AudioNonFinite: PackRule {
    static let id = RuleID.audioNonFinite
    static let severity = Severity.error
    static let summary = "A clip holds NaN or infinite samples, or float samples far beyond full scale; no figure of it can be trusted."

    func check(_ pack: InspectedPack) -> [Finding] {
        pack.clips.compactMap { clip in
            guard let facts = clip.facts, let bad = facts.nonFinite else { return nil }
            let at = facts.sampleRate > 0 ? " (\(Format.seconds(Double(bad.firstFrame) / Double(facts.sampleRate))))" : ""
            return finding(token: clip.key, file: clip.path,
                           "clip has \(bad.count) sample\(bad.count == 1 ? "" : "s") that are NaN, infinite or beyond ±16, the first at frame \(bad.firstFrame)\(at); export it again as PCM")
        }
    }
}

extension RuleID {
    /// `audio.non-finite`, declared by `AudioNonFinite`.
    public static let audioNonFinite = RuleID(declaring: "audio.non-finite")
}

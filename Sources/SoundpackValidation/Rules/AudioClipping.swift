/// `audio.clipping` (warning): runs of consecutive full-scale samples (at least
/// `checks.clippingRunSamples`, default 3, in one channel). The waveform was cut off when it was
/// recorded or gained; listeners hear a crackle, loudest on a phone speaker.

import SoundpackSupport
struct AudioClipping: PackRule {
    static let id = RuleID.audioClipping
    static let severity = Severity.warning
    static let summary = "Runs of consecutive full-scale samples: the clip is clipped and crackles."

    func check(_ pack: InspectedPack) -> [Finding] {
        let run = Int(pack.packFile?.checks.clippingRunSamples ?? 3)
        return pack.clips.compactMap { clip in
            guard let facts = clip.facts, facts.clippedRuns > 0 else { return nil }
            return finding(token: clip.key, file: clip.path,
                           "\(facts.clippedRuns) run\(facts.clippedRuns == 1 ? "" : "s") of \(run) or more full-scale samples: the clip is clipped; re-record it or lower its gain before it clips")
        }
    }
}

extension RuleID {
    /// `audio.clipping`, declared by `AudioClipping`.
    public static let audioClipping = RuleID(declaring: "audio.clipping")
}

import Foundation
import SoundpackSupport

/// `audio.loudness-outlier` (warning): a clip's momentary-max loudness is more than
/// `checks.maxLoudnessDeviationLU` (default 2 LU) from the pack's median. Within one announcement
/// that word jumps out or drops away. Momentary max, not integrated loudness: integrated loudness
/// is undefined for clips under 400 ms, which most digit clips are.
package struct AudioLoudnessOutlier: PackRule {
    static let id = RuleID.audioLoudnessOutlier
    static let severity = Severity.warning
    static let summary = "A clip's momentary-max loudness is more than checks.maxLoudnessDeviationLU from the pack median."

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let limit = pack.packFile?.checks.maxLoudnessDeviationLU else { return [] }
        let measured = pack.clips.compactMap { clip in clip.facts?.momentaryMaxLufs.map { (clip, $0) } }
        guard measured.count >= 3, let median = Self.median(measured.map(\.1)) else { return [] }
        return measured.compactMap { clip, loudness in
            let deviation = loudness - median
            guard abs(deviation) > limit else { return nil }
            return finding(token: clip.key, file: clip.path,
                           "momentary-max loudness \(Format.number(loudness)) LUFS is \(Format.number(abs(deviation))) LU \(deviation > 0 ? "louder" : "quieter") than the pack median \(Format.number(median)) LUFS (limit \(Format.number(limit)) LU, checks.maxLoudnessDeviationLU); level it (soundpack convert --loudness)")
        }
    }

    package static func median(_ values: [Double]) -> Double? {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

extension RuleID {
    /// `audio.loudness-outlier`, declared by `AudioLoudnessOutlier`.
    public static let audioLoudnessOutlier = RuleID(declaring: "audio.loudness-outlier")
}

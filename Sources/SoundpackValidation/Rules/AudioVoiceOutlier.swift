import Foundation
import SoundpackAudio
import SoundpackCore
import SoundpackPack
import SoundpackSupport

/// `audio.voice-outlier` (warning): a clip's median pitch is more than
/// `checks.maxVoicePitchSemitones` (default 7) from the pack's median — one clip from another
/// speaker or TTS voice, heard as a second person in the middle of an amount. Pitch is YIN's, over
/// the five loudest of the clip's frames (`VoiceFeatures`, from the probe's one
/// decode); the median of a pack's clips stands for its voice, so at least 5 clips must have one.
/// Measured (`scripts/measure/voice-outlier.py`) on 432 clean clips (demo packs, seven packs
/// synthesised with male and female espeak-ng voices) a clip sits at most 4.1 semitones from its
/// pack's median; all 336 clips of a voice of the other sex planted in a pack sit above 7. Two voices
/// at one pitch (en-us and its m3 variant) are not told apart, and spectral shape is left out: a word's vowel moves a clip's centroid
/// more than a voice does (五's sits about 11 semitones below its pack's median).
struct AudioVoiceOutlier: PackRule {
    static let id = RuleID.audioVoiceOutlier
    static let severity = Severity.warning
    static let summary = "A clip's median pitch is more than checks.maxVoicePitchSemitones from the pack median: another speaker or voice."
    /// The fewest clips with a pitch that make a pack's median a voice.
    static let fewestClips = 5

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let limit = pack.packFile?.checks.maxVoicePitchSemitones else { return [] }
        var seen = Set<[UInt8]>()
        let pitched = pack.clips.compactMap { clip -> (clip: InspectedClip, hz: Double)? in
            guard let hz = clip.facts?.print?.voice.pitchHz, seen.insert(PackPaths.normalized(clip.path).pathKey).inserted else { return nil }
            return (clip, hz)
        }
        guard pitched.count >= Self.fewestClips, let median = AudioLoudnessOutlier.median(pitched.map(\.hz)) else { return [] }
        return pitched.compactMap { clip, hz in
            let semitones = 12 * log2(hz / median)
            guard abs(semitones) > limit else { return nil }
            return finding(token: clip.key, file: clip.path,
                           "median pitch \(Int(hz.rounded())) Hz is \(Format.number(abs(semitones))) semitones \(semitones > 0 ? "above" : "below") the pack's median \(Int(median.rounded())) Hz (limit \(Format.number(limit)), checks.maxVoicePitchSemitones): another speaker or voice? Record it with the pack's voice")
        }
    }
}

extension RuleID {
    /// `audio.voice-outlier`, declared by `AudioVoiceOutlier`.
    public static let audioVoiceOutlier = RuleID(declaring: "audio.voice-outlier")
}

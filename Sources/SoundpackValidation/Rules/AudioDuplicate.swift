import Foundation
import SoundpackAudio
import SoundpackCore
import SoundpackPack
import SoundpackSupport

/// `audio.duplicate` (error): two files under two keys that say different words hold one
/// recording — a copy, or a copy re-encoded, resampled or re-levelled. Every announcement that says
/// the second word says the first. Judged on the clips' voice prints (`VoicePrint`, from the same
/// decode as every other probe): correlation at least `checks.minDuplicateSimilarity` (default
/// 0.99) and no loud frame of either more than `checks.maxDuplicateDifferenceDb` (default 5 dB)
/// from the other. Copies (resampled, µ-law, MP3 and back, re-levelled) correlate at least 0.999 and
/// stay within 1 dB. Words said alike correlate less: on espeak-ng's voices of every grammar at six
/// speeds (`scripts/measure/duplicate.py`) no pair of different words passes 0.978, though Hindi's
/// 7 and 60 (सात, साठ) come within 2.5 dB of each other. One file under two keys is allowed (that is a
/// choice made in pack.json), and so are two
/// keys whose texts are one word.
struct AudioDuplicate: PackRule {
    static let id = RuleID.audioDuplicate
    static let severity = Severity.error
    static let summary = "Two files under keys that say different words hold the same recording (a copy, re-encoded or re-levelled)."

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let manifest = pack.packFile else { return [] }
        let checks = manifest.checks
        // One entry per file (keys naming one file are one recording by choice).
        var seen = Set<[UInt8]>()
        let files = pack.clips.compactMap { clip -> (clip: InspectedClip, print: VoicePrint, word: String)? in
            guard let print = clip.facts?.print, seen.insert(PackPaths.normalized(clip.path).pathKey).inserted else { return nil }
            let word = clip.token.map { manifest.grammar.text(of: $0, texts: manifest.texts) } ?? manifest.texts[clip.key] ?? clip.key
            return (clip, print, word)
        }
        var findings: [Finding] = []
        // Each file is named once at most: after the first earlier file it is a copy of.
        for (n, later) in files.enumerated() {
            for earlier in files[..<n] where earlier.word != later.word {
                let similarity = later.print.similarity(to: earlier.print)
                guard similarity >= checks.minDuplicateSimilarity else { continue }
                let difference = max(later.print.largestDifferenceDb(from: earlier.print), earlier.print.largestDifferenceDb(from: later.print))
                guard difference <= checks.maxDuplicateDifferenceDb else { continue }
                findings.append(finding(token: later.clip.key, file: later.clip.path,
                                        "\(later.clip.path.visible) (\(later.clip.key.visible)) is the recording of \(earlier.clip.path.visible) (\(earlier.clip.key.visible)): similarity \(String(format: "%.3f", similarity)), at most \(Format.number(difference)) dB apart (checks.minDuplicateSimilarity \(String(format: "%.3f", checks.minDuplicateSimilarity)), checks.maxDuplicateDifferenceDb \(Format.number(checks.maxDuplicateDifferenceDb))); every announcement with \(later.clip.key.visible) says \(earlier.clip.key.visible): record \(later.clip.key.visible) again"))
                break
            }
        }
        return findings
    }
}

extension RuleID {
    /// `audio.duplicate`, declared by `AudioDuplicate`.
    public static let audioDuplicate = RuleID(declaring: "audio.duplicate")
}

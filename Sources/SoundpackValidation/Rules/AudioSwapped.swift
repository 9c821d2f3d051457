import SoundpackAudio
import SoundpackCore
import SoundpackPack
import SoundpackSupport

/// `audio.swapped` (error): a clip that sounds like another word's clip of the earlier version
/// clearly better than like its own — "5 now sounds like the earlier 6": two files swapped in a
/// re-recording, or one copied over another. Asked when a store holds an earlier version of the
/// pack (the newest below this one): in validate with a store, in publish's gate and in `diff`.
/// Judged on voice prints (`VoicePrint.similarity`): another word's earlier clip at least
/// `checks.minSwapSimilarity` alike (default 0.8) and `checks.minSwapMargin` (0.15) more alike
/// than the clip's own earlier one. When most changed clips resemble no earlier clip the voice
/// changed as a whole: the report says so once, in a note, and names no clip.
struct AudioSwapped: PackRule {
    static let id = RuleID.audioSwapped
    static let severity = Severity.error
    static let summary = "A clip sounds like another word's clip of the store's earlier version, clearly more than like its own."

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let comparison = pack.comparison, let earlier = pack.earlier, let checks = pack.packFile?.checks else { return [] }
        let path = Dictionary(pack.clips.map { ($0.key, $0.path) }, uniquingKeysWith: { first, _ in first })
        return comparison.swaps.map { swap in
            let file = path[swap.key] ?? swap.key
            return finding(token: swap.key, file: file,
                           "\(swap.key.visible) now sounds like the earlier \(swap.soundsLike.visible) of \(earlier.version): similarity \(String(format: "%.3f", swap.other)) to it, \(String(format: "%.3f", swap.own)) to its own earlier clip (checks.minSwapSimilarity \(String(format: "%.2f", checks.minSwapSimilarity)), checks.minSwapMargin \(String(format: "%.2f", checks.minSwapMargin))); were the files of \(swap.key.visible) and \(swap.soundsLike.visible) swapped?")
        }
    }
}

extension RuleID {
    /// `audio.swapped`, declared by `AudioSwapped`.
    public static let audioSwapped = RuleID(declaring: "audio.swapped")
}

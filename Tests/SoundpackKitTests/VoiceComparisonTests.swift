// audio.swapped's comparison on prints made to measure: an earlier file moved to another key stays a
// swap when the rest of the voice changed, and a clip that cannot be compared with its own earlier
// clip (lengths too far apart) is a swap only when it is a copy of another word's.

import Foundation
import Testing
@testable import SoundpackAudio
import SoundpackCore
@testable import SoundpackValidation

@Suite struct VoiceComparisonTests {
    /// `frames` frames of seeded noise.
    static func values(_ frames: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<frames * VoicePrint.bands).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state >> 11) % 2_000) / 1_000
        }
    }

    static func clip(_ words: String, _ values: [Float]) -> EarlierVoices.Clip {
        EarlierVoices.Clip(words: words, sha256: words + "-old", print: VoicePrint(values: values))
    }

    @Test func aMovedFileStaysASwapWhenTheVoiceChanged() {
        let earlier = EarlierVoices(version: SemanticVersion("1.0.0")!, clips: Dictionary(uniqueKeysWithValues: (1...6).map { n in
            ("\(n)", Self.clip("w\(n)", Self.values(30, seed: UInt64(n))))
        }))
        // 5 and 6 hold each other's earlier files; 1, 2 and 3 are another voice, like nothing earlier.
        let now = [("5", "w5", Self.values(30, seed: 6)), ("6", "w6", Self.values(30, seed: 5))]
            + (1...3).map { n in ("\(n)", "w\(n)", Self.values(30, seed: UInt64(100 + n))) }
        let comparison = VoiceComparison.compare(now.map { (key: $0.0, words: $0.1, sha256: $0.0 + "-new", print: VoicePrint(values: $0.2)) },
                                                 with: earlier, minSimilarity: 0.8, margin: 0.15)
        #expect(comparison.voiceChanged)
        #expect(comparison.swaps.map(\.key).sorted() == ["5", "6"])
        #expect(comparison.swaps.map(\.soundsLike).sorted() == ["5", "6"])
    }

    @Test func aClipTooLongToCompareWithItsOwnNeedsACopyToBeASwap() {
        let other = Self.values(20, seed: 7)
        let earlier = EarlierVoices(version: SemanticVersion("1.0.0")!, clips: [
            "a": Self.clip("wa", Self.values(40, seed: 8)),
            "b": Self.clip("wb", other),
        ])
        // Half the length of its own earlier clip (no figure), and 0.8–0.99 like b's: no swap.
        let noise = Self.values(20, seed: 9)
        let alike = zip(other, noise).map { $0 + 0.6 * $1 }
        let print = VoicePrint(values: alike)
        let similarity = print.similarity(to: VoicePrint(values: other))
        #expect(similarity > 0.8 && similarity < 0.99, "\(similarity)")
        #expect(print.similarity(to: VoicePrint(values: Self.values(40, seed: 8))) == 0)
        let comparison = VoiceComparison.compare([(key: "a", words: "wa", sha256: "a-new", print: print)], with: earlier, minSimilarity: 0.8, margin: 0.15)
        #expect(comparison.swaps.isEmpty)
        // b's earlier file itself under a is still a swap.
        let moved = VoiceComparison.compare([(key: "a", words: "wa", sha256: "a-new", print: VoicePrint(values: other))], with: earlier, minSimilarity: 0.8, margin: 0.15)
        #expect(moved.swaps.map(\.soundsLike) == ["b"])
    }
}

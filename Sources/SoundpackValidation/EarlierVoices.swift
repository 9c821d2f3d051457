// The clips of an earlier version, and what comparing a pack's clips with them finds: a clip that
// sounds like another word's earlier clip rather than its own (two files swapped in a re-recording),
// or a voice that changed as a whole.

import SoundpackAudio
import SoundpackCore
import SoundpackPack

/// Each clip of an earlier version of a pack: its words and its print (`audio.swapped`, `diff`).
public struct EarlierVoices: Sendable, Equatable {
    /// One earlier clip.
    package struct Clip: Sendable, Equatable {
        package var words: String
        package var sha256: String
        package var print: VoicePrint
        package init(words: String, sha256: String, print: VoicePrint) { (self.words, self.sha256, self.print) = (words, sha256, print) }
    }

    /// The earlier version.
    public var version: SemanticVersion
    /// Clip key → the earlier clip.
    package var clips: [String: Clip]

    package init(version: SemanticVersion, clips: [String: Clip]) {
        self.version = version
        self.clips = clips
    }
}

/// What comparing a version's clips with an earlier version's found.
package struct VoiceComparison: Sendable, Equatable {
    /// A clip that sounds like another key's earlier clip clearly better than its own earlier clip.
    package struct Swap: Sendable, Equatable {
        package var key: String
        /// The key whose earlier clip it sounds like.
        package var soundsLike: String
        /// Its similarity to its own earlier clip, and to `soundsLike`'s.
        package var own: Double, other: Double
    }

    package var swaps: [Swap] = []
    /// The clips that changed resemble no earlier clip: the whole voice was replaced, and clips are
    /// not compared one by one.
    package var voiceChanged = false
    /// Clips whose bytes changed (each file once).
    package var changed = 0

    /// The fewest changed clips that make "the voice changed" a statement about the pack.
    static let fewestForVoice = 3
    /// At least this alike, two prints are one recording (copies measure 0.999 and more; different
    /// words 0.978 at most): such a clip is a swap even where nothing else can be compared.
    static let copySimilarity = 0.99

    /// Compares each clip of `now` (key, words, bytes' SHA-256, print) whose bytes changed with
    /// every clip of `earlier`: a swap when another word's earlier clip is at least `minSimilarity`
    /// alike and `margin` more alike than its own.
    package static func compare(_ now: [(key: String, words: String, sha256: String, print: VoicePrint)], with earlier: EarlierVoices,
                                minSimilarity: Double, margin: Double) -> VoiceComparison {
        var result = VoiceComparison()
        var resembling = 0
        for clip in now {
            guard let own = earlier.clips[clip.key], own.sha256 != clip.sha256 else { continue }
            result.changed += 1
            let ownSimilarity = clip.print.similarity(to: own.print)
            var best: (key: String, similarity: Double)?
            for (key, other) in earlier.clips where key != clip.key && other.words != clip.words {
                let similarity = clip.print.similarity(to: other.print)
                if similarity > best?.similarity ?? -1 || (similarity == best?.similarity && key < best!.key) { best = (key, similarity) }
            }
            if max(ownSimilarity, best?.similarity ?? 0) >= minSimilarity { resembling += 1 }
            // A similarity of 0 to its own earlier clip is no figure: the two lengths differ too much
            // to compare (a much slower retake), so only a near copy of another word's clip tells.
            let needed = ownSimilarity > 0 ? minSimilarity : max(minSimilarity, copySimilarity)
            if let best, best.similarity >= needed, best.similarity - ownSimilarity >= margin {
                result.swaps.append(Swap(key: clip.key, soundsLike: best.key, own: ownSimilarity, other: best.similarity))
            }
        }
        // Most changed clips resemble nothing earlier: another voice, so a resemblance is chance;
        // an earlier file moved to another key as it was stays a swap, whatever else changed.
        if result.changed >= fewestForVoice && resembling * 2 < result.changed {
            result.voiceChanged = true
            result.swaps.removeAll { $0.other < copySimilarity }
        }
        return result
    }

    /// The clips of `now` compared with those of `earlier`, under the default thresholds (`diff`).
    package static func compare(_ now: EarlierVoices, with earlier: EarlierVoices) -> VoiceComparison {
        let checks = Checks()
        let clips = now.clips.sorted { $0.key < $1.key }.map { (key: $0.key, words: $0.value.words, sha256: $0.value.sha256, print: $0.value.print) }
        return compare(clips, with: earlier, minSimilarity: checks.minSwapSimilarity, margin: checks.minSwapMargin)
    }

    /// `pack`'s clips compared with `earlier`, under the pack's thresholds.
    static func of(_ pack: InspectedPack, with earlier: EarlierVoices) -> VoiceComparison? {
        guard let manifest = pack.packFile else { return nil }
        var seen = Set<[UInt8]>()
        let now = pack.clips.compactMap { clip -> (key: String, words: String, sha256: String, print: VoicePrint)? in
            guard let facts = clip.facts, let print = facts.print, seen.insert(PackPaths.normalized(clip.path).pathKey).inserted else { return nil }
            let words = clip.token.map { manifest.grammar.text(of: $0, texts: manifest.texts) } ?? manifest.texts[clip.key] ?? clip.key
            return (clip.key, words, facts.sha256, print)
        }
        return compare(now, with: earlier, minSimilarity: manifest.checks.minSwapSimilarity, margin: manifest.checks.minSwapMargin)
    }
}

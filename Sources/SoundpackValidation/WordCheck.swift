// Which word each clip of an English pack says, asked of the recogniser once per pack after its
// clips are probed (from the samples the probe kept: no second read of a clip).

import SoundpackAudio
import SoundpackCore
import SoundpackPack

/// The words a pack's clips were heard as (`audio.wrong-word` judges them), and what was not checked.
enum WordCheck {
    /// Whether the probe should keep `manifest`'s clips' samples for the recogniser.
    static func wanted(_ manifest: PackFile) -> Bool { WordRecogniser.languages.contains(manifest.grammar.id.rawValue) }

    /// What each clip (by index in `pack.clips`) was heard as when not its own words, and the
    /// note that says which words were not checked (nil when every clip was).
    static func run(_ pack: InspectedPack) -> (heard: [Int: HeardWords], note: String?, checkedNone: Bool) {
        guard let manifest = pack.packFile else { return ([:], nil, true) }
        let language = manifest.grammar.id.rawValue
        guard wanted(manifest) else { return ([:], "words not checked (no recogniser for \(language))", true) }
        let outcome = WordRecogniser.with { recogniser -> (heard: [Int: HeardWords], note: String?, checkedNone: Bool) in
            var unknown = Set<String>(), unchecked = 0
            // Each file once, with the words of its first key.
            var seen = Set<[UInt8]>()
            let entries = pack.clips.enumerated().compactMap { n, clip -> (clip: Int, words: String, speech: [Int16])? in
                guard let token = clip.token, let speech = clip.facts?.speech, !speech.isEmpty,
                      seen.insert(PackPaths.normalized(clip.path).pathKey).inserted else { return nil }
                let text = manifest.grammar.text(of: token, texts: manifest.texts)
                guard let words = recogniser.words(of: text) else {
                    unknown.insert(text)
                    unchecked += 1
                    return nil
                }
                return (n, words, speech)
            }
            let choices = Array(Set(entries.map(\.words))).sorted()
            // A clip can only be heard as another word of the pack: with fewer than two, none is checked.
            guard choices.count >= 2 else {
                return ([:], "words not checked (fewer than two different words the recogniser knows)", true)
            }
            var heard: [Int: HeardWords] = [:]
            for entry in entries { heard[entry.clip] = recogniser.heard(entry.speech, expected: entry.words, among: choices) }
            let note = unknown.isEmpty ? nil
                : "words not checked for \(unchecked) clip\(unchecked == 1 ? "" : "s") (not in the recogniser's dictionary: \(unknown.sorted().map { $0.visible }.joined(separator: ", ")))"
            return (heard, note, false)
        }
        switch outcome {
        case .success(let checked): return checked
        case .failure(let unavailable): return ([:], "words not checked (no recogniser for \(language): \(unavailable.reason))", true)
        }
    }
}

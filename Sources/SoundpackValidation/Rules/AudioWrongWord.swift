import SoundpackAudio
import SoundpackCore
import SoundpackPack
import SoundpackSupport

/// `audio.wrong-word` (warning): the recogniser hears a clip as another word of the pack, and
/// that word fits the clip better than its own by at least `checks.minWrongWordMargin` (default
/// 25, pocketsphinx's score per 10 ms frame) — a clip filed under the wrong name. Asked for en-US
/// and en-IN packs of pocketsphinx (its US English model, over a closed grammar of the pack's own
/// words; `WordCheck`); for other grammars, or without pocketsphinx, the report says once that the
/// words were not checked. A warning: a recogniser is a second opinion, and confuses words alike
/// (fourteen and forty) at small margins. Measured (`scripts/measure/wrong-word.py`) on 407 clean
/// clips (the demo pack, ten espeak-ng voices and speeds) the largest margin of a clip heard as
/// another word was 17.4; of 14,652 clips filed under another word's key, 57.2 % reach 25.
struct AudioWrongWord: PackRule {
    static let id = RuleID.audioWrongWord
    static let severity = Severity.warning
    static let summary = "The recogniser hears a clip as another word of the pack, clearly (English packs, with pocketsphinx)."

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let manifest = pack.packFile else { return [] }
        let limit = manifest.checks.minWrongWordMargin
        return pack.clips.compactMap { clip -> Finding? in
            guard let heard = clip.heard, heard.margin.map({ $0 >= limit }) ?? true, let token = clip.token else { return nil }
            let own = manifest.grammar.text(of: token, texts: manifest.texts)
            let fit = heard.margin.map { "it fits '\(heard.words.visible)' better by \(Format.number($0)) per frame (checks.minWrongWordMargin \(Format.number(limit)))" }
                ?? "'\(own.visible)' cannot be aligned with it at all"
            return finding(token: clip.key, file: clip.path,
                           "\(clip.path.visible) (\(clip.key.visible)) is heard as '\(heard.words.visible)', not '\(own.visible)': \(fit); is it filed under the wrong name?")
        }
    }
}

extension RuleID {
    /// `audio.wrong-word`, declared by `AudioWrongWord`.
    public static let audioWrongWord = RuleID(declaring: "audio.wrong-word")
}

import SoundpackCore
import SoundpackPack
import SoundpackSupport

/// `coverage.unspoken-text` (error): pack.json writes words for the prefix, the suffix or a
/// phrase's piece in `texts`, but the pack has no clip for them.
///
/// A pack without `phrases` says its suffix only when it has a suffix clip, so `texts.suffix`
/// alone is silently dropped: the team believes every announcement ends with "on PhonePe" or
/// 请查收, and no phone ever says it (nor does `say`, `render` or a payload's body). A missing
/// clip that some phrase plays is `coverage.missing-token`'s, not reported twice here.
struct CoverageUnspokenText: PackRule {
    static let id = RuleID.coverageUnspokenText
    static let severity = Severity.error
    static let summary = "A texts entry (prefix, suffix, a phrase's piece) whose clip the pack lacks: the words are written in pack.json but never said."

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let manifest = pack.packFile else { return [] }
        let book = manifest.phrasebook
        let required = Set(pack.requiredTokens.map(\.rawValue))
        let pieces = Set([Token.prefix.rawValue, Token.suffix.rawValue] + book.clips.map(\.rawValue))
        return manifest.texts.keys.sorted().compactMap { key in
            guard pieces.contains(key), manifest.clips[key] == nil, !required.contains(key), let text = manifest.texts[key] else { return nil }
            return finding(token: key, file: PackFolder.packFile, at: "texts.\(key)",
                           "texts '\(key)' ('\(text.quoted(limit: 60))') has no clip, so no announcement ever says it; add \"\(key)\" under \"clips\" in pack.json (soundpack synth speaks it), or remove the text")
        }
    }
}

extension RuleID {
    /// `coverage.unspoken-text`, declared by `CoverageUnspokenText`.
    public static let coverageUnspokenText = RuleID(declaring: "coverage.unspoken-text")
}

import SoundpackCore
import SoundpackSupport

/// `coverage.unknown-token` (warning): a clip key neither the grammar nor any phrase says (a typo
/// such as `"11"`, a traditional character used as a key, a phrase clip no phrase lists). The clip
/// would never play.
struct CoverageUnknownToken: PackRule {
    static let id = RuleID.coverageUnknownToken
    static let severity = Severity.warning
    static let summary = "A clip key that the grammar never says; the clip would never play."

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let manifest = pack.packFile else { return [] }
        let book = manifest.phrasebook
        func said(_ token: Token) -> Bool {
            manifest.grammar.says(token) ? book.saysAmounts : book.phrases.contains { $0.clips.contains(token) }
        }
        return pack.clips.filter { $0.token.map(said) != true }.map { clip in
            let why = book.isDeclared ? "neither a token of grammar \(manifest.grammar.id.rawValue) nor a clip any phrase says"
                : "not a token of grammar \(manifest.grammar.id.rawValue)"
            return finding(token: clip.key, file: clip.path, "clip key '\(clip.key.visible)' is \(why); it is never said")
        }
    }
}

extension RuleID {
    /// `coverage.unknown-token`, declared by `CoverageUnknownToken`.
    public static let coverageUnknownToken = RuleID(declaring: "coverage.unknown-token")
}

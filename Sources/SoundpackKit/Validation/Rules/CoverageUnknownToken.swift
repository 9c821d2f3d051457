/// `coverage.unknown-token` (warning): a clip key the grammar never says (a typo such as `"11"` or
/// a traditional character used as a key). The clip would never play.
struct CoverageUnknownToken: ValidationRule {
    static let id = RuleID.coverageUnknownToken

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let manifest = pack.packFile else { return [] }
        return pack.clips.filter { $0.token == nil }.map { clip in
            Finding(Self.id, .warning, token: clip.key, file: clip.path,
                    "clip key '\(clip.key)' is not a token of grammar \(manifest.grammar.id.rawValue); it is never said")
        }
    }
}

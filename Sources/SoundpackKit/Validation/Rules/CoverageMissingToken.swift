/// `coverage.missing-token` (error): a token the grammar says for some amount up to `maxAmount`
/// has no clip, so those amounts cannot be announced.
struct CoverageMissingToken: ValidationRule {
    static let id = RuleID.coverageMissingToken

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let manifest = pack.packFile else { return [] }
        return pack.requiredTokens.filter { manifest.clips[$0.rawValue] == nil }.map { token in
            let text = manifest.grammar.text(of: token, texts: manifest.texts)
            let spoken = text == token.rawValue ? "" : " (\(text))"
            return Finding(Self.id, .error, token: token.rawValue, at: "clips",
                           "no clip for token '\(token.rawValue)'\(spoken), which amounts up to \(manifest.maxAmount) need; add it under \"clips\" in pack.json")
        }
    }
}

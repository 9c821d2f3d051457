/// `coverage.missing-token` (error): a token the grammar says for some amount up to `maxAmount`,
/// or a clip a phrase says, has no clip, so those announcements cannot be made.

import SoundpackSupport
struct CoverageMissingToken: PackRule {
    static let id = RuleID.coverageMissingToken
    static let severity = Severity.error
    static let summary = "A token some amount up to maxAmount is read with has no clip, so that amount cannot be announced."

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let manifest = pack.packFile else { return [] }
        let book = manifest.phrasebook
        return pack.requiredTokens.filter { manifest.clips[$0.rawValue] == nil }.map { token in
            let text = manifest.grammar.text(of: token, texts: manifest.texts)
            let spoken = text == token.rawValue ? "" : " (\(text))"
            let users = book.phrases(saying: token).map { "'\($0.id)'" }
            let needed = book.isDeclared && !users.isEmpty
                ? "which phrase\(users.count == 1 ? "" : "s") \(users.joined(separator: ", ")) say\(users.count == 1 ? "s" : "")"
                : "which amounts up to \(manifest.maxAmount) need"
            return finding(token: token.rawValue, at: "clips",
                           "no clip for token '\(token.rawValue)'\(spoken), \(needed); add it under \"clips\" in pack.json")
        }
    }
}

extension RuleID {
    /// `coverage.missing-token`, declared by `CoverageMissingToken`.
    public static let coverageMissingToken = RuleID(declaring: "coverage.missing-token")
}

import SoundpackSupport

/// `payload.unknown-pack` (error): the payload's `pack` is not a published `id@version` in the
/// store's index.json (checked only when the store is known).
struct PayloadUnknownPack: PayloadRule {
    static let id = RuleID.payloadUnknownPack
    static let severity = Severity.error
    static let summary = "The pack is not a published version in the store's index.json."

    func check(_ payload: ReadPayload) -> [Finding] {
        guard payload.packs != nil, payload.facts == nil else { return [] }
        return [finding("pack '\(payload.packName.quoted())' is not a published id@version in the store's index.json")]
    }
}

extension RuleID {
    /// `payload.unknown-pack`, declared by `PayloadUnknownPack`.
    public static let payloadUnknownPack = RuleID(declaring: "payload.unknown-pack")
}

import SoundpackSupport

/// `payload.yanked-pack` (error): the payload names a yanked version; phones refuse to plan with it.
struct PayloadYankedPack: PayloadRule {
    static let id = RuleID.payloadYankedPack
    static let severity = Severity.error
    static let summary = "The pack names a yanked version; phones refuse to plan with it."

    func check(_ payload: ReadPayload) -> [Finding] {
        guard payload.facts?.yanked == true else { return [] }
        return [finding("pack '\(payload.packName.quoted())' is yanked; name a version that is not")]
    }
}

extension RuleID {
    /// `payload.yanked-pack`, declared by `PayloadYankedPack`.
    public static let payloadYankedPack = RuleID(declaring: "payload.yanked-pack")
}

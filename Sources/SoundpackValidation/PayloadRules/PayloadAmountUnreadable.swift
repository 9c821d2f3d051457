import SoundpackSupport

/// `payload.amount-unreadable` (error): `amount` is not an exact decimal string the version can
/// say (above its maxAmount, a JSON number), missing for a phrase that says one, or given to one
/// that says none.
struct PayloadAmountUnreadable: PayloadRule {
    static let id = RuleID.payloadAmountUnreadable
    static let severity = Severity.error
    static let summary = "The amount is not an exact decimal string the pack can say (or is above its maxAmount, missing for a phrase that says one, or given to one that says none)."

    func check(_ payload: ReadPayload) -> [Finding] {
        guard case .unreadable(let why) = payload.amount else { return [] }
        return [finding(why)]
    }
}

extension RuleID {
    /// `payload.amount-unreadable`, declared by `PayloadAmountUnreadable`.
    public static let payloadAmountUnreadable = RuleID(declaring: "payload.amount-unreadable")
}

import SoundpackValidation

/// `payload.amount-unreadable` (error): `amount` is not an exact decimal string the version can
/// say (above its maxAmount, a JSON number), missing for a phrase that says one, or given to one
/// that says none.
struct PayloadAmountUnreadable: PayloadRule {
    static let id = RuleID.payloadAmountUnreadable
    static let severity = Severity.error

    func check(_ payload: ReadPayload) -> [Finding] {
        guard case .unreadable(let why) = payload.amount else { return [] }
        return [finding(why)]
    }
}

import SoundpackSupport

/// `payload.no-payment-id` (warning): without a `paymentId`, a push APNs delivers again, or one
/// sent twice, is announced twice.
struct PayloadNoPaymentID: PayloadRule {
    static let id = RuleID.payloadNoPaymentID
    static let severity = Severity.warning
    static let summary = "No paymentId: an APNs retry would be announced twice."

    func check(_ payload: ReadPayload) -> [Finding] {
        guard payload.root["paymentId"] == nil else { return [] }
        return [finding("no \"paymentId\": a push APNs delivers again, or one sent twice, is announced twice")]
    }
}

extension RuleID {
    /// `payload.no-payment-id`, declared by `PayloadNoPaymentID`.
    public static let payloadNoPaymentID = RuleID(declaring: "payload.no-payment-id")
}

import SoundpackCore
import SoundpackSupport

/// `payload.payment-id` (error): `paymentId` is not 1–128 characters of `[A-Za-z0-9._:-]` starting
/// with a letter or digit; the phone ignores it, and a retry is announced again.
struct PayloadPaymentID: PayloadRule {
    static let id = RuleID.payloadPaymentID
    static let severity = Severity.error
    static let summary = "paymentId is not 1–128 characters of [A-Za-z0-9._:-]."

    func check(_ payload: ReadPayload) -> [Finding] {
        guard let value = payload.root["paymentId"] else { return [] }
        if let id = value as? String, PaymentID.isValid(id) { return [] }
        return [finding("\"paymentId\" must be a string of 1–128 characters of [A-Za-z0-9._:-], starting with a letter or digit")]
    }
}

extension RuleID {
    /// `payload.payment-id`, declared by `PayloadPaymentID`.
    public static let payloadPaymentID = RuleID(declaring: "payload.payment-id")
}

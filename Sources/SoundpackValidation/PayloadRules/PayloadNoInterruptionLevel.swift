import SoundpackSupport

/// `payload.no-interruption-level` (warning): without `aps.interruption-level`, a Focus may hold
/// the payment back; "time-sensitive" lets it through.
struct PayloadNoInterruptionLevel: PayloadRule {
    static let id = RuleID.payloadNoInterruptionLevel
    static let severity = Severity.warning
    static let summary = "No aps.interruption-level: a Focus may hold the payment back."

    func check(_ payload: ReadPayload) -> [Finding] {
        guard payload.aps["interruption-level"] == nil else { return [] }
        return [finding("no aps.interruption-level; \"time-sensitive\" lets a payment through Focus")]
    }
}

extension RuleID {
    /// `payload.no-interruption-level`, declared by `PayloadNoInterruptionLevel`.
    public static let payloadNoInterruptionLevel = RuleID(declaring: "payload.no-interruption-level")
}

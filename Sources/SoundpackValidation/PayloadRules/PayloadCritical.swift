import SoundpackSupport

/// `payload.critical` (warning): `aps.interruption-level` critical plays through mute and needs
/// Apple's Critical Alerts entitlement; a payment is usually time-sensitive.
struct PayloadCritical: PayloadRule {
    static let id = RuleID.payloadCritical
    static let severity = Severity.warning
    static let summary = "aps.interruption-level critical needs Apple's entitlement."

    func check(_ payload: ReadPayload) -> [Finding] {
        guard payload.aps["interruption-level"] as? String == "critical" else { return [] }
        return [finding("aps.interruption-level critical plays through mute and needs Apple's Critical Alerts entitlement; a payment is usually \"time-sensitive\"")]
    }
}

extension RuleID {
    /// `payload.critical`, declared by `PayloadCritical`.
    public static let payloadCritical = RuleID(declaring: "payload.critical")
}

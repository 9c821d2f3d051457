import SoundpackSupport

/// `payload.interruption-level` (error): `aps.interruption-level` is none of the levels iOS knows
/// (`PushPayload.interruptionLevels`).
struct PayloadInterruptionLevel: PayloadRule {
    static let id = RuleID.payloadInterruptionLevel
    static let severity = Severity.error
    static let summary = "aps.interruption-level is not passive, active, time-sensitive or critical."

    func check(_ payload: ReadPayload) -> [Finding] {
        guard let value = payload.aps["interruption-level"] else { return [] }
        if let level = value as? String, PushPayload.interruptionLevels.contains(level) { return [] }
        return [finding("aps.interruption-level must be one of \(PushPayload.interruptionLevels.sorted().joined(separator: ", ")), not \(String(describing: value).quoted())")]
    }
}

extension RuleID {
    /// `payload.interruption-level`, declared by `PayloadInterruptionLevel`.
    public static let payloadInterruptionLevel = RuleID(declaring: "payload.interruption-level")
}

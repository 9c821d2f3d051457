import SoundpackSupport

/// `payload.not-mutable` (error): `aps.mutable-content` is not the number 1, so the Notification
/// Service Extension does not run (a JSON `true` is named: APNs expects the number).
struct PayloadNotMutable: PayloadRule {
    static let id = RuleID.payloadNotMutable
    static let severity = Severity.error
    static let summary = "aps.mutable-content is not the number 1, so the service extension never runs."

    func check(_ payload: ReadPayload) -> [Finding] {
        switch payload.mutableContent {
        case .number(1): return []
        case .boolean(let flag): return [finding("aps.mutable-content is \(flag); APNs expects the number 1, so the extension may not run")]
        default: return [finding("aps.mutable-content is not the number 1, so the Notification Service Extension does not run")]
        }
    }
}

extension RuleID {
    /// `payload.not-mutable`, declared by `PayloadNotMutable`.
    public static let payloadNotMutable = RuleID(declaring: "payload.not-mutable")
}

import SoundpackSupport

/// `payload.too-large` (error): APNs refuses a payload above 4096 bytes. Judged from the bytes,
/// before anything is parsed; far past that size, nothing more is read.
struct PayloadTooLarge: Rule {
    static let id = RuleID.payloadTooLarge
    static let severity = Severity.error
    static let summary = "The payload is above 4096 bytes; APNs refuses it."
    static let scope = RuleID.Scope.payload
    /// Payloads up to this size are parsed for the other rules.
    static let parsedUpTo = 1 << 20

    func check(byteCount: Int) -> [Finding] {
        guard byteCount > PushPayload.maxBytes else { return [] }
        return [Finding(Self.id, Self.severity, "\(byteCount) bytes; APNs refuses payloads above \(PushPayload.maxBytes)")]
    }
}

extension RuleID {
    /// `payload.too-large`, declared by `PayloadTooLarge`.
    public static let payloadTooLarge = RuleID(declaring: "payload.too-large")
}

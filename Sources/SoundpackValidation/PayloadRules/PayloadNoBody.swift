import Foundation
import SoundpackSupport

/// `payload.no-body` (error): `aps.alert` has no body (or only spaces); since iOS 15 such a push is
/// not shown, and the extension never runs.
struct PayloadNoBody: PayloadRule {
    static let id = RuleID.payloadNoBody
    static let severity = Severity.error
    static let summary = "aps.alert has no body; iOS 15 and later drop such a push."

    func check(_ payload: ReadPayload) -> [Finding] {
        let body: String?
        switch payload.aps["alert"] {
        case let text as String: body = text
        case let alert as [String: Any]: body = alert["body"] as? String
        default: body = nil
        }
        guard (body ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return [] }
        return [finding("aps.alert has no body; since iOS 15 a push without one is not shown and the extension never runs")]
    }
}

extension RuleID {
    /// `payload.no-body`, declared by `PayloadNoBody`.
    public static let payloadNoBody = RuleID(declaring: "payload.no-body")
}

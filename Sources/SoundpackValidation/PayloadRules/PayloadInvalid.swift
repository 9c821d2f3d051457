import Foundation
import SoundpackCore
import SoundpackSupport

/// `payload.invalid` (error): the payload is not one JSON object with unique keys; no other rule
/// reads it then.
struct PayloadInvalid: Rule {
    static let id = RuleID.payloadInvalid
    static let severity = Severity.error
    static let summary = "The payload is not one JSON object with unique keys."
    static let scope = RuleID.Scope.payload

    enum Reading {
        case read(ReadPayload)
        case invalid(Finding)
    }

    /// The payload read for the other rules, or the finding that stops them.
    func read(_ data: Data, packs: [String: PushPayload.PackFacts]?) -> Reading {
        guard let payload = ReadPayload(data, packs: packs) else { return .invalid(Finding(Self.id, Self.severity, "not a JSON object")) }
        if let duplicate = JSONDuplicateKeys.first(in: data) { return .invalid(Finding(Self.id, Self.severity, duplicate.description)) }
        return .read(payload)
    }
}

extension RuleID {
    /// `payload.invalid`, declared by `PayloadInvalid`.
    public static let payloadInvalid = RuleID(declaring: "payload.invalid")
}

// APNs payloads that make the Notification Service Extension run, and the lint that checks them.

import Foundation
import SoundpackCore

public enum PushPayload {
    /// APNs refuses payloads above 4 KB.
    public static let maxBytes = 4_096

    /// A payment push: an alert with a body (iOS 15 drops a push without one), mutable-content so
    /// the extension runs, time-sensitive to pass Focus, the default sound as the fallback, and the
    /// exact amount, pack and manifest URL for the extension.
    public static func make(amount: Amount, packID: String, version: String, title: String?, body: String, manifestURL: String) -> Data {
        var alert: [String: Any] = ["body": body]
        if let title { alert["title"] = title }
        let payload: [String: Any] = [
            "aps": ["alert": alert, "mutable-content": 1, "interruption-level": "time-sensitive", "sound": "default"] as [String: Any],
            "type": "payment",
            "amount": amount.description,
            "pack": "\(packID)@\(version)",
            "manifest": manifestURL,
        ]
        return ((try? JSONSerialization.data(withJSONObject: payload, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()) + Data("\n".utf8)
    }

    /// One lint finding: `payload.*` rule ids.
    public struct Finding: Sendable, Equatable, Codable {
        public var rule: String
        public var severity: Severity
        public var message: String
    }

    /// Checks a payload. `packs` maps published `id@version` (and bare ids, to their newest
    /// version) to the pack's maxAmount; nil skips the pack check.
    public static func lint(_ data: Data, packs: [String: Amount]?) -> [Finding] {
        var findings: [Finding] = []
        func add(_ rule: String, _ message: String, severity: Severity = .error) { findings.append(Finding(rule: rule, severity: severity, message: message)) }
        if data.count > maxBytes { add("payload.too-large", "\(data.count) bytes; APNs refuses payloads above \(maxBytes)") }
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            add("payload.invalid", "not a JSON object")
            return findings
        }
        if let duplicate = JSONDuplicateKeys.first(in: data) {
            add("payload.invalid", duplicate.description)
            return findings
        }
        let aps = root["aps"] as? [String: Any] ?? [:]
        let body: String?
        switch aps["alert"] {
        case let text as String: body = text
        case let alert as [String: Any]: body = alert["body"] as? String
        default: body = nil
        }
        if (body ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            add("payload.no-body", "aps.alert has no body; since iOS 15 a push without one is not shown and the extension never runs")
        }
        if (aps["mutable-content"] as? NSNumber)?.intValue != 1 {
            add("payload.not-mutable", "aps.mutable-content is not 1, so the Notification Service Extension does not run")
        }
        if aps["interruption-level"] == nil {
            add("payload.no-interruption-level", "no aps.interruption-level; \"time-sensitive\" lets a payment through Focus", severity: .warning)
        }
        var maximum: Amount?
        if let packs {
            let pack = root["pack"] as? String ?? ""
            if let known = packs[pack] { maximum = known } else {
                add("payload.unknown-pack", "pack '\(pack)' is not a published id@version in the catalog")
            }
        }
        if let text = root["amount"] as? String {
            do { _ = try Amount(parsing: text, maximum: maximum ?? Amount(minorUnits: Amount.grammarLimit.minorUnits - 1)) } catch {
                add("payload.amount-unreadable", error.description)
            }
        } else {
            add("payload.amount-unreadable", root["amount"] == nil ? "no \"amount\" key" : "\"amount\" must be a string such as \"15.40\" (a JSON number is not exact)")
        }
        return findings
    }
}

// APNs payloads that make the Notification Service Extension run, and the lint that checks them.

import Foundation
import SoundpackCore

public enum PushPayload {
    /// APNs refuses payloads above 4 KB.
    public static let maxBytes = 4_096

    /// A payment push: an alert with a body (iOS 15 drops a push without one), mutable-content so
    /// the extension runs, time-sensitive to pass Focus, the default sound as the fallback, and the
    /// exact amount, pack and manifest URL for the extension, and the payment's id, by which the
    /// phone announces each payment once (an APNs retry or a duplicated push stays silent).
    public static func make(amount: Amount, packID: String, version: String, title: String?, body: String, manifestURL: String,
                            paymentID: String) throws(JSONWriteError) -> Data {
        var alert: [String: JSONValue] = ["body": .string(body)]
        if let title { alert["title"] = .string(title) }
        let payload: JSONValue = [
            "aps": ["alert": .object(alert), "mutable-content": 1, "interruption-level": "time-sensitive", "sound": "default"],
            "type": "payment",
            "amount": .string(amount.description),
            "pack": "\(packID)@\(version)",
            "manifest": .string(manifestURL),
            "paymentId": .string(paymentID),
        ]
        return try StoreJSON.encode(payload)
    }

    /// What lint knows of a published pack: enough to tell whether it can say the amount.
    public struct PackFacts: Sendable {
        public var maxAmount: Amount
        public var yanked: Bool
        public var announcement: Announcement
        /// The clip keys the version has.
        public var clipKeys: Set<String>

        public init(maxAmount: Amount, yanked: Bool, announcement: Announcement, clipKeys: Set<String>) {
            self.maxAmount = maxAmount
            self.yanked = yanked
            self.announcement = announcement
            self.clipKeys = clipKeys
        }

        /// The facts of a published version from its manifest.
        public init(_ manifest: StoreManifest, yanked: Bool) {
            self.init(maxAmount: manifest.maxAmount, yanked: yanked,
                      announcement: Announcement(grammar: manifest.readingGrammar, hasSuffix: manifest.clips[Token.suffix.rawValue] != nil),
                      clipKeys: Set(manifest.clips.keys))
        }
    }

    /// `aps.mutable-content` as JSON wrote it. JSONSerialization hands out JSON `true` and the number
    /// 1 as the same NSNumber, so the type is read with JSONDecoder, which keeps them apart.
    enum MutableContent: Equatable {
        case missing, boolean(Bool), number(Double), other

        static func read(_ data: Data) -> MutableContent {
            struct Payload: Decodable { var aps: APS? }
            struct APS: Decodable {
                var value: MutableContent
                enum CodingKeys: String, CodingKey { case value = "mutable-content" }
                init(from decoder: any Decoder) throws {
                    let c = try decoder.container(keyedBy: CodingKeys.self)
                    if !c.contains(.value) { value = .missing } else if let flag = try? c.decode(Bool.self, forKey: .value) {
                        value = .boolean(flag)
                    } else if let number = try? c.decode(Double.self, forKey: .value) {
                        value = .number(number)
                    } else {
                        value = .other
                    }
                }
            }
            return (try? JSONDecoder().decode(Payload.self, from: data))?.aps?.value ?? .missing
        }
    }

    /// The interruption levels iOS knows; `critical` needs an entitlement from Apple.
    public static let interruptionLevels: Set<String> = ["passive", "active", "time-sensitive", "critical"]

    /// Checks a payload. `packs` maps published `id@version` to what is known of the version; nil
    /// skips the pack checks.
    public static func lint(_ data: Data, packs: [String: PackFacts]?) -> [Finding] {
        var findings: [Finding] = []
        func add(_ rule: RuleID, _ message: String, severity: Severity = .error) { findings.append(Finding(rule, severity, message)) }
        if data.count > maxBytes { add(.payloadTooLarge, "\(data.count) bytes; APNs refuses payloads above \(maxBytes)") }
        // Far past what APNs takes, the rest is not worth parsing.
        guard data.count <= 1 << 20 else { return findings }
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            add(.payloadInvalid, "not a JSON object")
            return findings
        }
        if let duplicate = JSONDuplicateKeys.first(in: data) {
            add(.payloadInvalid, duplicate.description)
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
            add(.payloadNoBody, "aps.alert has no body; since iOS 15 a push without one is not shown and the extension never runs")
        }
        switch MutableContent.read(data) {
        case .number(1): break
        case .boolean(let flag):
            add(.payloadNotMutable, "aps.mutable-content is \(flag); APNs expects the number 1, so the extension may not run")
        default:
            add(.payloadNotMutable, "aps.mutable-content is not the number 1, so the Notification Service Extension does not run")
        }
        switch aps["interruption-level"] {
        case nil:
            add(.payloadNoInterruptionLevel, "no aps.interruption-level; \"time-sensitive\" lets a payment through Focus", severity: .warning)
        case let level as String where level == "critical":
            add(.payloadCritical, "aps.interruption-level critical plays through mute and needs Apple's Critical Alerts entitlement; a payment is usually \"time-sensitive\"", severity: .warning)
        case let level as String where interruptionLevels.contains(level):
            break
        default:
            add(.payloadInterruptionLevel, "aps.interruption-level must be one of \(interruptionLevels.sorted().joined(separator: ", ")), not \(String(describing: aps["interruption-level"] ?? "").quoted())")
        }
        var facts: PackFacts?
        if let packs {
            let pack = root["pack"] as? String ?? ""
            if let known = packs[pack] {
                facts = known
                if known.yanked { add(.payloadYankedPack, "pack '\(pack.quoted())' is yanked; name a version that is not") }
            } else {
                add(.payloadUnknownPack, "pack '\(pack.quoted())' is not a published id@version in the store's index.json")
            }
        }
        switch root["paymentId"] {
        case nil:
            add(.payloadNoPaymentID, "no \"paymentId\": a push APNs delivers again, or one sent twice, is announced twice", severity: .warning)
        case let id as String where PaymentID.isValid(id): break
        default:
            add(.payloadPaymentID, "\"paymentId\" must be a string of 1–128 characters of [A-Za-z0-9._:-], starting with a letter or digit")
        }
        if let text = root["amount"] as? String {
            do {
                let amount = try Amount(parsing: text, maximum: facts?.maxAmount ?? Amount(minorUnits: Amount.grammarLimit.minorUnits - 1))
                if let facts {
                    let missing = Set(facts.announcement.tokens(for: amount).map(\.rawValue)).subtracting(facts.clipKeys)
                    if !missing.isEmpty {
                        add(.payloadMissingClip, "the pack cannot say \(amount): it has no clip for \(missing.sorted(by: facts.announcement.grammar.precedes).map { "'\($0)'" }.joined(separator: ", "))")
                    }
                }
            } catch {
                add(.payloadAmountUnreadable, error.description)
            }
        } else {
            add(.payloadAmountUnreadable, root["amount"] == nil ? "no \"amount\" key" : "\"amount\" must be a string such as \"15.40\" (a JSON number is not exact)")
        }
        return findings
    }
}

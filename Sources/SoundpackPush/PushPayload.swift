// APNs payloads that make the Notification Service Extension run, and the lint that checks them.

import Foundation
import SoundpackCore
import SoundpackSupport
import SoundpackValidation

public enum PushPayload {
    /// APNs refuses payloads above 4 KB.
    public static let maxBytes = 4_096

    /// A payment push: an alert with a body (iOS 15 drops a push without one), mutable-content so
    /// the extension runs, time-sensitive to pass Focus, the default sound as the fallback, and the
    /// exact amount, pack and manifest URL for the extension, and the payment's id, by which the
    /// phone announces each payment once (an APNs retry or a duplicated push stays silent).
    /// `phrase` is written when given (packs that declare phrases); `amount` when the phrase says one.
    public static func make(amount: Amount?, phrase: String? = nil, packID: String, version: String, title: String?, body: String,
                            manifestURL: String, paymentID: String) throws(JSONWriteError) -> Data {
        var alert: [String: JSONValue] = ["body": .string(body)]
        if let title { alert["title"] = .string(title) }
        var payload: [String: JSONValue] = [
            "aps": ["alert": .object(alert), "mutable-content": 1, "interruption-level": "time-sensitive", "sound": "default"],
            "type": "payment",
            "pack": "\(packID)@\(version)",
            "manifest": .string(manifestURL),
            "paymentId": .string(paymentID),
        ]
        if let amount { payload["amount"] = .string(amount.description) }
        if let phrase { payload["phrase"] = .string(phrase) }
        return try StoreJSON.encode(JSONValue.object(payload))
    }

    /// What lint knows of a published pack: enough to tell whether it can say the amount.
    public struct PackFacts: Sendable {
        public var maxAmount: Amount
        public var yanked: Bool
        /// What the version can announce.
        public var phrasebook: Phrasebook
        /// The clip keys the version has.
        public var clipKeys: Set<String>

        public init(maxAmount: Amount, yanked: Bool, phrasebook: Phrasebook, clipKeys: Set<String>) {
            self.maxAmount = maxAmount
            self.yanked = yanked
            self.phrasebook = phrasebook
            self.clipKeys = clipKeys
        }

        /// The facts of a published version from its manifest.
        public init(_ manifest: StoreManifest, yanked: Bool) {
            self.init(maxAmount: manifest.maxAmount, yanked: yanked, phrasebook: manifest.phrasebook, clipKeys: Set(manifest.clips.keys))
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
        // The phrase: the version's default when the payload names none; the phone falls back to it
        // for one it does not know, so an unknown phrase would say something else than meant.
        var phrase = facts.map { $0.phrasebook.defaultPhrase }
        switch root["phrase"] {
        case nil: break
        case let id as String:
            if let facts {
                if let known = facts.phrasebook.phrase(id) { phrase = known } else {
                    add(.payloadUnknownPhrase, "phrase '\(id.quoted())' is not one of \(root["pack"] as? String ?? "the pack")'s (\(facts.phrasebook.phrases.map(\.id).joined(separator: ", ")))")
                }
            }
        default:
            add(.payloadUnknownPhrase, "\"phrase\" must be a string, the id of one of the pack's phrases")
        }
        let saysAmount = phrase?.saysAmount ?? (root["phrase"] == nil)
        if let text = root["amount"] as? String {
            if let phrase, !phrase.saysAmount {
                add(.payloadAmountUnreadable, "phrase '\(phrase.id)' says no amount; leave \"amount\" out")
            } else {
                do {
                    let amount = try Amount(parsing: text, maximum: facts?.maxAmount ?? Amount(minorUnits: Amount.grammarLimit.minorUnits - 1),
                                            grouping: facts?.phrasebook.grammar.grouping ?? .thousands)
                    if let facts, let phrase {
                        let tokens = facts.phrasebook.announcement(phrase).tokens(for: amount)
                        let missing = Set(tokens.map(\.rawValue)).subtracting(facts.clipKeys)
                        if !missing.isEmpty {
                            add(.payloadMissingClip, "the pack cannot say \(amount): it has no clip for \(missing.sorted(by: facts.phrasebook.grammar.precedes).map { "'\($0)'" }.joined(separator: ", "))")
                        }
                    }
                } catch {
                    add(.payloadAmountUnreadable, error.description)
                }
            }
        } else if root["amount"] != nil {
            add(.payloadAmountUnreadable, "\"amount\" must be a string such as \"15.40\" (a JSON number is not exact)")
        } else if saysAmount {
            let named = facts?.phrasebook.isDeclared == true ? phrase : nil
            add(.payloadAmountUnreadable, named.map { "no \"amount\" key, and phrase '\($0.id)' says one" } ?? "no \"amount\" key")
        } else if let facts, let phrase {
            let missing = Set(phrase.clips.map(\.rawValue)).subtracting(facts.clipKeys)
            if !missing.isEmpty {
                add(.payloadMissingClip, "the pack cannot say phrase '\(phrase.id)': it has no clip for \(missing.sorted().map { "'\($0)'" }.joined(separator: ", "))")
            }
        }
        return findings
    }
}

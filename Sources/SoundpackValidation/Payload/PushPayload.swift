// APNs payloads that make the Notification Service Extension run, and the lint that checks them.

import Foundation
import SoundpackCore
import SoundpackSupport

/// A payment push's APNs payload: made (`make`) and linted (`lint`) by the same rules.
public enum PushPayload {
    /// APNs refuses payloads above 4 KB.
    public static let maxBytes = 4_096

    /// A payment push: an alert with a body (iOS 15 drops a push without one), mutable-content so
    /// the extension runs, time-sensitive to pass Focus, the default sound as the fallback, and the
    /// exact amount, pack and manifest URL for the extension, and the payment's id, by which the
    /// phone announces each payment once (an APNs retry or a duplicated push stays silent).
    /// `phrase` is written when given (packs that declare phrases); `amount` when the phrase says one.
    public static func make(amount: Amount?, phrase: String? = nil, packID: String, version: String, title: String?, body: String,
                            manifestURL: String, paymentID: String) throws(SoundpackError) -> Data {
        var alert: [String: JSONValue] = ["body": .string(body)]
        if let title { alert["title"] = .string(title) }
        var payload: [String: JSONValue] = [
            "aps": ["alert": .object(alert), "mutable-content": 1, "interruption-level": "time-sensitive", "sound": "default"],
            "type": "payment",
            "pack": .string(PackRef.name(packID, versionText: version)),
            "manifest": .string(manifestURL),
            "paymentId": .string(paymentID),
        ]
        if let amount { payload["amount"] = .string(amount.description) }
        if let phrase { payload["phrase"] = .string(phrase) }
        return try StoreJSON.encode(JSONValue.object(payload))
    }

    /// What lint knows of a published pack: enough to tell whether it can say the amount.
    public struct PackFacts: Sendable {
        /// The largest amount the version says.
        public var maxAmount: Amount
        /// Whether the version is yanked (phones refuse it).
        public var yanked: Bool
        /// What the version can announce.
        public var phrasebook: Phrasebook
        /// The clip keys the version has.
        public var clipKeys: Set<String>

        /// The facts of one published version.
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

    /// Checks a payload: the bytes (`payload.too-large`, `payload.invalid`), then every rule of
    /// `rules` over the payload read once. `packs` maps published `id@version` to what is known of
    /// the version; nil skips the pack checks.
    public static func lint(_ data: Data, packs: [String: PackFacts]?) -> [Finding] {
        let size = PayloadTooLarge().check(byteCount: data.count)
        // Far past what APNs takes, the rest is not worth parsing.
        guard data.count <= PayloadTooLarge.parsedUpTo else { return size }
        switch PayloadInvalid().read(data, packs: packs) {
        case .invalid(let finding): return size + [finding]
        case .read(let payload): return size + rules.flatMap { $0.check(payload) }
        }
    }
}

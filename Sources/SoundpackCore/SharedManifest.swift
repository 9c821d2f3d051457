// The shared-container manifest `soundpack export` writes (schemas/export.schema.json), as the
// app and its Notification Service Extension read it.

import Foundation

/// One exported pack: its grammar and, per token, the clip file and where to get it.
public struct SharedPack: Sendable, Equatable {
    public struct Clip: Sendable, Equatable {
        public var file: String
        public var bytes: Int
        public var sha256: String
        public var durationSeconds: Double
        public var url: URL?
    }
    public var id: String
    public var version: String
    public var grammar: Grammar
    public var maxAmount: Amount
    public var texts: [String: String]
    public var yanked: Bool
    /// Token → clip.
    public var clips: [Token: Clip]
}

/// The exported manifest: the bundled clip names under its key, and every pack.
public struct SharedManifest: Sendable, Equatable {
    public static let supportedSchemaVersion = 1
    public var key: String
    /// Clip file names the app bundles (the list under `key`, kMainAppMp3FileKey by default).
    public var bundledFiles: [String]
    public var packs: [String: SharedPack]

    /// Reads an exported manifest, XML property list or JSON.
    public init(data: Data) throws(PlanError) {
        let object: Any
        do {
            if data.first(where: { !$0.isWhitespaceByte }) == UInt8(ascii: "{") {
                object = try JSONSerialization.jsonObject(with: data)
            } else {
                object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            }
        } catch {
            throw .unreadableManifest("neither JSON nor a property list (\(error.localizedDescription))")
        }
        guard let root = object as? [String: Any], let soundpack = root["soundpack"] as? [String: Any] else {
            throw .unreadableManifest("no \"soundpack\" dictionary; is this a soundpack export?")
        }
        let version = (soundpack["schemaVersion"] as? NSNumber)?.intValue ?? -1
        guard version == Self.supportedSchemaVersion else { throw .unsupportedManifestVersion(version) }
        key = soundpack["key"] as? String ?? "kMainAppMp3FileKey"
        bundledFiles = root[key] as? [String] ?? []
        var packs: [String: SharedPack] = [:]
        for (id, value) in soundpack["packs"] as? [String: Any] ?? [:] {
            guard let pack = value as? [String: Any] else { throw .unreadableManifest("pack \(id) is not a dictionary") }
            guard let grammarID = GrammarID(rawValue: pack["grammar"] as? String ?? ""),
                  let two = TwoStyle(rawValue: pack["two"] as? String ?? "er"),
                  let maxText = pack["maxAmount"] as? String, let maxAmount = try? Amount(parsing: maxText) else {
                throw .unreadableManifest("pack \(id) has no usable grammar, two or maxAmount")
            }
            var clips: [Token: SharedPack.Clip] = [:]
            for (key, entry) in pack["tokens"] as? [String: Any] ?? [:] {
                guard let token = Token(rawValue: key), let clip = entry as? [String: Any], let file = clip["file"] as? String,
                      let sha = clip["sha256"] as? String, let bytes = (clip["bytes"] as? NSNumber)?.intValue else {
                    throw .unreadableManifest("pack \(id) token \(key) lacks file, bytes or sha256")
                }
                clips[token] = SharedPack.Clip(file: file, bytes: bytes, sha256: sha, durationSeconds: (clip["durationSeconds"] as? NSNumber)?.doubleValue ?? 0,
                                               url: (clip["url"] as? String).flatMap(URL.init(string:)))
            }
            packs[id] = SharedPack(id: id, version: pack["version"] as? String ?? "", grammar: Grammar(grammarID, two: two), maxAmount: maxAmount,
                                   texts: pack["texts"] as? [String: String] ?? [:], yanked: (pack["yanked"] as? NSNumber)?.boolValue ?? false,
                                   clips: clips)
        }
        self.packs = packs
    }
}

extension UInt8 {
    fileprivate var isWhitespaceByte: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}

/// Why an amount cannot be planned or a clip cannot be used.
public enum PlanError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadableManifest(String)
    case unsupportedManifestVersion(Int)
    case unknownPack(String)
    case amountUnreadable(AmountError)
    case missingClip(token: String, amount: String)
    case noDownloadURL(file: String)
    case sizeMismatch(file: String, expected: Int, actual: Int)
    case hashMismatch(file: String, expected: String, actual: String)

    public var description: String {
        switch self {
        case .unreadableManifest(let why): return "the shared manifest cannot be read: \(why)"
        case .unsupportedManifestVersion(let v): return "the shared manifest has schema version \(v); this SoundpackCore reads version \(SharedManifest.supportedSchemaVersion) (update the app or re-export)"
        case .unknownPack(let id): return "the shared manifest has no pack '\(id)'"
        case .amountUnreadable(let error): return error.description
        case .missingClip(let token, let amount): return "the pack cannot say \(amount): it has no clip for token '\(token)'"
        case .noDownloadURL(let file): return "\(file) is neither bundled nor in Library/Sounds, and the manifest gives no URL to download it (export with --base-url)"
        case .sizeMismatch(let file, let expected, let actual): return "\(file) is \(actual) bytes, the manifest says \(expected); refusing to use it"
        case .hashMismatch(let file, let expected, let actual): return "\(file) has SHA-256 \(actual.prefix(16))…, the manifest says \(expected.prefix(16))…; refusing to use it"
        }
    }
}

// `export`: the manifest the app writes into the App Group's shared container, so the Notification
// Service Extension knows which clips it has and where to download the others.

import Foundation

/// One pack's clips as the app and extension see them.
public struct ExportedPack: Sendable {
    public struct Clip: Sendable {
        public var token: String
        /// Path in the store version folder (`clips/shi.caf`), for the download URL.
        public var storePath: String
        public var bytes: Int
        public var sha256: String
        public var durationSeconds: Double
    }
    public var id: String
    public var version: String
    public var grammar: String
    public var two: String
    public var maxAmount: String
    public var texts: [String: String]
    public var yanked: Bool
    public var clips: [Clip]

    /// A pack from its published store manifest.
    public init(manifest: StoreManifest, yanked: Bool) {
        id = manifest.id
        version = manifest.version
        grammar = manifest.grammar
        two = manifest.two
        maxAmount = manifest.maxAmount
        texts = manifest.texts
        self.yanked = yanked
        clips = manifest.clips.map { Clip(token: $0.key, storePath: $0.value.file, bytes: $0.value.bytes, sha256: $0.value.sha256,
                                          durationSeconds: $0.value.durationSeconds) }
    }

    /// A pack from a validated folder (not published: no download URLs).
    public init(report: PackReport) {
        id = report.id ?? ""
        version = report.version ?? ""
        grammar = report.grammar ?? ""
        two = report.two ?? "er"
        maxAmount = report.maxAmount ?? ""
        texts = report.texts ?? [:]
        yanked = false
        clips = report.clips.compactMap { clip in
            clip.facts.map { Clip(token: clip.token, storePath: Publisher.storePath(clip.file), bytes: $0.bytes, sha256: $0.sha256,
                                  durationSeconds: $0.durationSeconds) }
        }
    }
}

public enum SharedContainerExport {
    public static let defaultKey = "kMainAppMp3FileKey"

    /// The export document: under `key` the bundled clip file names; under `soundpack` every
    /// token's file name, size, SHA-256, duration and (with `baseURL`) download URL.
    public static func document(_ packs: [ExportedPack], key: String, baseURL: String?, namespace: Bool) throws(ExportError) -> [String: Any] {
        var names: [String] = []
        var seen: [String: String] = [:]
        var packsOut: [String: Any] = [:]
        for pack in packs {
            var tokens: [String: Any] = [:]
            for clip in pack.clips.sorted(by: { $0.token < $1.token }) {
                let base = (clip.storePath as NSString).lastPathComponent
                let name = namespace ? "\(pack.id)-\(base)" : base
                if let other = seen[name], other != "\(pack.id):\(clip.storePath)" {
                    throw ExportError("file name '\(name)' is used by two clips (\(other) and \(pack.id):\(clip.storePath)); pass --namespace to prefix names with the pack id")
                }
                if seen[name] == nil { names.append(name) }
                seen[name] = "\(pack.id):\(clip.storePath)"
                var entry: [String: Any] = ["file": name, "bytes": clip.bytes, "sha256": clip.sha256, "durationSeconds": clip.durationSeconds]
                if let baseURL {
                    let trimmed = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
                    entry["url"] = "\(trimmed)/\(pack.id)/\(pack.version)/\(clip.storePath)"
                }
                tokens[clip.token] = entry
            }
            packsOut[pack.id] = [
                "version": pack.version, "grammar": pack.grammar, "two": pack.two, "maxAmount": pack.maxAmount,
                "texts": pack.texts, "yanked": pack.yanked, "tokens": tokens,
            ] as [String: Any]
        }
        return [key: names.sorted(), "soundpack": ["schemaVersion": 1, "key": key, "packs": packsOut] as [String: Any]]
    }

    public static func plist(_ document: [String: Any]) throws(ExportError) -> Data {
        do { return try PropertyListSerialization.data(fromPropertyList: document, format: .xml, options: 0) } catch {
            throw ExportError("cannot write the property list: \(error.localizedDescription)")
        }
    }

    public static func json(_ document: [String: Any]) throws(ExportError) -> Data {
        do {
            return try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) + Data("\n".utf8)
        } catch {
            throw ExportError("cannot write JSON: \(error.localizedDescription)")
        }
    }
}

public struct ExportError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

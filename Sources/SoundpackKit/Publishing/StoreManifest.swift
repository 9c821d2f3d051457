// The files of a published version in the store: manifest.json (schemas/manifest.schema.json) and
// the store's index.json (schemas/index.schema.json).

import Foundation
import SoundpackCore

/// `ID/VER/manifest.json`: what a published version holds, enough to verify every byte of it.
public struct StoreManifest: Codable, Equatable, Sendable {
    public struct Clip: Codable, Equatable, Sendable {
        /// Path in the store version folder (and in the archives' pack), e.g. `clips/shi.caf`.
        public var file: String
        public var bytes: Int
        public var sha256: String
        public var frames: Int64
        public var durationSeconds: Double
        public var container: Container
        public var codec: Codec
        public var sampleRate: Int
        public var channels: Int
    }

    public struct FileRecord: Codable, Equatable, Sendable {
        public var file: String
        public var bytes: Int
        public var sha256: String
    }

    public var schemaVersion = 1
    public var id: String
    public var name: String?
    public var version: SemanticVersion
    public var grammar: GrammarID
    public var two: TwoStyle
    public var maxAmount: Amount
    public var profile: Profile
    public var texts: [String: String]
    /// SHA-256 over the pack's canonical manifest (see PackDigest).
    public var digest: String
    /// Token → clip.
    public var clips: [String: Clip]
    /// The pack's own pack.json as published.
    public var packJSON: FileRecord
    /// `tar.gz` and `zip` → archive of the pack.
    public var archives: [String: FileRecord]
    /// The id of the Ed25519 key that signed `manifest.json` (signature in `manifest.json.sig`).
    public var signingKey: String?

    public func encoded() throws(JSONWriteError) -> Data { try StoreJSON.encode(self) }

    /// The grammar the version reads amounts with.
    public var readingGrammar: Grammar { Grammar(grammar, two: two) }
}

/// `index.json` at the store root: every published version, rebuilt from the catalog.
public struct StoreIndex: Codable, Equatable, Sendable {
    public struct Version: Codable, Equatable, Sendable {
        public var digest: String
        public var manifest: String
        public var manifestSha256: String
        public var publishedAt: String
        public var yanked: Bool
        public var yankReason: String?
    }

    public struct Pack: Codable, Equatable, Sendable {
        /// The newest version that is not yanked, if any.
        public var latest: String?
        public var versions: [String: Version]
    }

    public var schemaVersion = 1
    public var packs: [String: Pack]

    public func encoded() throws(JSONWriteError) -> Data { try StoreJSON.encode(self) }
}

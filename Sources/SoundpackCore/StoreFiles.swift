// The files of a published version in the store, as soundpack writes them and as phones read them:
// manifest.json (schemas/manifest.schema.json) and the store's index.json (schemas/index.schema.json),
// and the container and codec names they use. One Codable type each, for writer and reader.

import Foundation

/// The file format family, as read from the file's bytes (not its extension).
public enum Container: String, Sendable, Codable, CaseIterable {
    /// `mp4`: the ISO media file family (MP4, M4A, MOV), known by its `ftyp` box.
    case wav, aiff, aifc, caf, mp3, flac, ogg, mp4, other
}

/// The sample encoding inside the container.
public enum Codec: String, Sendable, Codable, CaseIterable {
    /// Linear PCM, integer or float.
    case lpcm
    /// Apple IMA4 (IMA ADPCM in 34-byte packets of 64 frames), as `afconvert -d ima4` writes.
    case ima4
    case ulaw, alaw
    /// Microsoft/DVI IMA ADPCM as found in WAV files; not Apple's IMA4.
    case imaAdpcm = "ima-adpcm"
    case msAdpcm = "ms-adpcm"
    /// `aac` and `alac` (Apple Lossless) are read from MP4/M4A files only, by `convert`.
    case mp3, flac, vorbis, opus, aac, alac, other
}

/// The most a JSON file soundpack reads may hold before the reader refuses it unread (every reader,
/// the phone's included, has its cap): a manifest names a few dozen clips (a few KiB), the index
/// one entry per version, an export one entry per clip of a few packs.
public enum StoreLimits {
    public static let manifestBytes = 1 << 20
    public static let indexBytes = 16 << 20
    public static let sharedManifestBytes = 4 << 20
}

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

        public init(file: String, bytes: Int, sha256: String, frames: Int64, durationSeconds: Double, container: Container,
                    codec: Codec, sampleRate: Int, channels: Int) {
            self.file = file
            self.bytes = bytes
            self.sha256 = sha256
            self.frames = frames
            self.durationSeconds = durationSeconds
            self.container = container
            self.codec = codec
            self.sampleRate = sampleRate
            self.channels = channels
        }
    }

    public struct FileRecord: Codable, Equatable, Sendable {
        public var file: String
        public var bytes: Int
        public var sha256: String

        public init(file: String, bytes: Int, sha256: String) {
            self.file = file
            self.bytes = bytes
            self.sha256 = sha256
        }
    }

    public var schemaVersion = 1
    public var id: String
    public var name: String?
    public var version: SemanticVersion
    public var grammar: GrammarID
    /// `grammarOptions.two` of a zh pack; nil (and not written) for a grammar without options.
    public var two: TwoStyle?
    /// `grammarOptions.money` and `.tenStart` when the pack chose them; nil (and not written) for
    /// the defaults, so the manifests of packs that choose none are what they were before.
    public var money: MoneyStyle?
    public var tenStart: TenStart?
    public var maxAmount: Amount
    public var profile: Profile
    public var texts: [String: String]
    /// pack.json's `phrases` and `defaultPhrase`; nil (and not written) for a pack that declares
    /// none, so the manifests of those packs are what they were before phrases existed.
    public var phrases: [String: [String]]?
    public var defaultPhrase: String?
    /// pack.json's `source` (synth's engine and voice); nil (and not written) for recorded clips.
    public var source: VoiceSource?
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

    public init(id: String, name: String?, version: SemanticVersion, grammar: GrammarID, two: TwoStyle?, maxAmount: Amount,
                profile: Profile, texts: [String: String], digest: String, clips: [String: Clip], packJSON: FileRecord,
                archives: [String: FileRecord], signingKey: String?) {
        self.id = id
        self.name = name
        self.version = version
        self.grammar = grammar
        self.two = two
        self.maxAmount = maxAmount
        self.profile = profile
        self.texts = texts
        self.digest = digest
        self.clips = clips
        self.packJSON = packJSON
        self.archives = archives
        self.signingKey = signingKey
    }

    /// The grammar the version reads amounts with.
    public var readingGrammar: Grammar {
        Grammar(grammar, options: GrammarOptions(two: two ?? .default, money: money ?? .default, tenStart: tenStart ?? .default))
    }

    /// What the version can announce; throws when its phrases do not fit its grammar.
    public func checkedPhrasebook() throws(PackFileError) -> Phrasebook {
        try Phrasebook.of(grammar: readingGrammar, declared: phrases, defaultPhrase: defaultPhrase, hasSuffix: clips[Token.suffix.rawValue] != nil)
    }

    /// What the version can announce (the implicit phrase when its declared ones do not fit its
    /// grammar: `ManifestRefresher.decodeManifest` refuses such a manifest).
    public var phrasebook: Phrasebook {
        Phrasebook.orImplicit(grammar: readingGrammar, declared: phrases, defaultPhrase: defaultPhrase, hasSuffix: clips[Token.suffix.rawValue] != nil)
    }

    /// Sets `phrases` and `defaultPhrase` from a pack's phrasebook (nil when it declares none).
    public mutating func setPhrases(_ book: Phrasebook) {
        phrases = book.isDeclared ? book.written : nil
        defaultPhrase = book.isDeclared ? book.defaultID : nil
    }

    /// Sets `two`, `money` and `tenStart` from a grammar's options (the latter two nil when default;
    /// all three nil for a grammar without options).
    public mutating func setOptions(of grammar: Grammar) {
        let options = grammar.options
        guard grammar.id.hasOptions else { (two, money, tenStart) = (nil, nil, nil); return }
        two = options.two
        money = options.money == .default ? nil : options.money
        tenStart = options.tenStart == .default ? nil : options.tenStart
    }
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

        public init(digest: String, manifest: String, manifestSha256: String, publishedAt: String, yanked: Bool, yankReason: String?) {
            self.digest = digest
            self.manifest = manifest
            self.manifestSha256 = manifestSha256
            self.publishedAt = publishedAt
            self.yanked = yanked
            self.yankReason = yankReason
        }
    }

    public struct Pack: Codable, Equatable, Sendable {
        /// The newest version that is not yanked, if any.
        public var latest: String?
        public var versions: [String: Version]

        public init(latest: String?, versions: [String: Version]) {
            self.latest = latest
            self.versions = versions
        }
    }

    public var schemaVersion = 1
    public var packs: [String: Pack]

    public init(packs: [String: Pack]) { self.packs = packs }
}

/// Where each file of a store lives, relative to the store root: what `publish` writes and what a
/// phone fetches. (Kit adds the names of archives, clips and pack.json.)
public enum StoreLayout {
    public static let index = "index.json"
    public static let manifestFile = "manifest.json"
    /// The signature's name inside the version folder.
    public static let signatureFile = manifestFile + ".sig"

    /// `wechat/1.0.0`: the folder of one version.
    public static func versionFolder(_ id: String, _ version: SemanticVersion) -> String { "\(id)/\(version)" }

    /// `wechat/1.0.0/<file>` for a path relative to the version folder.
    public static func versionFile(_ id: String, _ version: SemanticVersion, _ file: String) -> String {
        "\(versionFolder(id, version))/\(file)"
    }

    public static func manifest(_ id: String, _ version: SemanticVersion) -> String { versionFile(id, version, manifestFile) }
    public static func signature(_ id: String, _ version: SemanticVersion) -> String { manifest(id, version) + ".sig" }

    /// The URL of `key` in a store served at `base` (`https://cdn.example.com/voice`), each path
    /// component percent-encoded; nil when the two do not make a URL.
    public static func url(of key: String, under base: String) -> URL? {
        let root = base.hasSuffix("/") ? String(base.dropLast()) : base
        let encoded = key.slashSeparated.map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0 }
        return URL(string: root + "/" + encoded.joined(separator: "/"))
    }
}

// The catalog interface (DESIGN §7) and the records it stores: packs, versions, clips, validation
// runs, publications and yanks. Backends implement `Catalog`; nothing here knows a database.

import Foundation
import SoundpackAudio
import SoundpackCore
import SoundpackSupport

/// The catalog of packs and versions. Every write is one transaction: it happens whole or not at
/// all. Published versions are insert-only; a yank is a flag.
/// An exclusive hold on a store, from the store itself (a lock file) or from the catalog's
/// database; `release` (or deinit) lets the next writer in.
public protocol StoreLock: AnyObject {
    func release()
}

/// What a store lock covers. Publishers of different packs overlap: each holds its packs' locks
/// while it writes their versions, and the index lock only while it rewrites index.json. Taken in
/// one order (packs sorted by id, then the index), so no two writers wait on each other in a cycle.
public enum LockScope: Sendable, Hashable {
    /// index.json, and everything a whole-store operation (catalog rebuild) reads.
    case index
    /// One pack's version files and its catalog rows.
    case pack(String)

    /// The name the lock is known by (the PostgreSQL advisory lock's key text, the lock file's).
    package var name: String {
        switch self {
        case .index: return "soundpack.store"
        case .pack(let id): return "soundpack.store.pack:" + id
        }
    }
}

/// The record of packs, their versions, validation runs and publications, in SQLite or PostgreSQL.
/// Publishing writes it; `list`, `show` and the store read it.
public protocol Catalog: AnyObject {
    /// Where the catalog lives, for messages (a file path or a connection string without secrets).
    var location: String { get }

    /// Records validation runs, creating or updating the pack and its unpublished version (a
    /// published version's rows are never touched), all in one transaction.
    func recordValidations(_ runs: [ValidationRecord]) throws(SoundpackError)

    /// Every pack, with its newest version and last validation result.
    func packs() throws(SoundpackError) -> [CatalogPack]

    /// One version of a pack (the newest when `version` is nil) with its clips and runs.
    func version(of id: String, _ version: SemanticVersion?) throws(SoundpackError) -> CatalogVersion?

    /// The facts of a recorded version (published or validated) that decide compatibility.
    func versionRecord(of id: String, _ version: SemanticVersion) throws(SoundpackError) -> VersionRecord?

    /// Every published version, of one pack or of all, oldest first per pack.
    func publishedVersions(of id: String?, withClips: Bool) throws(SoundpackError) -> [PublishedVersion]

    /// How many versions of each pack are published, and how many of those are yanked, by pack id
    /// (one aggregate query): what tells a rewrite of index.json whose entries may have changed.
    func publishedCounts() throws(SoundpackError) -> [String: PublishedCount]

    /// Whether `id@version` is published (one row looked up, however many versions the pack has).
    func isPublished(_ id: String, _ version: SemanticVersion) throws(SoundpackError) -> Bool

    /// Records a version as published. False (and nothing changed) when it was published meanwhile.
    func recordPublication(_ publication: PublicationRecord) throws(SoundpackError) -> Bool

    /// Records the MD5 of each published version's manifest.json, read back from the store and
    /// found to be the manifest published (its SHA-256 is the one recorded), where none is
    /// recorded yet; a version not published, or with one, is left as it is.
    func recordManifestMD5s(_ entries: [(id: String, version: SemanticVersion, md5: String)]) throws(SoundpackError)

    /// Marks a published version yanked.
    func yank(_ id: String, _ version: SemanticVersion, reason: String, at date: Date) throws(SoundpackError) -> YankOutcome

    /// Takes a yank back: the version is listed as available again.
    func unyank(_ id: String, _ version: SemanticVersion) throws(SoundpackError) -> YankOutcome
    /// A lock of `scope` of the store held through the database, for stores shared between
    /// machines; nil when the catalog cannot give one (SQLite: the store's own lock serves).
    func storeLock(_ scope: LockScope) throws(SoundpackError) -> (any StoreLock)?
}

extension Catalog {
    /// Every published version of every pack, with their clips, oldest first per pack.
    public func publishedVersions() throws(SoundpackError) -> [PublishedVersion] { try publishedVersions(of: nil, withClips: true) }
    /// Every published version of pack `id` (of all packs when nil), with their clips, oldest first per pack.
    public func publishedVersions(of id: String?) throws(SoundpackError) -> [PublishedVersion] { try publishedVersions(of: id, withClips: true) }
}

/// One clip of a recorded version: where it is, its bytes and what validation measured.
public struct ClipRecord: Sendable, Equatable {
    /// The key in pack.json (a token, or a key the grammar does not know).
    package var key: String
    /// The path in the pack folder, as pack.json writes it.
    package var file: String
    /// The path in the store's version folder; set once the version is published.
    package var storeFile: String?
    /// What validation measured of the clip; nil when it could not be read.
    package var facts: ClipFacts?

    package init(key: String, file: String, storeFile: String? = nil, facts: ClipFacts?) {
        (self.key, self.file, self.storeFile, self.facts) = (key, file, storeFile, facts)
    }
}

/// One finding of a validation run, as recorded.
public struct FindingRecord: Sendable, Equatable {
    /// The rule that fired; one this soundpack does not know still reads (`RuleID(recorded:)`).
    package var rule: RuleID
    package var severity: Severity
    package var token: String?
    package var file: String?
    package var message: String

    package init(rule: RuleID, severity: Severity, token: String?, file: String?, message: String) {
        (self.rule, self.severity, self.token, self.file, self.message) = (rule, severity, token, file, message)
    }
}

/// The identity of a recorded pack version: what the `packs` and `versions` rows hold.
public struct VersionIdentity: Sendable, Equatable {
    package var packID: String
    package var packName: String?
    package var version: SemanticVersion
    package var digest: String
    package var grammar: Grammar
    package var maxAmount: Amount
    /// pack.json `source`: the engine and voice that spoke the clips (synth); nil for recorded ones.
    package var source: VoiceSource?
    /// What the version says around its amounts (its phrases and texts); nil when not known.
    package var phrases: VersionPhrases?

    package init(packID: String, packName: String?, version: SemanticVersion, digest: String, grammar: Grammar, maxAmount: Amount,
                source: VoiceSource? = nil, phrases: VersionPhrases? = nil) {
        (self.packID, self.packName, self.version, self.digest, self.grammar, self.maxAmount) = (packID, packName, version, digest, grammar, maxAmount)
        self.source = source
        self.phrases = phrases
    }
}

/// What a version announces around its amounts, as a reviewer approves it: each phrase's pieces
/// (pack.json's `phrases`, or the implicit `default` = prefix, `{amount}`, suffix), the default
/// phrase, and the `texts` written with them. Kept in the catalog (`versions.phrases`, JSON), so
/// `show` displays it for a validated version as for a published one.
public struct VersionPhrases: Sendable, Codable, Equatable {
    /// Each phrase's pieces by phrase id: words, and `{amount}` where the amount is read.
    public var phrases: [String: [String]]
    /// The id of the phrase spoken when a request names none.
    public var defaultPhrase: String
    /// The texts of the pack's tokens, as pack.json gives them.
    public var texts: [String: String]

    /// The phrases `book` declares, with the `texts` they are written with.
    public init(_ book: Phrasebook, texts: [String: String]) {
        phrases = book.written
        defaultPhrase = book.defaultPhrase.id
        self.texts = texts
    }

    /// The column's text: JSON with sorted keys (the same phrases give the same bytes).
    var catalogText: String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The phrasebook these phrases describe for `grammar`: the implicit one (prefix, the amount,
    /// the suffix when it has one) when that is all they say, else the declared phrases; nil when
    /// they do not fit the grammar.
    public func phrasebook(grammar: Grammar) -> Phrasebook? {
        for hasSuffix in [false, true] {
            let implicit = Phrasebook(grammar: grammar, hasSuffix: hasSuffix)
            if implicit.written == phrases && implicit.defaultPhrase.id == defaultPhrase { return implicit }
        }
        return try? Phrasebook.of(grammar: grammar, declared: phrases, defaultPhrase: defaultPhrase, hasSuffix: false)
    }

    /// The phrases of a catalog row; nil when the column is NULL (rows recorded before it existed)
    /// or not this type's JSON.
    init?(catalogText: String?) {
        guard let catalogText, let decoded = try? JSONDecoder().decode(VersionPhrases.self, from: Data(catalogText.utf8)) else { return nil }
        self = decoded
    }
}

/// One validation run of one pack.
public struct ValidationRecord: Sendable {
    package var pack: VersionIdentity
    package var clips: [ClipRecord]
    /// The pack folder as the user named it.
    package var path: String
    package var ranAt: Date
    package var errors: Int
    package var warnings: Int
    package var passed: Bool
    package var worstAmount: String?
    package var worstSeconds: Double?
    package var toolVersion: String
    package var findings: [FindingRecord]

    package init(pack: VersionIdentity, clips: [ClipRecord], path: String, ranAt: Date, errors: Int, warnings: Int, passed: Bool,
                worstAmount: String?, worstSeconds: Double?, toolVersion: String, findings: [FindingRecord]) {
        self.pack = pack
        self.clips = clips
        self.path = path
        self.ranAt = ranAt
        self.errors = errors
        self.warnings = warnings
        self.passed = passed
        self.worstAmount = worstAmount
        self.worstSeconds = worstSeconds
        self.toolVersion = toolVersion
        self.findings = findings
    }
}

/// A version being published: its identity, clips (with store paths) and the hashes of its files.
public struct PublicationRecord: Sendable {
    package var pack: VersionIdentity
    package var clips: [ClipRecord]
    package var manifestSha256: String
    /// The MD5 of the manifest's bytes, which an S3 listing's ETag is compared with; nil where
    /// OpenSSL gives no MD5.
    package var manifestMD5: String?
    package var tarSha256: String?
    package var zipSha256: String?
    package var keyID: String?
    package var publishedAt: Date

    package init(pack: VersionIdentity, clips: [ClipRecord], manifestSha256: String, manifestMD5: String? = nil, tarSha256: String?, zipSha256: String?,
                keyID: String?, publishedAt: Date) {
        self.pack = pack
        self.clips = clips
        self.manifestSha256 = manifestSha256
        self.manifestMD5 = manifestMD5
        self.tarSha256 = tarSha256
        self.zipSha256 = zipSha256
        self.keyID = keyID
        self.publishedAt = publishedAt
    }
}

/// A recorded version with its clips: the facts the version-bump rule compares.
public struct VersionRecord: Sendable, Equatable {
    package var pack: VersionIdentity
    package var published: Bool
    package var clips: [ClipRecord]

    package init(pack: VersionIdentity, published: Bool, clips: [ClipRecord]) {
        (self.pack, self.published, self.clips) = (pack, published, clips)
    }
}

/// A published version as the catalog holds it.
public struct PublishedVersion: Sendable, Equatable {
    /// One clip of a published version.
    public struct Clip: Sendable, Equatable {
        /// Path in the store's version folder; nil in a catalog older than the column.
        package var storeFile: String?
        /// The SHA-256 of the clip's bytes, lowercase hex; nil when it was never measured.
        public var sha256: String?
    }
    /// The pack's id.
    public var id: String
    /// The published version.
    public var version: SemanticVersion
    /// The pack's content digest when it was published.
    public var digest: String
    /// When it was published.
    public var publishedAt: Date
    /// Whether it was yanked: phones are no longer served it.
    public var yanked: Bool
    /// The reason given when it was yanked.
    public var yankReason: String?
    package var manifestSha256: String?
    /// The MD5 of its manifest when the catalog records one (`recordManifestMD5s`).
    package var manifestMD5: String?
    package var tarSha256: String?
    package var zipSha256: String?
    /// The ID of the key that signed its manifest; nil when it was published unsigned.
    public var keyID: String?
    /// Clip key → its file in the store.
    public var clips: [String: Clip]

    package init(id: String, version: SemanticVersion, digest: String, publishedAt: Date, yanked: Bool, yankReason: String? = nil,
                 manifestSha256: String? = nil, tarSha256: String? = nil, zipSha256: String? = nil, keyID: String? = nil, clips: [String: Clip]) {
        (self.id, self.version, self.digest, self.publishedAt, self.yanked, self.yankReason) = (id, version, digest, publishedAt, yanked, yankReason)
        (self.manifestSha256, self.tarSha256, self.zipSha256, self.keyID, self.clips) = (manifestSha256, tarSha256, zipSha256, keyID, clips)
    }
}

/// How many versions of a pack are published, and how many of those are yanked.
public struct PublishedCount: Sendable, Equatable {
    /// Published versions of the pack.
    public var versions: Int
    /// How many of them are yanked.
    public var yanked: Int

    /// The counts of a pack with `versions` published versions, `yanked` of them yanked.
    public init(versions: Int, yanked: Int) { (self.versions, self.yanked) = (versions, yanked) }
}

/// What a yank request came to.
public enum YankOutcome: Sendable, Equatable {
    case yanked
    /// Already yanked earlier; the first reason stays.
    case alreadyYanked(reason: String?)
    case notPublished
    /// `unyank`: the flag was cleared; or there was none to clear.
    case unyanked, notYanked
}

/// A pack as `list` shows it.
public struct CatalogPack: Sendable, Encodable, Equatable {
    /// The pack's id.
    public var id: String
    /// The pack's display name, when pack.json gives one.
    public var name: String?
    /// The id of the grammar its amounts are read in.
    public var grammar: String
    /// The newest published version, and whether it is yanked (then phones are not served it).
    var newestPublished: SemanticVersion?
    var newestPublishedIsYanked = false
    /// The newest version validated, for a pack never published.
    var newestValidated: SemanticVersion?
    /// How many of its versions are published.
    public var publishedVersions: Int
    /// When it was last validated; nil when never.
    public var lastValidated: Date?
    /// The result of its last validation (`passed` or `failed`); nil when never validated.
    public var lastResult: String?

    /// What `list` prints in its VERSION column (and `latestVersion` in its JSON): `1.2.0`,
    /// `1.2.0 (yanked)`, or `0.1.0 (unpublished)` for a pack only validated so far.
    public var latestVersion: String? {
        newestPublished.map { newestPublishedIsYanked ? "\($0) (yanked)" : $0.description } ?? newestValidated.map { "\($0) (unpublished)" }
    }

    init(id: String, name: String?, grammar: String, newestPublished: SemanticVersion?, newestPublishedIsYanked: Bool,
                newestValidated: SemanticVersion?, publishedVersions: Int, lastValidated: Date?, lastResult: String?) {
        (self.id, self.name, self.grammar) = (id, name, grammar)
        (self.newestPublished, self.newestPublishedIsYanked, self.newestValidated) = (newestPublished, newestPublishedIsYanked, newestValidated)
        (self.publishedVersions, self.lastValidated, self.lastResult) = (publishedVersions, lastValidated, lastResult)
    }

    private enum CodingKeys: String, CodingKey { case id, name, grammar, latestVersion, publishedVersions, lastValidated, lastResult }

    /// `list --format json` keeps its one `latestVersion` text (and its date as `Date.timestamp` writes it, `StoreJSON`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encode(grammar, forKey: .grammar)
        try container.encodeIfPresent(latestVersion, forKey: .latestVersion)
        try container.encode(publishedVersions, forKey: .publishedVersions)
        try container.encodeIfPresent(lastValidated, forKey: .lastValidated)
        try container.encodeIfPresent(lastResult, forKey: .lastResult)
    }
}

/// One recorded version with its clips and validation history, as `show` prints it.
public struct CatalogVersion: Sendable, Codable, Equatable {
    /// One clip of the version, with what validation measured of it.
    public struct Clip: Sendable, Codable, Equatable {
        /// The token the clip says, its file in the pack, and its size and SHA-256 when measured.
        public var token: String, file: String, bytes: Int64?, sha256: String?
        /// Its format and length as the probe read them; nil when the clip could not be read.
        public var container: Container?, codec: Codec?, sampleRate: Int64?, channels: Int64?, frames: Int64?, durationSeconds: Double?
        package var peakDbfs: Double?, truePeakDbtp: Double?, momentaryMaxLufs: Double?
    }
    /// One validation run of the version.
    public struct Run: Sendable, Codable, Equatable {
        /// When it ran, on which folder and digest, its error and warning counts, and whether it passed.
        public var ranAt: Date, path: String, digest: String, errors: Int64, warnings: Int64, passed: Bool
        /// The amount whose announcement is longest, and its length in seconds; nil when none was rendered.
        public var worstAmount: String?, worstSeconds: Double?
    }
    /// The pack's id.
    public var id: String
    /// The pack's display name, when pack.json gives one.
    public var name: String?
    /// The version recorded.
    public var version: SemanticVersion
    /// The pack's content digest.
    public var digest: String
    /// The grammar its amounts are read in.
    public var grammar: GrammarID
    /// The largest amount the pack announces.
    public var maxAmount: Amount
    /// When it was published; nil for a version only validated.
    public var publishedAt: Date?
    /// Whether it was yanked: phones are no longer served it.
    public var yanked: Bool
    /// The engine and voice that spoke the clips, when synth did.
    public var source: VoiceSource?
    /// The reading options (`two`, `money`, `tenStart`); nil for a grammar that takes none.
    public var grammarOptions: GrammarOptions?
    /// The phrases and texts; nil for a version recorded before the catalog kept them.
    public var phrases: VersionPhrases?
    /// Its clips, in the order they were recorded.
    public var clips: [Clip]
    /// Its validation runs, oldest first.
    public var runs: [Run]
}

extension SoundpackError {
    /// This catalog failure under a store or publishing step: `catalog: <this>`, an environment failure.
    package func inCatalog() -> SoundpackError { cause(of: .environment, "catalog", joint: .colon) }
}

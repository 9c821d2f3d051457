// `verify`: recomputes every hash in the store and compares it with the manifests and the catalog.
// This file reads the store (`StoreObservations`); the store rules (SoundpackValidation's
// StoreRules/) judge what it observed.

import Foundation
import SoundpackCatalog
import SoundpackCore
import SoundpackStore
import SoundpackSupport
import SoundpackValidation

/// `soundpack verify`: every file of the store hashed and compared with the manifests and the
/// catalog, index.json with the catalog, signatures with the given keys.
public struct StoreVerifier {
    /// The catalog whose published versions the store must hold.
    public let catalog: any Catalog
    /// The store checked.
    public let store: Store
    /// Public keys by key id. When any are given, every published version (yanked ones too) must
    /// carry a valid signature by one of them; unsigned versions and other keys are drift.
    public var publicKeys: [String: [UInt8]] = [:]
    /// Signing adopted after unsigned releases: versions of a pack older than its version here
    /// may be unsigned (a notice, not drift); every newer one must be signed.
    public var unsignedBefore: [String: SemanticVersion] = [:]

    /// A verifier of `store` against `catalog`, with no keys (signatures are then not required).
    public init(catalog: any Catalog, store: Store) {
        self.catalog = catalog
        self.store = store
    }

    /// What `verify` found: drifts (exit 1), notices (what an interrupted publish left, harmless
    /// and cleaned by the next publish) and how many files were checked.
    public struct Result: Sendable {
        /// What differs from what was published (exit 1), sorted by file and rule.
        public var drifts: [Finding]
        /// What interrupted publishes left, and unsigned versions accepted by `--unsigned-before`.
        public var notices: [Finding]
        /// How many files were read and hashed.
        public var filesChecked: Int
    }

    /// Every drift and notice found, and how many files were checked. A file that cannot be read
    /// ends the run with an error (exit 3), but only after everything else was checked.
    public func verify() throws(SoundpackError) -> Result {
        let versions: [PublishedVersion]
        do { versions = try catalog.publishedVersions() } catch { throw error.inCatalog() }
        var survey = Survey(store: store)
        survey.observed.keysGiven = publicKeys.count
        for version in versions { survey.observed.versions.append(observe(version, in: &survey)) }
        observeIndex(of: versions, in: &survey)
        try observeListing(against: versions, in: &survey)
        if let readError = survey.readError { throw readError.of(.environment) }
        let findings = survey.observed.findings
        return Result(drifts: findings.filter { $0.severity == .error }.sorted { ($0.file ?? "", $0.rule.rawValue) < ($1.file ?? "", $1.rule.rawValue) },
                      notices: findings.filter { $0.severity == .note }, filesChecked: survey.checked)
    }

    /// One published version: its manifest read once against the catalog's record, then every
    /// file the manifest lists, and its signature.
    private func observe(_ version: PublishedVersion, in survey: inout Survey) -> StoreObservations.Version {
        let (id, number) = (version.id, version.version)
        let manifestKey = StoreLayout.manifest(id, number)
        var archives: [String: String] = [:]
        archives[ArchiveKind.tarGzip.rawValue] = version.tarSha256
        archives[ArchiveKind.zip.rawValue] = version.zipSha256
        let recorded = StoreObservations.Recorded(digest: version.digest, clips: version.clips.mapValues { ($0.storeFile, $0.sha256) }, archives: archives)
        var observed = StoreObservations.Version(id: id, version: number, manifestKey: manifestKey, recorded: recorded, manifest: nil, keys: [:],
                                                 unsignedBefore: unsignedBefore[id])
        // Read once: its hash, its decoding and its signature all come from these bytes.
        guard let bytes = survey.read(manifestKey, cap: StoreLimits.manifestBytes, sha256: version.manifestSha256, against: "catalog")?.bytes else {
            return observed
        }
        let manifest: StoreManifest
        do { manifest = try ManifestRefresher.decodeManifest(Data(bytes)) } catch {
            observed.manifest = .refused(error.description)
            return observed
        }
        guard manifest.id == id, manifest.version == number else {
            observed.manifest = .describes(PackRef.name(manifest.id, manifest.version))
            return observed
        }
        let files = manifest.clips.values.map(\.file) + manifest.archives.values.map(\.file)
        observed.keys = Dictionary(files.map { ($0, StoreLayout.versionFile(id, number, $0)) }, uniquingKeysWith: { a, _ in a })
        for clip in manifest.clips.values { survey.check(StoreLayout.versionFile(id, number, clip.file), sha256: clip.sha256, against: "manifest") }
        let disagreement = packJSONDisagreement(of: manifest, version, in: &survey)
        for archive in manifest.archives.values { survey.check(StoreLayout.versionFile(id, number, archive.file), sha256: archive.sha256, against: "manifest") }
        observed.manifest = .read(manifest, packJSONDisagreement: disagreement, signature: signature(of: manifest, bytes: bytes, version: version, in: &survey))
        return observed
    }

    /// pack.json against its manifest entry, and the manifest against pack.json: the manifest must
    /// be the one publish writes for it, its digest recomputed (`StoreManifest.disagreement`), so a
    /// manifest edited behind publish's back is drift though every hash in it was updated.
    private func packJSONDisagreement(of manifest: StoreManifest, _ version: PublishedVersion, in survey: inout Survey) -> String? {
        let key = StoreLayout.versionFile(version.id, version.version, manifest.packJSON.file)
        guard let read = survey.read(key, cap: PackFile.maxBytes, sha256: manifest.packJSON.sha256, against: "manifest"),
              read.sha256 == manifest.packJSON.sha256 else { return nil }
        return manifest.disagreement(withPackJSON: read.bytes)
    }

    /// The manifest's signature: which key it names, whether one was read, and whether it verifies
    /// by the given key of that id.
    private func signature(of manifest: StoreManifest, bytes: [UInt8], version: PublishedVersion, in survey: inout Survey) -> StoreObservations.Signature {
        let signatureKey = StoreLayout.signature(version.id, version.version)
        var observed = StoreObservations.Signature(keyID: manifest.signingKey, key: signatureKey, read: false, verifies: nil)
        guard let keyID = manifest.signingKey else { return observed }
        survey.expected.insert(signatureKey.pathKey)
        var text: String?
        if case .bytes(let read) = survey.small(signatureKey, cap: 4_096) {
            text = String(decoding: read, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard let text, let signature = Data(base64Encoded: text) else { return observed }
        observed.read = true
        if let publicKey = publicKeys[keyID] { observed.verifies = SigningKey.verify(Array(signature), of: bytes, publicKey: publicKey) }
        return observed
    }

    /// index.json against the index the catalog's versions describe, and the version folders it
    /// lists (none when it cannot be read).
    private func observeIndex(of versions: [PublishedVersion], in survey: inout Survey) {
        let index = Store.index(of: versions)
        survey.observed.indexKey = StoreLayout.index
        switch survey.small(StoreLayout.index, cap: StoreLimits.indexBytes) {
        case .bytes(let bytes):
            survey.checked += 1
            // Decoded as every other reader decodes it (a repeated key, an id that is no pack id:
            // refused by all of them alike).
            let stored: StoreIndex
            do { stored = try ManifestRefresher.decodeIndex(Data(bytes)) } catch {
                survey.observed.index = .refused(error.description)
                return
            }
            let differing = Set(stored.packs.keys).union(index.packs.keys).filter { stored.packs[$0] != index.packs[$0] }
            survey.observed.index = differing.isEmpty && stored == index ? .matches : .differs(packs: differing.sorted())
            survey.observed.indexedFolders = Set(stored.packs.flatMap { id, pack in pack.versions.keys.map { "\(id)/\($0)" } })
        case .absent:
            survey.observed.index = .absent(expected: !index.packs.isEmpty)
        case .reported:
            survey.observed.index = .notRead
        }
    }

    /// Every key of the store no manifest accounts for, with the version folder it is in (the rules
    /// tell what an interrupted publish left from drift), and the leftovers of interrupted writes.
    private func observeListing(against versions: [PublishedVersion], in survey: inout Survey) throws(SoundpackError) {
        let keys: [String]
        do {
            keys = try store.backend.list()
            survey.observed.leftovers = try store.backend.leftovers()
        } catch { throw error.of(.environment) }
        survey.observed.recordedFolders = Set(versions.map { StoreLayout.versionFolder($0.id, $0.version) })
        let storedKeys = Set(keys)
        for key in keys where !survey.expected.contains(key.pathKey) {
            var stray = StoreObservations.Stray(key: key, folder: nil, folderHasManifest: false)
            let parts = key.slashSeparated
            if parts.count >= 3, PackFile.isValidID(parts[0]), let version = SemanticVersion(parts[1]) {
                stray.folder = StoreLayout.versionFolder(parts[0], version)
                stray.folderHasManifest = storedKeys.contains(StoreLayout.manifest(parts[0], version))
            }
            survey.observed.strays.append(stray)
        }
    }
}

/// One run of `verify`: what it observed so far, the keys the manifests account for, how many
/// files it hashed, and the first failure to read the store.
private struct Survey {
    let store: Store
    var observed = StoreObservations()
    var expected: Set<[UInt8]> = [StoreLayout.index.pathKey]  // by bytes: NFC and NFD keys are two files
    var checked = 0
    /// The first read that failed: the run goes on, and ends with it (exit 3).
    var readError: SoundpackError?

    init(store: Store) { self.store = store }

    /// A JSON or signature file of the store, read within a cap.
    enum SmallFile {
        /// There is none.
        case absent
        /// It is there but was not read: larger than the cap or no file (both observed), or
        /// unreadable (`readError`).
        case reported
        case bytes([UInt8])
    }

    mutating func look(_ key: String, _ found: StoreObservations.Found, sha256: String? = nil, against source: String? = nil) {
        observed.looked.append(StoreObservations.Looked(key: key, listedBy: source, sha256: sha256, found: found))
    }

    /// What stands at `key`, hashed as a stream (a file of any size costs a bounded buffer); nil
    /// when there is nothing, or it cannot be read (kept in `readError`).
    mutating func stored(_ key: String) -> StoredFile? {
        do { return try store.backend.digest(key) } catch {
            readError = readError ?? error
            return nil
        }
    }

    /// `key` read once within `cap`. One larger than that is observed with its size, found by a
    /// streamed digest: it is never loaded.
    mutating func small(_ key: String, cap: Int) -> SmallFile {
        do {
            guard let data = try store.backend.read(key, atMost: cap) else { return .absent }
            return .bytes(Array(data))
        } catch {
            switch stored(key) {
            case .file(let found)? where found.bytes > Int64(cap):
                look(key, .tooLarge(bytes: found.bytes, cap: cap))
            case .notAFile(let kind)?:
                look(key, .notAFile(kind))
            default:
                readError = readError ?? error
            }
            return .reported
        }
    }

    /// `key` read within `cap` (`small`) and compared with `sha256` as `source` lists it; its bytes
    /// and their SHA-256, or nil when it is absent or was reported.
    mutating func read(_ key: String, cap: Int, sha256: String?, against source: String) -> (bytes: [UInt8], sha256: String)? {
        switch small(key, cap: cap) {
        case .absent:
            compare(key, found: nil, sha256: sha256, against: source)
            return nil
        case .reported:
            expected.insert(key.pathKey)
            return nil
        case .bytes(let bytes):
            let found = Digest.sha256Hex(bytes)
            compare(key, found: found, sha256: sha256, against: source)
            return (bytes, found)
        }
    }

    /// Records `key` as expected and what was found there against `sha256`.
    mutating func compare(_ key: String, found: String?, sha256: String?, against source: String) {
        expected.insert(key.pathKey)
        guard let found else {
            look(key, .absent, sha256: sha256, against: source)
            return
        }
        checked += 1
        look(key, .file(sha256: found), sha256: sha256, against: source)
    }

    /// Checks `key` against `sha256`, streamed: a file of any size is hashed, never loaded. A FIFO,
    /// device, socket or folder in its place is observed, and is never opened.
    mutating func check(_ key: String, sha256: String?, against source: String) {
        switch stored(key) {
        case .notAFile(let kind)?:
            expected.insert(key.pathKey)
            look(key, .notAFile(kind))
        case let found:
            compare(key, found: found?.digest?.sha256, sha256: sha256, against: source)
        }
    }
}

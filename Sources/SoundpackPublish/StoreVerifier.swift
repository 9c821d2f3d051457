// `verify`: recomputes every hash in the store and compares it with the manifests and the catalog.

import Foundation
import SoundpackCatalog
import SoundpackCore
import SoundpackStore
import SoundpackSupport
import SoundpackValidation

public struct StoreVerifier {
    public let catalog: any Catalog
    public let store: Store
    /// Public keys by key id. When any are given, every published version (yanked ones too) must
    /// carry a valid signature by one of them; unsigned versions and other keys are drift.
    public var publicKeys: [String: [UInt8]] = [:]
    /// Signing adopted after unsigned releases: versions of a pack older than its version here
    /// may be unsigned (a notice, not drift); every newer one must be signed.
    public var unsignedBefore: [String: SemanticVersion] = [:]

    public init(catalog: any Catalog, store: Store) {
        self.catalog = catalog
        self.store = store
    }

    /// What `verify` found: drifts (exit 1), notices (what an interrupted publish left, harmless
    /// and cleaned by the next publish) and how many files were checked.
    public struct Result: Sendable {
        public var drifts: [Finding]
        public var notices: [Finding]
        public var filesChecked: Int
    }

    /// Every drift and notice found, and how many files were checked. A file that cannot be read
    /// ends the run with an error (exit 3), but only after everything else was checked.
    public func verify() throws(PublishError) -> Result {
        let versions: [PublishedVersion]
        do { versions = try catalog.publishedVersions() } catch { throw .catalog(error.message) }
        var survey = Survey(store: store)
        for version in versions { check(version, in: &survey) }
        let listed = checkIndex(of: versions, in: &survey)
        try checkListing(against: versions, listed: listed, in: &survey)
        if let readError = survey.readError { throw .environment(readError.message) }
        return Result(drifts: survey.drifts.sorted { ($0.file ?? "", $0.rule.rawValue) < ($1.file ?? "", $1.rule.rawValue) },
                      notices: survey.notices, filesChecked: survey.checked)
    }

    /// One published version: its manifest against the catalog, then every file the manifest
    /// lists, and its signature.
    private func check(_ version: PublishedVersion, in survey: inout Survey) {
        let manifestKey = StoreLayout.manifest(version.id, version.version)
        // Read once: its hash, its decoding and its signature all come from these bytes.
        guard let bytes = survey.read(manifestKey, cap: StoreLimits.manifestBytes, sha256: version.manifestSha256, against: "catalog")?.bytes else { return }
        guard let manifest = decodedManifest(bytes, key: manifestKey, of: version, in: &survey) else { return }
        if manifest.digest != version.digest {
            survey.drift(.storeChanged, manifestKey, "digest differs from the catalog's")
        }
        checkClips(of: manifest, against: version, in: &survey)
        checkContent(of: manifest, version, in: &survey)
        checkArchives(of: manifest, against: version, in: &survey)
        checkSignature(of: manifest, bytes: bytes, version: version, in: &survey)
    }

    /// The manifest in `bytes`, decoded as phones decode it (`ManifestRefresher.decodeManifest`,
    /// which catalog rebuild and export use too), or nil (drift) when it is not one they take or it
    /// describes another version.
    private func decodedManifest(_ bytes: [UInt8], key: String, of version: PublishedVersion, in survey: inout Survey) -> StoreManifest? {
        let manifest: StoreManifest
        do { manifest = try ManifestRefresher.decodeManifest(Data(bytes)) } catch {
            survey.drift(.storeChanged, key, "not a manifest soundpack wrote, and phones refuse it: \(error.description)")
            return nil
        }
        guard manifest.id == version.id, manifest.version == version.version else {
            survey.drift(.storeChanged, key, "describes \(manifest.id)@\(manifest.version), not \(version.id)@\(version.version)")
            return nil
        }
        return manifest
    }

    /// pack.json against its manifest entry, and the manifest against pack.json: the manifest must
    /// be the one publish writes for it, its digest recomputed (`StoreManifest.disagreement`), so a
    /// manifest edited behind publish's back is drift though every hash in it was updated.
    private func checkContent(of manifest: StoreManifest, _ version: PublishedVersion, in survey: inout Survey) {
        let key = StoreLayout.versionFile(version.id, version.version, manifest.packJSON.file)
        guard let read = survey.read(key, cap: PackFile.maxBytes, sha256: manifest.packJSON.sha256, against: "manifest"),
              read.sha256 == manifest.packJSON.sha256, let why = manifest.disagreement(withPackJSON: read.bytes) else { return }
        survey.drift(.storeChanged, StoreLayout.manifest(version.id, version.version), "not the manifest of the version it is in: \(why)")
    }

    /// Each clip against its manifest entry, and the manifest's tokens against the catalog's.
    private func checkClips(of manifest: StoreManifest, against version: PublishedVersion, in survey: inout Survey) {
        for (token, clip) in manifest.clips {
            let key = StoreLayout.versionFile(version.id, version.version, clip.file)
            survey.check(key, sha256: clip.sha256, against: "manifest")
            if let recorded = version.clips[token], recorded.sha256 != clip.sha256 || recorded.storeFile != clip.file {
                survey.drift(.storeChanged, key, "the manifest and the catalog disagree on token '\(token)'")
            }
        }
        if Set(manifest.clips.keys) != Set(version.clips.keys) {
            survey.drift(.storeChanged, StoreLayout.manifest(version.id, version.version), "its tokens differ from the catalog's")
        }
    }

    /// Each archive against its manifest entry and the catalog's record of it.
    private func checkArchives(of manifest: StoreManifest, against version: PublishedVersion, in survey: inout Survey) {
        for (kind, archive) in manifest.archives {
            let key = StoreLayout.versionFile(version.id, version.version, archive.file)
            let recorded = kind == ArchiveKind.tarGzip.rawValue ? version.tarSha256 : version.zipSha256
            survey.check(key, sha256: archive.sha256, against: "manifest")
            if let recorded, recorded != archive.sha256 {
                survey.drift(.storeChanged, key, "the manifest and the catalog disagree")
            }
        }
    }

    /// The manifest's signature, when it names a key or `--public-key` asks for one.
    private func checkSignature(of manifest: StoreManifest, bytes: [UInt8], version: PublishedVersion, in survey: inout Survey) {
        let (id, number) = (version.id, version.version)
        let manifestKey = StoreLayout.manifest(id, number)
        let signatureKey = StoreLayout.signature(id, number)
        guard let keyID = manifest.signingKey else {
            guard !publicKeys.isEmpty else { return }
            if let cutoff = unsignedBefore[id], number < cutoff {
                survey.notices.append(Finding(.storeSignature, .note, file: manifestKey, "\(id)@\(number) is not signed; accepted, as it is older than \(id)@\(cutoff) (--unsigned-before)"))
            } else {
                survey.drift(.storeSignature, manifestKey, "\(id)@\(number) is not signed, and --public-key asks for a signature on every version (--unsigned-before \(id)@VERSION accepts older unsigned ones)")
            }
            return
        }
        survey.expected.insert(signatureKey.pathKey)
        var text: String?
        if case .bytes(let read) = survey.small(signatureKey, cap: 4_096) {
            text = String(decoding: read, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard let text, let signature = Data(base64Encoded: text) else {
            survey.drift(.storeMissing, signatureKey, "the manifest is signed by key \(keyID) but the signature is missing or unreadable")
            return
        }
        if let publicKey = publicKeys[keyID] {
            if !SigningKey.verify(Array(signature), of: bytes, publicKey: publicKey) {
                survey.drift(.storeSignature, signatureKey, "the signature by key \(keyID) does not match manifest.json")
            }
        } else if !publicKeys.isEmpty {
            survey.drift(.storeSignature, manifestKey, "signed by key \(keyID), which is not one of the \(publicKeys.count) given with --public-key")
        }
    }

    /// index.json against the index the catalog's versions describe; the version folders it lists
    /// (none when it cannot be read).
    private func checkIndex(of versions: [PublishedVersion], in survey: inout Survey) -> Set<String> {
        let index = Store.index(of: versions)
        switch survey.small(StoreLayout.index, cap: StoreLimits.indexBytes) {
        case .bytes(let bytes):
            survey.checked += 1
            // Decoded as every other reader decodes it (a repeated key, an id that is no pack id:
            // refused by all of them alike).
            let stored: StoreIndex
            do { stored = try ManifestRefresher.decodeIndex(Data(bytes)) } catch {
                survey.drift(.storeIndex, StoreLayout.index, "not an index soundpack wrote, and phones refuse it: \(error.description)")
                return []
            }
            if stored != index {
                survey.drift(.storeIndex, StoreLayout.index, "does not match the catalog (soundpack publish rewrites it)")
            }
            return Set(stored.packs.flatMap { id, pack in pack.versions.keys.map { "\(id)/\($0)" } })
        case .absent:
            if !index.packs.isEmpty { survey.drift(.storeMissing, StoreLayout.index, "the store has no index") }
            return []
        case .reported:
            return []
        }
    }

    /// Every key of the store no manifest accounts for: what an interrupted publish left of a
    /// version neither the catalog nor index.json knows (a notice), or drift; and the leftovers of
    /// interrupted writes (notices).
    private func checkListing(against versions: [PublishedVersion], listed: Set<String>, in survey: inout Survey) throws(PublishError) {
        let keys: [String]
        do {
            keys = try store.backend.list()
            for leftover in try store.backend.leftovers() {
                survey.notices.append(Finding(.storeLeftover, .note, file: leftover, "left by an interrupted publish; the next soundpack publish removes it"))
            }
        } catch { throw .environment(error.message) }
        // A version folder the catalog does not know is what an interrupted publish leaves, the
        // same on every backend, and is not served (index.json does not list it): whole, with its
        // manifest, when a folder store's publish stopped between moving it into place and
        // recording it; without a manifest, when an object store's publish stopped before
        // manifest.json, which goes up after every other file. A version index.json lists is not
        // one: files of it that no manifest accounts for are drift.
        let known = Set(versions.map { StoreLayout.versionFolder($0.id, $0.version) })
        let storedKeys = Set(keys)
        var unrecorded: [String: Bool] = [:]  // folder → whether it has its manifest
        for key in keys where !survey.expected.contains(key.pathKey) {
            let parts = key.slashSeparated
            if parts.count >= 3, PackFile.isValidID(parts[0]), let version = SemanticVersion(parts[1]) {
                let folder = StoreLayout.versionFolder(parts[0], version)
                let whole = storedKeys.contains(StoreLayout.manifest(parts[0], version))
                if !known.contains(folder), whole || !listed.contains(folder) {
                    unrecorded[folder] = whole
                    continue
                }
            }
            survey.drift(.storeUnexpected, key, "in the store but in no manifest")
        }
        for (folder, whole) in unrecorded.sorted(by: { $0.key < $1.key }) {
            survey.notices.append(Finding(.storeLeftover, .note, file: folder, whole
                ? "a version an interrupted publish never recorded; publishing it again replaces it"
                : "part of a version an interrupted publish never finished (it has no manifest.json); publishing that version again completes it"))
        }
    }
}

/// One run of `verify`: what it found so far, the keys the manifests account for, how many files
/// it hashed, and the first failure to read the store.
private struct Survey {
    let store: Store
    var drifts: [Finding] = []
    var notices: [Finding] = []
    var expected: Set<[UInt8]> = [StoreLayout.index.pathKey]  // by bytes: NFC and NFD keys are two files
    var checked = 0
    /// The first read that failed: the run goes on, and ends with it (exit 3).
    var readError: StoreError?

    init(store: Store) { self.store = store }

    /// A JSON or signature file of the store, read within a cap.
    enum SmallFile {
        /// There is none.
        case absent
        /// It is there but was not read: larger than the cap or no file (both drift, reported),
        /// or unreadable (`readError`).
        case reported
        case bytes([UInt8])
    }

    mutating func drift(_ rule: RuleID, _ key: String, _ message: String) {
        drifts.append(Finding(rule, .error, file: key, message))
    }

    /// What stands at `key`, hashed as a stream (a file of any size costs a bounded buffer); nil
    /// when there is nothing, or it cannot be read (kept in `readError`).
    mutating func stored(_ key: String) -> StoredFile? {
        do { return try store.backend.digest(key) } catch {
            readError = readError ?? error
            return nil
        }
    }

    /// `key` read once within `cap`. One larger than that is drift, its size found by a streamed
    /// digest: it is never loaded.
    mutating func small(_ key: String, cap: Int) -> SmallFile {
        do {
            guard let data = try store.backend.read(key, atMost: cap) else { return .absent }
            return .bytes(Array(data))
        } catch {
            switch stored(key) {
            case .file(let found)? where found.bytes > Int64(cap):
                drift(.storeChanged, key, "\(found.bytes) bytes, above the \(cap >> 10) KiB a soundpack \((key as NSString).lastPathComponent) may hold")
            case .notAFile(let kind)?:
                drift(.storeChanged, key, Self.notAFile(kind))
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

    /// Records `key` as expected and compares what was found with `sha256`.
    mutating func compare(_ key: String, found: String?, sha256: String?, against source: String) {
        expected.insert(key.pathKey)
        guard let found else {
            drift(.storeMissing, key, "listed in the \(source) but not in the store")
            return
        }
        checked += 1
        if let sha256, found != sha256 {
            drift(.storeChanged, key, "SHA-256 is \(found.prefix(16))…, the \(source) says \(sha256.prefix(16))…")
        }
    }

    /// Checks `key` against `sha256`, streamed: a file of any size is hashed, never loaded. A FIFO,
    /// device, socket or folder in its place is drift, and is never opened.
    mutating func check(_ key: String, sha256: String?, against source: String) {
        switch stored(key) {
        case .notAFile(let kind)?:
            expected.insert(key.pathKey)
            drift(.storeChanged, key, Self.notAFile(kind))
        case let found:
            compare(key, found: found?.digest?.sha256, sha256: sha256, against: source)
        }
    }

    static func notAFile(_ kind: String) -> String {
        "\(kind), not a file: a store holds only the files soundpack wrote"
    }
}

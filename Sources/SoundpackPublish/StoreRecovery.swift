// The store is the source of truth for what is published (DESIGN §7); the catalog records it.
// When the catalog lacks versions the store holds (a lost `.soundpack/`, a CI runner without the
// committed catalog, a backup restored from before the last release), this reads them back from
// the store's manifests, checks every file against its manifest, and records them, yanks included.
// `publish` does it for the pack it is about to publish; `catalog rebuild --from-store` for all.

import Foundation
import SoundpackAudio
import SoundpackCatalog
import SoundpackCore
import SoundpackStore
import SoundpackSupport

/// A version the store holds, read back and verified, ready to be recorded.
struct StoredVersion: Sendable {
    var record: PublicationRecord
    /// The yank index.json lists for it, if any (its reason).
    var yank: String?
}

/// Records in a catalog the versions a store holds and the catalog lacks (the store is the truth):
/// every file of such a version is read back and checked before it is recorded.
public struct StoreRecovery {
    /// The store read from.
    public let store: Store
    /// The catalog written to.
    public let catalog: any Catalog
    /// The clock recording times are taken from.
    public var now: () -> Date = { Date() }

    /// A recovery of `store`'s versions into `catalog`.
    public init(store: Store, catalog: any Catalog) {
        self.store = store
        self.catalog = catalog
    }

    /// What a recovery did.
    public struct Report: Sendable {
        /// `id@version` recorded from the store, in order.
        public var recorded: [String] = []
        /// `id@version` whose yank in index.json was recorded in the catalog.
        public var yanked: [String] = []
        /// Versions the catalog already had with the store's digest.
        public var known = 0
    }

    /// The versions of `packID` (or of every pack) the store holds: those index.json lists and,
    /// with `listing`, every `ID/VER/manifest.json` the store has (an interrupted publish writes a
    /// whole version before index.json).
    public func storedVersions(of packID: String?, index: StoreIndex?, listing: Bool) throws(SoundpackError) -> [(id: String, version: SemanticVersion)] {
        var found = Set<String>()
        var versions: [(id: String, version: SemanticVersion)] = []
        func add(_ id: String, _ text: String) {
            guard packID == nil || packID == id, let version = SemanticVersion(text), found.insert(PackRef.name(id, version)).inserted else { return }
            versions.append((id, version))
        }
        for (id, pack) in index?.packs ?? [:] { for text in pack.versions.keys { add(id, text) } }
        if listing {
            for key in try store.backend.list() {
                let parts = key.split(separator: "/", omittingEmptySubsequences: false)
                guard parts.count == 3, parts[2] == Substring(StoreLayout.manifestFile), PackFile.isValidID(String(parts[0])) else { continue }
                add(String(parts[0]), String(parts[1]))
            }
        }
        return versions.sorted { ($0.id, $0.version) < ($1.id, $1.version) }
    }

    /// Records every version of `packID` (or of every pack) that the store holds and the catalog
    /// lacks, each verified first, and the yanks index.json lists that the catalog lacks. A version
    /// the catalog has with another digest than the store's is drift: nothing is recorded then.
    public func recover(packID: String?, index: StoreIndex?, listing: Bool) throws(SoundpackError) -> Report {
        var report = Report()
        let versions: [(id: String, version: SemanticVersion)]
        versions = try storedVersions(of: packID, index: index, listing: listing)
        let published: [PublishedVersion]
        do { published = try catalog.publishedVersions(of: packID, withClips: false) } catch { throw error.inCatalog() }
        let known = Dictionary(published.map { (PackRef.name($0.id, $0.version), $0) }, uniquingKeysWith: { a, _ in a })
        var missing: [StoredVersion] = []
        var yanks: [(id: String, version: SemanticVersion, reason: String?)] = []
        // Everything is read and checked first; nothing is recorded unless all of it is sound. The
        // versions the catalog has are checked several at a time (a request each on object storage,
        // but those one listing vouches for), and the first that fails, in order, is the error.
        let haves = versions.compactMap { known[PackRef.name($0.id, $0.version)] }
        let (store, listed) = (self.store, packListing(of: packID, for: haves))
        let checks = WorkerPool.mapBlocking(haves.count, workers: 8) { n in
            Result { () throws(SoundpackError) in try Self.checkDigest(of: haves[n], in: store, listed: listed) }
        }
        var md5s: [(id: String, version: SemanticVersion, md5: String)] = []
        for (have, check) in zip(haves, checks) {
            if let md5 = try check.get(), have.manifestMD5 == nil { md5s.append((have.id, have.version, md5)) }
        }
        for (id, version) in versions {
            let name = PackRef.name(id, version)
            let listed = index?.packs[id]?.versions[version.description]
            if let have = known[name] {
                report.known += 1
                if let listed, listed.yanked, !have.yanked { yanks.append((id, version, listed.yankReason)) }
                continue
            }
            missing.append(try read(id, version, listed: listed))
        }
        // Everything is sound: the MD5s of manifests read are kept, for a store that lists them (a
        // folder store's catalog is not written for nothing). Only requests are saved by them, so a
        // catalog that cannot keep them now is no reason to stop.
        if store.listsObjects { try? catalog.recordManifestMD5s(md5s) }
        for yank in yanks {
            do { _ = try catalog.yank(yank.id, yank.version, reason: yank.reason ?? "yanked in the store's index.json", at: now()) } catch { throw error.inCatalog() }
            report.yanked.append(PackRef.name(yank.id, yank.version))
        }
        for stored in missing {
            let name = PackRef.name(stored.record.pack.packID, stored.record.pack.version)
            do {
                if try catalog.recordPublication(stored.record) { report.recorded.append(name) } else { report.known += 1 }
                if let reason = stored.yank {
                    _ = try catalog.yank(stored.record.pack.packID, stored.record.pack.version, reason: reason, at: now())
                    report.yanked.append(name)
                }
            } catch { throw error.inCatalog() }
        }
        return report
    }

    /// What an S3 store's listing of `packID`'s folder says of its objects, when one of `haves`
    /// has a manifest MD5 to compare with it; nil otherwise, for a folder store (a read costs no
    /// request), and when the listing fails (each manifest is then read, as without it).
    private func packListing(of packID: String?, for haves: [PublishedVersion]) -> [[UInt8]: ListedObject]? {
        guard let packID, haves.contains(where: { $0.manifestMD5 != nil }) else { return nil }
        return store.listedObjects(ofPack: packID)
    }

    /// That the store holds `have` with the digest the catalog has for it. A manifest whose ETag in
    /// the listing is the MD5 the catalog recorded for it (S3 gives an object written in one PUT
    /// its MD5) is the one published, and is not read. A manifest whose bytes hash to the
    /// SHA-256 the catalog recorded at publish time is the one published, so it names that digest
    /// without being decoded again, and its MD5 is returned (for the catalog to record); any
    /// other is decoded and its digest compared.
    private static func checkDigest(of have: PublishedVersion, in store: Store, listed: [[UInt8]: ListedObject]?) throws(SoundpackError) -> String? {
        if let md5 = have.manifestMD5, let object = listed?["\(have.version)/\(StoreLayout.manifestFile)".pathKey], object.md5 == md5 {
            return nil
        }
        if let recorded = have.manifestSha256,
           let data = try store.backend.read(StoreLayout.manifest(have.id, have.version), atMost: StoreLimits.manifestBytes),
           Digest.sha256Hex(data) == recorded { return Digest.md5Hex(data) }
        let stored: StoreManifest
        stored = try store.manifest(have.id, have.version)
        guard stored.digest == have.digest else {
            let name = PackRef.name(have.id, have.version)
            throw .environment("\(name) is in the catalog with digest \(have.digest.prefix(12)) but in the store \(store.location) with \(stored.digest.prefix(12)); the store is the source of truth: run soundpack verify, and rebuild the catalog from the store (soundpack catalog rebuild --from-store) into an empty one")
        }
        return nil
    }

    /// One stored version, every file it lists read and checked against its manifest, each clip
    /// probed for the facts the catalog keeps.
    func read(_ id: String, _ version: SemanticVersion, listed: StoreIndex.Version?) throws(SoundpackError) -> StoredVersion {
        let manifestKey = StoreLayout.manifest(id, version)
        guard let manifestData = try store.backend.read(manifestKey, atMost: StoreLimits.manifestBytes) else {
            throw SoundpackError.environment("\(store.location)/\(manifestKey) is missing, though index.json lists \(PackRef.name(id, version)) (soundpack verify checks the store)")
        }
        // Decoded as a phone decodes it: every file path stays in the version folder.
        let manifest = try store.decoded(manifestData, key: manifestKey, id: id, version: version)
        let manifestSha256 = Digest.sha256Hex(manifestData)
        if let listed, listed.manifestSha256 != manifestSha256 || listed.digest != manifest.digest {
            throw SoundpackError.environment("\(store.location)/\(manifestKey) is not the manifest index.json lists for \(PackRef.name(id, version)) (soundpack verify checks the store)")
        }
        func verified(_ file: String, bytes: Int, sha256: String) throws(SoundpackError) -> [UInt8] {
            try verifiedFile(id, version, file, bytes: bytes, sha256: sha256)
        }
        let packJSON = try verified(manifest.packJSON.file, bytes: manifest.packJSON.bytes, sha256: manifest.packJSON.sha256)
        for archive in manifest.archives.values { _ = try verified(archive.file, bytes: archive.bytes, sha256: archive.sha256) }
        // The manifest is not trusted to describe its version: it must be the one publish writes for
        // this pack.json, its digest recomputed from pack.json and the clips (verified below).
        let pack: PackFile
        do { pack = try manifest.pack(describedBy: packJSON) } catch {
            throw SoundpackError.environment("\(store.location)/\(manifestKey) is not the manifest of the version it is in: \(error.description) (soundpack verify checks the store)")
        }
        var clips: [ClipRecord] = []
        let probe = AudioProbe()
        for (key, clip) in manifest.clips.sorted(by: { manifest.readingGrammar.precedes($0.key, $1.key) }) {  // the order validation reports them in
            let bytes = try verified(clip.file, bytes: clip.bytes, sha256: clip.sha256)
            let facts: ClipFacts
            do { facts = try probe.probe(bytes: bytes) } catch {
                throw SoundpackError.environment("\(store.location)/\(StoreLayout.versionFile(id, version, clip.file)) cannot be read as audio: \(error.message)")
            }
            clips.append(ClipRecord(key: key, file: pack.clips[key] ?? clip.file, storeFile: clip.file, facts: facts))
        }
        let identity = VersionIdentity(packID: id, packName: manifest.name, version: version, digest: manifest.digest,
                                       grammar: manifest.readingGrammar, maxAmount: manifest.maxAmount, source: manifest.source,
                                       phrases: VersionPhrases(manifest.phrasebook, texts: manifest.texts))
        let publishedAt = listed.flatMap { Self.date($0.publishedAt) } ?? now()
        let record = PublicationRecord(pack: identity, clips: clips, manifestSha256: manifestSha256, manifestMD5: Digest.md5Hex(manifestData),
                                       tarSha256: manifest.archives[ArchiveKind.tarGzip.rawValue]?.sha256,
                                       zipSha256: manifest.archives[ArchiveKind.zip.rawValue]?.sha256,
                                       keyID: manifest.signingKey, publishedAt: publishedAt)
        return StoredVersion(record: record, yank: listed?.yanked == true ? (listed?.yankReason ?? "yanked in the store's index.json") : nil)
    }

    /// A file of a stored version, read and checked against the size and SHA-256 its manifest gives.
    private func verifiedFile(_ id: String, _ version: SemanticVersion, _ file: String, bytes: Int, sha256: String) throws(SoundpackError) -> [UInt8] {
        let key = StoreLayout.versionFile(id, version, file)
        guard let data = try store.backend.read(key) else { throw SoundpackError.environment("\(store.location)/\(key) is missing (soundpack verify checks the store)") }
        guard data.count == bytes, Digest.sha256Hex(data) == sha256 else {
            throw SoundpackError.environment("\(store.location)/\(key) does not match its manifest (soundpack verify checks the store)")
        }
        // Copied through its bytes: `Array(data)` here, in a local throwing function, was compiled
        // (Swift 6.3, -O) to free the new array before Data copied into it.
        return data.withUnsafeBytes { Array($0.bindMemory(to: UInt8.self)) }
    }

    /// index.json's `publishedAt` (`2026-11-30T15:47:58.580Z`), to the millisecond it was written
    /// with: the catalog writes it back out, and index.json must not change. Nil when it is no such
    /// date (why is not kept: no check reads the date): the version is recorded as published now,
    /// and verify then reports index.json as not matching the catalog, so nothing is hidden.
    static func date(_ text: String) -> Date? {
        // As soundpack writes it (`Date.timestamp`); other ISO 8601 text another tool wrote, read as before.
        if let written = Date(timestamp: text) { return written }
        guard text.hasSuffix("Z"), let dot = text.lastIndex(of: ".") else {
            return try? Date(text, strategy: Date.ISO8601FormatStyle())
        }
        guard let seconds = try? Date(String(text[..<dot]) + "Z", strategy: Date.ISO8601FormatStyle()),
              let milliseconds = Int(text[text.index(after: dot)..<text.index(before: text.endIndex)].prefix(3)) else { return nil }
        // Half a millisecond in: formatting truncates, and binary fractions sit just below.
        return seconds.addingTimeInterval((Double(milliseconds) + 0.5) / 1000)
    }
}

// `publish`: validate, archive, copy into the store, record in the catalog, rebuild the index.
// Order makes a crash harmless: every store file is written (temp, fsync, rename) before the
// catalog commit, and index.json is rebuilt from the catalog after it, so a version is either
// in the catalog with all its files, or in neither catalog nor index; a rerun completes it.
// The store is the source of truth (DESIGN §7): before a version is written, the store itself is
// consulted. Versions of the pack it holds that the catalog lacks are recorded from it first
// (StoreRecovery); the same id@version already stored is a no-op with the same digest and refused
// with another, whether or not the catalog knows it.

import Foundation
import SoundpackCatalog
import SoundpackCore
import SoundpackPack
import SoundpackStore
import SoundpackSupport
import SoundpackValidation

/// What publishing one pack came to.
public struct PublishOutcome: Sendable {
    /// How publishing the pack ended (`status` in `publish --format json`).
    public enum Status: String, Sendable, Codable {
        case published, unchanged, refused
        /// `--dry-run`: it passed every check and would be published.
        case wouldPublish = "would-publish"
    }
    /// The pack folder, as the user named it.
    public var folder: PackFolder
    /// The pack's id, when its pack.json could be read.
    public var id: String?
    /// The pack's version, when its pack.json could be read.
    public var version: SemanticVersion?
    /// Published, unchanged, refused or (`--dry-run`) would be published.
    public var status: Status
    /// Said to the user: why refused, or what was written.
    public var message: String
    /// The rule a refusal falls under (`catalog.version-conflict`), when one applies.
    public var rule: RuleID?
    /// The validation report publishing was decided on.
    public var report: PackReport
}

/// `publish --format json`: one object per pack (schemas: the pack folder as shown, its id and
/// version when pack.json is readable, the status, the message and the refusal's rule).
extension PublishOutcome: Encodable {
    private enum CodingKeys: String, CodingKey { case directory, id, version, status, message, rule }

    /// One object of `publish --format json` (schemas/publish.schema.json).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(folder.shown, forKey: .directory)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encodeIfPresent(version, forKey: .version)
        try c.encode(status, forKey: .status)
        try c.encode(message, forKey: .message)
        try c.encodeIfPresent(rule, forKey: .rule)
    }
}

/// A store (static files) and the catalog that records it.
public final class Publisher {
    /// The catalog the published versions are recorded in.
    public let catalog: any Catalog
    /// The store the versions' files go to.
    public let store: Store
    /// Signs each new version's manifest.json (`manifest.json.sig`), when given.
    public let signingKey: SigningKey?
    /// mtime of tar entries: `SOURCE_DATE_EPOCH` or 0.
    public let sourceDateEpoch: Int64
    /// The clock publication times are taken from (tests set it).
    public var now: () -> Date = { Date() }
    /// Recorded with the validation runs publishing makes.
    public var toolVersion = "soundpack"
    /// Check everything and say what would happen, writing nothing: no store file, no lock file,
    /// no catalog row.
    public var dryRun = false

    /// A publisher into `store`, recording in `catalog`; archives' entries carry `sourceDateEpoch` as their time.
    public init(catalog: any Catalog, store: Store, signingKey: SigningKey? = nil, sourceDateEpoch: Int64 = 0) {
        self.catalog = catalog
        self.store = store
        self.signingKey = signingKey
        self.sourceDateEpoch = sourceDateEpoch
    }

    /// Publishes each pack; refusals are outcomes, environment failures throw.
    public func publish(folders: [PackFolder], progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) throws(SoundpackError) -> [PublishOutcome] {
        // The gate compares each pack's clips with its version below in this store (audio.swapped).
        let reports = PhaseTimes.measure("validate (clips decoded, measured)") {
            Validator().validate(folders: folders, earlier: store.earlierVoices(), progress: progress)
        }
        if dryRun {
            let index = try store.readIndex(of: Set(reports.compactMap { $0.packFile?.id }))
            var outcomes: [PublishOutcome] = []
            for report in reports { outcomes.append(try publish(report, index: index)) }
            return outcomes
        }
        // The locks of this run's packs (sorted: every writer takes them in one order), not the
        // whole store's: runners publishing other packs go on meanwhile.
        let packIDs = Set(reports.compactMap { $0.packFile?.id }).sorted()
        var locks: [any StoreLock] = []
        defer { for lock in locks.reversed() { lock.release() } }
        for id in packIDs { locks.append(try storeLock(.pack(id))) }
        PhaseTimes.measure("leftovers removed") { store.backend.removeLeftovers() }
        let index = try store.readIndex(of: Set(packIDs))
        // The gate's runs go into the validation history like any other.
        do {
            try PhaseTimes.measure("catalog: validations recorded") { () throws(SoundpackError) in
                try catalog.recordValidations(reports, strict: false, toolVersion: toolVersion, at: now())
            }
        } catch { throw error.inCatalog() }
        var outcomes: [PublishOutcome] = []
        // Archiving is most of a publish's CPU: a window of versions (a few per core, so memory
        // stays bounded) is built on every core, then written and recorded one by one, in order.
        let window = max(2, ProcessInfo.activeCores * 2)
        for start in stride(from: 0, to: reports.count, by: window) {
            let batch = Array(reports[start..<min(start + window, reports.count)])
            let built = try buildCandidates(batch)
            for (report, contents) in zip(batch, built) { outcomes.append(try publish(report, index: index, contents: contents)) }
        }
        // index.json from the catalog, under the index lock only: it lists every recorded version,
        // this run's and those other runners recorded meanwhile (each complete in the store; their
        // packs' counts in the catalog differ from the index's, so their entries are built again).
        do throws(SoundpackError) {
            let indexLock = try storeLock(.index)
            defer { indexLock.release() }
            try PhaseTimes.measure("index.json rewritten") { () throws(SoundpackError) in try store.writeIndex(from: catalog, rewriting: Set(packIDs)) }
        } catch {
            // What was published stays published: say so, not only what failed.
            let done = outcomes.filter { $0.status == .published }.compactMap { outcome in outcome.id.flatMap { id in outcome.version.map { PackRef.name(id, $0) } } }
            guard !done.isEmpty else { throw error }
            throw error.context("index.json was not rewritten after publishing \(done.joined(separator: ", ")) (its files are in the store, the catalog records it)",
                                hint: "run soundpack publish again: it rewrites index.json")
        }
        return outcomes
    }

    /// Versions a dry run would publish, by pack id, with their digests: later folders of the same
    /// run see them.
    private var planned: [String: [SemanticVersion: String]] = [:]

    /// The contents of each report's version, built in parallel for the reports that look
    /// publishable (valid, and that version not in the catalog yet); nil for the others. A guess
    /// only saves time: `publish(_:contents:)` still decides, and builds what is missing itself.
    private func buildCandidates(_ reports: [PackReport]) throws(SoundpackError) -> [Result<VersionContents, SoundpackError>?] {
        var candidates: [Int] = []
        for (index, report) in reports.enumerated() {
            guard report.errors == 0, let manifest = report.packFile else { continue }
            let published: Bool
            do { published = try catalog.isPublished(manifest.id, manifest.version) } catch { throw error.inCatalog() }
            if !published { candidates.append(index) }
        }
        let (epoch, chosen) = (sourceDateEpoch, candidates)
        let built = PhaseTimes.measure("archives and hashes, on every core") {
            WorkerPool.map(chosen.count) { i in
                Result { () throws(SoundpackError) in try VersionContents(reports[chosen[i]], mtime: epoch) }
            }
        }
        var contents: [Result<VersionContents, SoundpackError>?] = Array(repeating: nil, count: reports.count)
        for (i, index) in chosen.enumerated() { contents[index] = built[i] }
        return contents
    }

    /// A lock of the store, as publish, yank and rebuild take them: the catalog's (PostgreSQL) or
    /// the store's own.
    private func storeLock(_ scope: LockScope) throws(SoundpackError) -> any StoreLock {
        try PhaseTimes.measure("store locks taken") { () throws(SoundpackError) in try takeLock(scope) }
    }

    private func takeLock(_ scope: LockScope) throws(SoundpackError) -> any StoreLock {
        let held: (any StoreLock)?
        do { held = try catalog.storeLock(scope) } catch { throw error.inCatalog() }
        if let held { return held }
        return try store.lock(scope)
    }

    /// Records in the catalog every version the store holds and the catalog lacks, with the yanks
    /// index.json lists (`catalog rebuild --from-store`), under the lock publish takes.
    public func rebuildCatalog() throws(SoundpackError) -> StoreRecovery.Report {
        let lock: any StoreLock
        do { lock = try storeLock(.index) } catch { throw .environment("cannot lock the store", "\(error)") }
        defer { lock.release() }
        let index: StoreIndex?
        do { index = try store.readIndex() } catch { throw error.context("cannot read the store") }
        do { return try StoreRecovery(store: store, catalog: catalog).recover(packID: nil, index: index, listing: true) } catch {
            throw error.context("cannot rebuild the catalog from the store")
        }
    }

    /// Yanks `id@version` (or, with `undo`, takes a yank back) under the pack's lock, as publish
    /// takes it: the versions of the pack the store holds and the catalog lacks are recorded first
    /// (the store is the truth), and index.json is rewritten (under the index lock) whatever the
    /// outcome, so a yank whose index write failed is completed by running it again.
    public func yank(_ id: String, _ version: SemanticVersion, reason: String, undo: Bool = false) throws(SoundpackError) -> YankOutcome {
        let lock = try storeLock(.pack(id))
        defer { lock.release() }
        _ = try StoreRecovery(store: store, catalog: catalog).recover(packID: id, index: try store.readIndex(of: [id]), listing: false)
        let outcome: YankOutcome
        do { outcome = undo ? try catalog.unyank(id, version) : try catalog.yank(id, version, reason: reason, at: now()) } catch {
            throw error.inCatalog()
        }
        if outcome != .notPublished {
            let indexLock = try storeLock(.index)
            defer { indexLock.release() }
            try store.writeIndex(from: catalog, rewriting: [id], unyanking: undo ? (id, version) : nil)
        }
        return outcome
    }

    private func publish(_ report: PackReport, index: StoreIndex?, contents: Result<VersionContents, SoundpackError>? = nil) throws(SoundpackError) -> PublishOutcome {
        var outcome = PublishOutcome(folder: report.folder, id: report.id, version: report.version, status: .refused,
                                     message: "", rule: nil, report: report)
        guard report.errors == 0, let manifest = report.packFile, let facts = VersionFacts(report) else {
            outcome.message = "validation failed with \(report.errors) error\(report.errors == 1 ? "" : "s"); nothing was published"
            return outcome
        }
        let (id, version, digest) = (manifest.id, manifest.version, facts.digest)
        let recovery = StoreRecovery(store: store, catalog: catalog)
        if !dryRun, index?.packs[id] != nil {
            _ = try PhaseTimes.measure("earlier versions checked in the store") { () throws(SoundpackError) in
                try recovery.recover(packID: id, index: index, listing: false)
            }
        }
        let published = try publishedVersions(of: id, index: index)
        let plannedHere = planned[id] ?? [:]
        var candidate = PublicationCandidate(id: id, version: version, digest: digest, store: "\(store.location)")
        let same = published.first { $0.version == version }.map { PublicationCandidate.Existing(place: .catalog, digest: $0.digest, yanked: $0.yanked, yankReason: $0.yankReason) }
            ?? plannedHere[version].map { PublicationCandidate.Existing(place: .thisRun, digest: $0) }
        if let same {
            candidate.existing = same
            if let refused = refused(candidate, outcome) { return refused }
            outcome.status = .unchanged
            outcome.message = "\(PackRef.name(id, version)) is already published with this content; nothing to do"
            return outcome
        }
        // Not in the catalog: the store may still hold it (a publish stopped before its catalog
        // commit, or a catalog that lost it).
        if let stored = try store.storedManifest(id, version) {
            candidate.existing = .init(place: .store, digest: stored.digest)
            if let refused = refused(candidate, outcome) { return refused }
            return try recordStored(id: id, version: version, index: index, recovery: recovery, outcome)
        }
        if let newest = (published.map(\.version) + plannedHere.keys).max() {
            candidate.newest = newest
            if newest < version { candidate.change = try change(of: id, to: facts, from: newest, index: index, recovery: recovery) }
            if let refused = refused(candidate, outcome) { return refused }
        }
        if dryRun {
            planned[id, default: [:]][version] = digest
            outcome.status = .wouldPublish
            outcome.message = "would publish \(PackRef.name(id, version)) (\(report.clips.count) clips, digest \(digest.prefix(12))) to \(store.location)/\(StoreLayout.versionFolder(id, version)); nothing was written"
            return outcome
        }
        let built: VersionContents
        if let contents { built = try contents.get() } else { built = try VersionContents(report, mtime: sourceDateEpoch) }
        let written = try writeVersion(report, manifest: manifest, digest: digest, contents: built)
        let recorded: Bool
        do { recorded = try catalog.recordPublication(written) } catch { throw error.inCatalog() }
        outcome.status = recorded ? .published : .unchanged
        outcome.message = recorded
            ? "published \(PackRef.name(id, version)) (\(written.clips.count) clips, digest \(digest.prefix(12))) to \(store.location)/\(StoreLayout.versionFolder(id, version))"
            : "\(PackRef.name(id, version)) was published meanwhile; nothing to do"
        return outcome
    }

    /// The published versions of `id` as the catalog holds them; in a dry run also what a real run
    /// would have recorded by now from the store (this run's earlier folders are in `planned`).
    private func publishedVersions(of id: String, index: StoreIndex?) throws(SoundpackError) -> [PublishedVersion] {
        var published: [PublishedVersion]
        do { published = try catalog.publishedVersions(of: id, withClips: false) } catch { throw error.inCatalog() }
        guard dryRun else { return published }
        for (text, listed) in index?.packs[id]?.versions ?? [:] {
            guard let stored = SemanticVersion(text), !published.contains(where: { $0.version == stored }) else { continue }
            // Recorded as a real run's recovery would record it (`StoreRecovery`).
            let publishedAt = StoreRecovery.date(listed.publishedAt) ?? now()
            published.append(PublishedVersion(id: id, version: stored, digest: listed.digest, publishedAt: publishedAt, yanked: listed.yanked,
                                              yankReason: listed.yankReason, manifestSha256: listed.manifestSha256, clips: [:]))
        }
        return published
    }

    /// `outcome` refused by the first publication rule that refuses `candidate`; nil when none does.
    private func refused(_ candidate: PublicationCandidate, _ outcome: PublishOutcome) -> PublishOutcome? {
        guard let refusal = candidate.refusal else { return nil }
        var outcome = outcome
        (outcome.rule, outcome.message) = (refusal.rule, refusal.message)
        return outcome
    }

    /// A version the store holds with this content and the catalog lacks: recorded in the catalog
    /// (a dry run says it would be).
    private func recordStored(id: String, version: SemanticVersion, index: StoreIndex?, recovery: StoreRecovery,
                              _ outcome: PublishOutcome) throws(SoundpackError) -> PublishOutcome {
        var outcome = outcome
        outcome.status = .unchanged
        if dryRun {
            outcome.message = "\(PackRef.name(id, version)) is already in the store \(store.location) with this content; it would be recorded in the catalog, nothing written"
            return outcome
        }
        let read: StoredVersion
        read = try recovery.read(id, version, listed: index?.packs[id]?.versions[version.description])
        do { _ = try catalog.recordPublication(read.record) } catch { throw error.inCatalog() }
        outcome.message = "\(PackRef.name(id, version)) is already in the store \(store.location) with this content; recorded it in the catalog"
        return outcome
    }

    /// The change from `newest`, the newest published version, to the version `facts` describe,
    /// which the bump rule judges; nil when the bump is not checked: a pre-release is a candidate of
    /// its version, so the release after it (1.0.0 after 1.0.0-rc.1) and the next candidate may
    /// change anything the candidate had, and a version the catalog has no record of has nothing to
    /// compare with.
    private func change(of id: String, to facts: VersionFacts, from newest: SemanticVersion, index: StoreIndex?,
                        recovery: StoreRecovery) throws(SoundpackError) -> VersionChange? {
        let version = facts.version
        guard let old = try previousRecord(id, newest, checking: version, index: index, recovery: recovery),
              !newest.isPrerelease(ofSameCoreAs: version) else { return nil }
        var oldFacts = VersionFacts(old)
        // The texts and phrases are in the store's manifest of the version, not in the catalog.
        // One that cannot be read would hide a removed or changed phrase: the check stops.
        let stored: StoreManifest?
        do { stored = try store.storedManifest(id, newest) } catch {
            throw error.context("cannot check the version bump of \(PackRef.name(id, version)): the phrases and texts of \(PackRef.name(id, newest)) it compares with are in that version's manifest in the store")
        }
        if let stored { oldFacts = oldFacts.completed(by: stored) }
        return VersionChange(from: oldFacts, to: facts)
    }

    /// The catalog's record of `id@newest`, which `version`'s bump is checked against. A dry run
    /// records nothing, so a version only the store holds (a fresh runner's first step) is read
    /// from the store as a real run would have recorded it: the same check.
    private func previousRecord(_ id: String, _ newest: SemanticVersion, checking version: SemanticVersion, index: StoreIndex?,
                                recovery: StoreRecovery) throws(SoundpackError) -> VersionRecord? {
        let old: VersionRecord?
        do { old = try catalog.versionRecord(of: id, newest) } catch { throw error.inCatalog() }
        guard old == nil, dryRun, let listed = index?.packs[id]?.versions[newest.description] else { return old }
        let read: StoredVersion
        do { read = try recovery.read(id, newest, listed: listed) } catch {
            throw error.context("cannot check the version bump of \(PackRef.name(id, version)) against \(PackRef.name(id, newest)) in the store")
        }
        return VersionRecord(pack: read.record.pack, published: true, clips: read.record.clips)
    }

    /// The pack's files as they go into archives: pack.json and each clip at its pack path.
    static func packFiles(_ report: PackReport) throws(SoundpackError) -> [(path: String, bytes: [UInt8])] {
        var files: [(String, [UInt8])] = []
        var seen = Set<[UInt8]>()  // by bytes: NFC and NFD names are two files
        let root = URL(fileURLWithPath: report.folder.path, isDirectory: true)
        let manifestPath = root.appendingPathComponent(StoreLayout.packJSONFile).path
        guard let pack = FileManager.default.contents(atPath: manifestPath) else { throw .environment("cannot read \(manifestPath)") }
        files.append((StoreLayout.packJSONFile, Array(pack)))
        for clip in report.clips {
            let path = PackPaths.normalized(clip.file)
            guard seen.insert(path.pathKey).inserted else { continue }
            guard let bytes = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) else {
                throw .environment("cannot read \(root.path)/\(path)")
            }
            files.append((path, Array(bytes)))
        }
        return files
    }

    /// Writes clips, archives and manifest.json (and its signature) of one version; returns what
    /// the catalog records of it.
    private func writeVersion(_ report: PackReport, manifest pack: PackFile, digest: String,
                              contents: VersionContents) throws(SoundpackError) -> PublicationRecord {
        let (id, version) = (pack.id, pack.version)
        var clips: [String: StoreManifest.Clip] = [:]
        var records: [ClipRecord] = []
        let bytesByPath = contents.bytesByPath
        // Every file of the version, written together at the end so it appears whole.
        var versionFiles: [(name: String, data: Data)] = []
        func put(_ file: String, _ bytes: [UInt8]) {
            // Two tokens may share one clip file; it is stored once.
            if !versionFiles.contains(where: { $0.name.utf8.elementsEqual(file.utf8) }) { versionFiles.append((file, Data(bytes))) }
        }
        for clip in report.clips {
            guard let facts = clip.facts else { continue }
            let path = PackPaths.normalized(clip.file)
            let target = StoreLayout.clipFile(packPath: path)
            guard let bytes = bytesByPath[path.pathKey] else { throw .environment("cannot read \(report.folder.path)/\(path)") }
            put(target, bytes)
            clips[clip.key] = StoreManifest.Clip(
                file: target, bytes: bytes.count, sha256: facts.sha256, frames: facts.frames, durationSeconds: facts.durationSeconds,
                container: facts.container, codec: facts.codec, sampleRate: facts.sampleRate, channels: facts.channels)
            records.append(ClipRecord(key: clip.key, file: clip.file, storeFile: target, facts: facts))
        }
        var archives: [String: StoreManifest.FileRecord] = [:]
        for archive in contents.archives {
            let name = StoreLayout.archiveFile(id, version, archive.kind)
            put(name, archive.bytes)
            archives[archive.kind.rawValue] = StoreManifest.FileRecord(file: name, bytes: archive.bytes.count, sha256: archive.sha256)
        }
        let packJSON = bytesByPath[StoreLayout.packJSONFile.pathKey] ?? []
        let manifest = StoreManifest(
            describing: pack, digest: digest, clips: clips,
            packJSON: StoreManifest.FileRecord(file: StoreLayout.packJSONFile, bytes: packJSON.count, sha256: Digest.sha256Hex(packJSON)),
            archives: archives, signingKey: signingKey?.keyID)
        put(StoreLayout.packJSONFile, packJSON)
        let encoded: [UInt8]
        encoded = Array(try manifest.encoded())
        if let signingKey {
            let signature = Data(signingKey.sign(encoded)).base64EncodedString() + "\n"
            put(StoreLayout.signatureFile, Array(signature.utf8))
        }
        put(StoreLayout.manifestFile, encoded)
        try PhaseTimes.measure("version files written") { () throws(SoundpackError) in
            try store.backend.writeVersion(StoreLayout.versionFolder(id, version), files: versionFiles)
        }
        guard let identity = VersionIdentity(report) else { throw .environment("\(report.folder.shown) has no readable pack.json") }
        return PublicationRecord(
            pack: identity, clips: records, manifestSha256: Digest.sha256Hex(encoded), manifestMD5: Digest.md5Hex(encoded),
            tarSha256: archives[ArchiveKind.tarGzip.rawValue]?.sha256, zipSha256: archives[ArchiveKind.zip.rawValue]?.sha256,
            keyID: signingKey?.keyID, publishedAt: now())
    }
}

/// A version's files as read for publishing (each clip checked against the hash validation
/// measured) and its archives: the CPU-heavy part of a publish, free of the catalog and the store.
struct VersionContents: Sendable {
    /// Each file's bytes by its path's bytes in the pack (pack.json and the clips): NFC and NFD
    /// spellings of one name are two files.
    var bytesByPath: [[UInt8]: [UInt8]]
    var archives: [(kind: ArchiveKind, bytes: [UInt8], sha256: String)]

    init(_ report: PackReport, mtime: Int64) throws(SoundpackError) {
        let files = try Publisher.packFiles(report)
        bytesByPath = Dictionary(files.map { ($0.path.pathKey, $0.bytes) }, uniquingKeysWith: { a, _ in a })
        for clip in report.clips {
            guard let facts = clip.facts else { continue }
            let path = PackPaths.normalized(clip.file)
            guard let bytes = bytesByPath[path.pathKey], Digest.sha256Hex(bytes) == facts.sha256 else {
                throw .environment("\(path) changed while it was being published; publish again")
            }
        }
        guard let manifest = report.packFile else { throw .environment("\(report.folder.shown) has no readable pack.json") }
        archives = []
        for kind in ArchiveKind.allCases {
            let bytes: [UInt8]
            do { bytes = try ReproducibleArchive.make(files, under: "\(manifest.id)-\(manifest.version)", kind: kind, mtime: mtime) } catch {
                throw error.of(.environment)
            }
            archives.append((kind, bytes, Digest.sha256Hex(bytes)))
        }
    }
}

/// Why publishing could not go on: the catalog or the store failed (exit 3).

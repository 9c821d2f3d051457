// The store (DESIGN §7) and its one owner: the layout (`index.json`, `ID/VER/manifest.json`,
// `ID/VER/ID-VER.tar.gz`, `ID/VER/clips/…`), the lock publishers and yanks take, manifest lookup
// and index.json, which is always rebuilt from the catalog. No other file spells a store path.
//
// A backend stores bytes under keys (`wechat/1.0.0/manifest.json`). Its interface is what an
// object store can implement too: read, replace, put-if-absent, list, and an exclusive section.

import Foundation
import Synchronization
import SoundpackCatalog
import SoundpackCore
import SoundpackPack
import SoundpackSupport

/// The store paths only Kit needs (pack.json, archives, clips); SoundpackCore's `StoreLayout`
/// spells the ones phones read too.
extension StoreLayout {
    package static let packJSONFile = PackFolder.packFile

    /// `wechat-1.0.0.tar.gz`: an archive's name inside the version folder.
    package static func archiveFile(_ id: String, _ version: SemanticVersion, _ kind: ArchiveKind) -> String {
        "\(id)-\(version).\(kind.rawValue)"
    }

    /// Where a clip goes in the version folder: its pack path, under `clips/` (`shi.caf` →
    /// `clips/shi.caf`, `clips/shi.caf` stays).
    package static func clipFile(packPath: String) -> String { PackPaths.storePath(packPath) }

    /// Nothing when `key` is a key of the store: a relative path of non-empty components, none of
    /// them `.` or `..`, without a NUL. Every backend checks each key it is given, so a key built
    /// from what a manifest or index.json says never names a file outside the store (on disk, or
    /// through an HTTP client that folds `..` out of a URL).
    static func checkKey(_ key: String, in location: String) throws(SoundpackError) {
        let parts = key.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard !key.isEmpty, key.utf8.count <= Folders.maxPathBytes, !key.utf8.contains(0),
              parts.allSatisfy({ !$0.isEmpty && !$0.elementsEqual(".".utf8) && !$0.elementsEqual("..".utf8) }) else {
            throw SoundpackError(.environment, "refusing to read or write '\(key.quoted(limit: 120))' in \(location)",
                             why: "it is not a path inside the store (an empty, . or .. part)",
                             hint: "a store's manifests and index.json name only files of the store; soundpack verify checks it")
        }
    }
}

/// Bytes under keys: a folder on disk, or (later) an object store.
public protocol StoreBackend: AnyObject, Sendable {
    /// Where the store is, for messages.
    var location: String { get }
    /// The bytes at `key`, or nil when there is none; an error when there are more than `cap`
    /// (found before they are all read: a hostile store cannot make a reader load gigabytes).
    func read(_ key: String, atMost cap: Int) throws(SoundpackError) -> Data?
    /// The size and SHA-256 of `key`, read as a stream (a file of any size costs a bounded buffer);
    /// what stands there instead when it is no file (never opened), or nil when there is nothing.
    func digest(_ key: String) throws(SoundpackError) -> StoredFile?
    /// Writes `key` whole (a reader sees the old bytes or the new, never part), replacing it.
    func write(_ key: String, _ data: Data) throws(SoundpackError)
    /// Writes `key` only when it does not exist yet; false when it did.
    func writeIfAbsent(_ key: String, _ data: Data) throws(SoundpackError) -> Bool
    /// Every key in the store (leftovers of interrupted writes excepted).
    func list() throws(SoundpackError) -> [String]
    /// Writes the files of a new version folder (`wechat/1.0.0`) so that readers see all of them
    /// or none: a crash leaves at most a leftover that `leftovers()` lists. A folder already there
    /// that the catalog does not know (an earlier publish stopped before its catalog commit) is
    /// replaced; call it under the lock.
    func writeVersion(_ folder: String, files: [(name: String, data: Data)]) throws(SoundpackError)
    /// What interrupted writes left (staging folders, temporary files), for `verify` to report.
    func leftovers() throws(SoundpackError) -> [String]
    /// Takes the store's exclusive lock of `scope`, held until the returned lock is released.
    func lock(_ scope: LockScope) throws(SoundpackError) -> any StoreLock
    /// Removes what writers that are gone (killed) left; what a live writer is assembling stays.
    /// Its cost does not grow with the store.
    func removeLeftovers()
}


extension StoreBackend {
    /// The bytes at `key`, at most 1 GiB (`read(_:atMost:)`).
    public func read(_ key: String) throws(SoundpackError) -> Data? { try read(key, atMost: 1 << 30) }
}

/// A stored file's size and SHA-256.
public struct StoredDigest: Sendable, Equatable {
    /// The file's size in bytes.
    public var bytes: Int64
    /// The SHA-256 of its bytes, lowercase hex.
    public var sha256: String
}

/// What stands at a key of the store.
public enum StoredFile: Sendable, Equatable {
    case file(StoredDigest)
    /// Something no store holds in place of a file, named ("a FIFO", "a folder"): soundpack writes
    /// only files, so this is drift. It was not opened.
    case notAFile(String)

    /// The file's size and SHA-256; nil when it is no file.
    public var digest: StoredDigest? {
        if case .file(let digest) = self { return digest }
        return nil
    }
}

/// A store: a backend and the layout, with the lookups every command shares.
public struct Store: Sendable {
    package let backend: any StoreBackend
    /// The index last decoded and its bytes: a publish reads index.json up to three times.
    private let lastIndex = LastIndexRead()
    /// Each pack folder's listing, once listed (`listedObjects(ofPack:)`).
    private let packListings = PackListings()

    /// The store whose bytes `backend` holds.
    public init(backend: any StoreBackend) { self.backend = backend }

    /// A store in a local folder (created on first write), named in messages as `shown` (the
    /// path as the user wrote it; the absolute path when nil).
    public static func directory(_ path: String, shown: String? = nil) -> Store {
        Store(backend: DirectoryStore(root: path, shown: shown))
    }

    /// Where the store is, for messages (its folder as written, or its `s3://` URL).
    public var location: String { backend.location }

    /// Takes the store's exclusive lock of `scope`, held until the returned lock is released.
    public func lock(_ scope: LockScope) throws(SoundpackError) -> any StoreLock { try backend.lock(scope) }

    /// The manifest of a published version, read and decoded.
    public func manifest(_ id: String, _ version: SemanticVersion) throws(SoundpackError) -> StoreManifest {
        guard let manifest = try storedManifest(id, version) else {
            throw SoundpackError.environment("\(location)/\(StoreLayout.manifest(id, version)) is missing (soundpack verify checks the store)")
        }
        return manifest
    }

    /// The manifest of `id@version` when the store holds one (one read), nil when it does not.
    /// It is decoded as a phone decodes it (`decodeManifest`), and must describe `id@version`.
    public func storedManifest(_ id: String, _ version: SemanticVersion) throws(SoundpackError) -> StoreManifest? {
        let key = StoreLayout.manifest(id, version)
        guard let data = try backend.read(key, atMost: StoreLimits.manifestBytes) else { return nil }
        return try decoded(data, key: key, id: id, version: version)
    }

    /// The bytes of `id@version`'s manifest.json decoded by the phone's own decoding, and checked
    /// to describe that version: what every reader of a store's manifest takes.
    package func decoded(_ data: Data, key: String, id: String, version: SemanticVersion) throws(SoundpackError) -> StoreManifest {
        let manifest: StoreManifest
        do { manifest = try ManifestRefresher.decodeManifest(data) } catch {
            throw SoundpackError.environment("\(location)/\(key) is not a soundpack manifest: \(error.description) (soundpack verify checks the store)")
        }
        guard manifest.id == id, manifest.version == version else {
            throw SoundpackError.environment("\(location)/\(key) describes \(PackRef.name(manifest.id, manifest.version).visible), not \(PackRef.name(id, version))")
        }
        return manifest
    }

    /// Nothing when `manifest` (of `id@version`) is the one publish writes for the pack.json stored
    /// beside it (`StoreManifest.disagreement`); else the error that says how it is not. pack.json
    /// is read within its cap and checked against the manifest's entry first.
    func checkContent(of manifest: StoreManifest, _ id: String, _ version: SemanticVersion) throws(SoundpackError) {
        let key = StoreLayout.versionFile(id, version, manifest.packJSON.file)
        guard let data = try backend.read(key, atMost: PackFile.maxBytes) else {
            throw SoundpackError.environment("\(location)/\(key) is missing (soundpack verify checks the store)")
        }
        guard data.count == manifest.packJSON.bytes, Digest.sha256Hex(data) == manifest.packJSON.sha256 else {
            throw SoundpackError.environment("\(location)/\(key) does not match its manifest (soundpack verify checks the store)")
        }
        if let why = manifest.disagreement(withPackJSON: Array(data)) {
            throw SoundpackError.environment("\(location)/\(StoreLayout.manifest(id, version)) is not the manifest of the version it is in: \(why) (soundpack verify checks the store)")
        }
    }

    /// A published version of `id` and its manifest: `version` when given (yanked or not), else
    /// the newest that is not yanked. Nil when the catalog has no such version.
    public func published(_ id: String, _ version: SemanticVersion?, in catalog: any Catalog) throws(SoundpackError) -> (version: PublishedVersion, manifest: StoreManifest)? {
        let versions: [PublishedVersion]
        do { versions = try catalog.publishedVersions(of: id) } catch { throw error.inCatalog() }
        let chosen = if let version { versions.first { $0.version == version } } else { versions.filter { !$0.yanked }.max { $0.version < $1.version } }
        guard let chosen else { return nil }
        return (chosen, try checkedManifest(chosen))
    }

    /// The manifest of a published version, as export and payload hand it to phones: its bytes
    /// must hash to what the catalog recorded at publish time, it must pass the phone's own
    /// decoding (ManifestRefresher: clip paths inside the version folder, known tokens), and it
    /// must be the manifest of the pack.json stored beside it, so a store changed behind the
    /// catalog's back is refused here, not on a million phones.
    func checkedManifest(_ version: PublishedVersion) throws(SoundpackError) -> StoreManifest {
        let key = StoreLayout.manifest(version.id, version.version)
        guard let data = try backend.read(key, atMost: StoreLimits.manifestBytes) else {
            throw SoundpackError.environment("\(location)/\(key) is missing (soundpack verify checks the store)")
        }
        if let recorded = version.manifestSha256, Digest.sha256Hex(data) != recorded {
            throw SoundpackError.environment("\(location)/\(key) is not the manifest that was published: its SHA-256 differs from the catalog's (soundpack verify shows what changed)")
        }
        let manifest = try decoded(data, key: key, id: version.id, version: version.version)
        try checkContent(of: manifest, version.id, version.version)
        return manifest
    }

    /// The index the catalog's published versions describe.
    public static func index(of versions: [PublishedVersion]) -> StoreIndex {
        var packs: [String: StoreIndex.Pack] = [:]
        var latest: [String: SemanticVersion] = [:]
        for version in versions {
            // Mutated in place: copying a pack's versions out and back would make this quadratic.
            packs[version.id, default: StoreIndex.Pack(latest: nil, versions: [:])].versions[version.version.description] = StoreIndex.Version(
                digest: version.digest, manifest: StoreLayout.manifest(version.id, version.version),
                manifestSha256: version.manifestSha256 ?? "", publishedAt: version.publishedAt.timestamp, yanked: version.yanked,
                yankReason: version.yankReason)
            if !version.yanked, latest[version.id].map({ $0 < version.version }) ?? true { latest[version.id] = version.version }
        }
        for (id, version) in latest { packs[id]?.latest = version.description }
        return StoreIndex(packs: packs)
    }

    /// The store's index.json, nil when there is none yet, decoded whole.
    /// It is looked at each time (a folder's compared with the bytes last read, any other store's
    /// read again); the same bytes as the last read are not decoded again.
    package func readIndex() throws(SoundpackError) -> StoreIndex? { try readIndex(skimming: false)?.index }

    /// index.json with only the entries of `packs` (those it lists): what a publish or a yank of
    /// those packs reads. It is checked whole, as `readIndex()` checks it, and where it is in the
    /// layout publish writes, the other entries are only skimmed.
    package func readIndex(of packs: Set<String>) throws(SoundpackError) -> StoreIndex? { try readIndex(skimming: true)?.index(of: packs) }

    /// index.json as `readIndex(of:)` reads it, with any entry built when asked for.
    package func readSkimmedIndex() throws(SoundpackError) -> IndexRead? { try readIndex(skimming: true) }

    /// index.json, skimmed when `skimming` and it is in the layout publish writes, else decoded whole.
    private func readIndex(skimming: Bool) throws(SoundpackError) -> IndexRead? {
        // A folder's index.json that still holds the bytes last read is compared, not read again.
        if let folder = backend as? DirectoryStore, let last = lastIndex.last(skimmed: skimming),
           try PhaseTimes.measure("index.json compared with the last read", { () throws(SoundpackError) in
               try folder.holds(StoreLayout.index, exactly: last.data, atMost: StoreLimits.indexBytes)
           }) {
            return last.read
        }
        let last = lastIndex.last(skimmed: skimming)
        let read = try PhaseTimes.measure("index.json read") { () throws(SoundpackError) -> S3Store.ConditionalRead in
            // An object store's index.json that still has the ETag of the bytes last read is not sent again.
            if let s3 = backend as? S3Store { return try s3.read(StoreLayout.index, atMost: StoreLimits.indexBytes, unlessETag: last?.etag) }
            return try backend.read(StoreLayout.index, atMost: StoreLimits.indexBytes).map { .bytes($0, etag: nil) } ?? .missing
        }
        let data: Data, etag: String?
        switch read {
        case .missing: return nil
        case .unchanged:
            guard let last else { throw SoundpackError.environment("\(location) answered a read of \(StoreLayout.index) that named no ETag as unchanged") }
            return last.read
        case .bytes(let bytes, let tag): (data, etag) = (bytes, tag)
        }
        if let known = lastIndex.read(of: data, skimmed: skimming) {
            lastIndex.keep(data, known, etag: etag)
            return known
        }
        let decoded: IndexRead
        if skimming, let skim = PhaseTimes.measure("index.json skimmed", { StoreIndex.skim(data) }) {
            decoded = .skimmed(skim)
        } else {
            do {
                decoded = .whole(try PhaseTimes.measure("index.json decoded") { () throws(ManifestDecodingError) in try ManifestRefresher.decodeIndex(data) })
            } catch {
                throw SoundpackError.environment("\(location)/\(StoreLayout.index) is not a soundpack index: \(error.description) (soundpack verify checks the store)")
            }
        }
        lastIndex.keep(data, decoded, etag: etag)
        return decoded
    }

    /// Whether the store lists its objects with their sizes and ETags (an S3 store).
    package var listsObjects: Bool { backend is S3Store }

    /// What an object store's listing says of the objects in pack `id`'s folder, by their paths in
    /// it (`1.0.0/clips/5.caf`): listed once per run and kept, so it is only asked about objects
    /// of published versions, which are never overwritten. Nil for a folder store (its files cost
    /// no request) and when the listing fails (the files are then read, and any error is theirs).
    package func listedObjects(ofPack id: String) -> [[UInt8]: ListedObject]? {
        guard let s3 = backend as? S3Store else { return nil }
        if let kept = packListings.kept.withLock({ $0[id] }) { return kept }
        let listed = try? s3.listedObjects(under: id)
        packListings.kept.withLock { $0[id] = listed }
        return listed
    }

    /// Whether the store holds a manifest for `id@version` (a version stored whole).
    func hasVersion(_ id: String, _ version: SemanticVersion) throws(SoundpackError) -> Bool {
        try backend.read(StoreLayout.manifest(id, version)) != nil
    }

    /// Rewrites index.json from the catalog; call it under the store lock, after the catalog commit.
    /// The store is the source of truth: a version the index listed whose manifest is still in the
    /// store stays listed though the catalog lacks it, and a yank the index records stays, unless
    /// `unyanking` names that version (`yank --undo`).
    ///
    /// With `packs` (the packs a run published or yanked in), the entries of those packs are built
    /// again from the catalog, and so is the entry of every pack whose number of published or
    /// yanked versions differs between the catalog and the index: what other runners published
    /// meanwhile, or what a run that was stopped recorded and did not list. Every other entry is
    /// kept as it is (copied byte for byte where the index is laid out as publish writes it), so a
    /// store of thousands of versions is not rebuilt for one. Without `packs`, every entry is built again.
    package func writeIndex(from catalog: any Catalog, rewriting packs: Set<String>? = nil,
                            unyanking: (id: String, version: SemanticVersion)? = nil) throws(SoundpackError) {
        let previous = try readIndex(skimming: true)
        var stale: Set<String>?
        if let packs, let previous {
            let counts: [String: PublishedCount]
            do { counts = try PhaseTimes.measure("catalog: counts of published versions") { () throws(SoundpackError) in try catalog.publishedCounts() } } catch { throw error.inCatalog() }
            let listed = previous.counts
            var changed = packs.union(unyanking.map { [$0.id] } ?? [])
            for id in Set(counts.keys).union(listed.keys) where counts[id] != listed[id] { changed.insert(id) }
            stale = changed
        }
        // The entries built again (every pack's without `packs`), with what the store holds that
        // the catalog lacks; then every other entry as it was.
        var index: StoreIndex
        do { index = Self.index(of: try Self.publishedVersions(in: catalog, of: stale)) } catch { throw error.inCatalog() }
        try keepStoreTruth(of: previous.map { read in stale.map(read.index(of:)) ?? read.index }, in: &index, unyanking: unyanking)
        let pieces = try PhaseTimes.measure("index.json laid out") { () throws(SoundpackError) in
            try Self.indexBytes(index, keeping: stale == nil ? nil : previous, replacing: stale ?? [])
        }
        try PhaseTimes.measure("index.json written and synced") { () throws(SoundpackError) in
            // A folder writes the pieces one after another; anything else takes them joined.
            if let folder = backend as? DirectoryStore { try folder.write(StoreLayout.index, pieces: pieces) } else {
                try backend.write(StoreLayout.index, pieces.joinedBytes)
            }
        }
    }

    /// index.json's bytes, in pieces to write in order: the entries of `index` and every entry of
    /// `earlier` that `replacing` does not name, copied from its bytes where it was skimmed.
    private static func indexBytes(_ index: StoreIndex, keeping earlier: IndexRead?, replacing: Set<String>) throws(SoundpackError) -> [Data] {
        if case .skimmed(let skim)? = earlier, let pieces = index.plainJSONPieces(keeping: skim, replacing: replacing) { return pieces }
        var whole = earlier?.index ?? StoreIndex(packs: [:])
        for id in replacing { whole.packs[id] = nil }
        for (id, pack) in index.packs { whole.packs[id] = pack }
        return [try whole.encoded()]
    }

    /// The catalog's published versions of the packs `packs` names (every pack when nil): a query
    /// a pack for a few, one for all of them for many.
    private static func publishedVersions(in catalog: any Catalog, of packs: Set<String>?) throws(SoundpackError) -> [PublishedVersion] {
        guard let packs, packs.count <= 16 else {
            let all = try catalog.publishedVersions(of: nil, withClips: false)
            return packs.map { packs in all.filter { packs.contains($0.id) } } ?? all
        }
        var versions: [PublishedVersion] = []
        for id in packs.sorted() { versions += try catalog.publishedVersions(of: id, withClips: false) }
        return versions
    }

    /// What `previous` listed that `index` (built from the catalog) must keep: versions whose
    /// manifests are in the store, and yanks; then each pack's latest version again.
    private func keepStoreTruth(of previous: StoreIndex?, in index: inout StoreIndex,
                                unyanking: (id: String, version: SemanticVersion)?) throws(SoundpackError) {
        for (id, pack) in previous?.packs ?? [:] {
            for (text, listed) in pack.versions {
                if var current = index.packs[id]?.versions[text] {
                    let undone = unyanking.map { $0.id == id && $0.version.description == text } ?? false
                    if listed.yanked && !current.yanked && !undone {
                        current.yanked = true
                        current.yankReason = listed.yankReason
                        index.packs[id]?.versions[text] = current
                    }
                    continue
                }
                guard let version = SemanticVersion(text) else { continue }
                let kept: Bool
                kept = try hasVersion(id, version)
                if kept { index.packs[id, default: StoreIndex.Pack(latest: nil, versions: [:])].versions[text] = listed }
            }
        }
        for (id, pack) in index.packs {
            index.packs[id]?.latest = pack.versions.filter { !$0.value.yanked }.keys.compactMap(SemanticVersion.init).max()?.description
        }
    }
}

/// index.json as a store read it: skimmed (`IndexSkim`) where it is in the layout publish writes,
/// its entries built when asked for; decoded whole otherwise.
package enum IndexRead: Sendable {
    case skimmed(IndexSkim)
    case whole(StoreIndex)

    /// The entry of `id`; nil when the index does not list it.
    package func pack(_ id: String) -> StoreIndex.Pack? {
        switch self {
        case .skimmed(let skim): skim.pack(id)
        case .whole(let index): index.packs[id]
        }
    }

    /// The index with only the entries of `ids` (those it lists).
    package func index(of ids: Set<String>) -> StoreIndex {
        switch self {
        case .skimmed(let skim): skim.index(of: ids)
        case .whole(let index): StoreIndex(packs: index.packs.filter { ids.contains($0.key) })
        }
    }

    /// Every entry.
    package var index: StoreIndex {
        switch self {
        case .skimmed(let skim): skim.index
        case .whole(let index): index
        }
    }

    /// How many versions each pack's entry lists, and how many of them as yanked.
    var counts: [String: PublishedCount] {
        switch self {
        case .skimmed(let skim): skim.entries.mapValues { PublishedCount(versions: $0.versions, yanked: $0.yanked) }
        case .whole(let index):
            index.packs.mapValues { PublishedCount(versions: $0.versions.count, yanked: $0.versions.values.reduce(0) { $0 + ($1.yanked ? 1 : 0) }) }
        }
    }
}

/// The pack folders a store listed, by pack id (nil where the listing failed).
private final class PackListings: Sendable {
    let kept = Mutex<[String: [[UInt8]: ListedObject]?]>([:])
}

/// The last index a store read, with the bytes it was read from.
private final class LastIndexRead: @unchecked Sendable {
    private let lock = NSLock()
    private var last: (data: Data, read: IndexRead, etag: String?)?

    /// What was read from exactly these bytes, if they are the last ones: skimmed, only when
    /// `skimmed` allows it.
    func read(of data: Data, skimmed: Bool) -> IndexRead? {
        guard let last = last(skimmed: skimmed), last.data == data else { return nil }
        return last.read
    }

    /// The bytes last read and what was read from them: skimmed, only when `skimmed` allows it.
    func last(skimmed: Bool) -> (data: Data, read: IndexRead, etag: String?)? {
        lock.lock()
        defer { lock.unlock() }
        guard let last else { return nil }
        if case .skimmed = last.read, !skimmed { return nil }
        return last
    }

    /// Keeps the bytes read, what was read from them, and the ETag an object store gave them.
    func keep(_ data: Data, _ read: IndexRead, etag: String?) {
        lock.lock()
        last = (data, read, etag)
        lock.unlock()
    }
}

/// A store in a local folder. Single files are written to a temporary name, synced and renamed;
/// a version is written whole into a staging folder and renamed into place in one step. The lock
/// (`flock`) and the staging folder live beside the store, in `.<name>.soundpack/` next to it, so
/// the store tree holds only `index.json` and `ID/…`, what a CDN sync ships; where the store is on
/// a file system of its own, versions are staged in its `.staging/` (removed once empty).
package final class DirectoryStore: StoreBackend {
    package let root: String
    static let lockFile = ".soundpack.lock"
    /// Where versions are assembled before their rename, inside the store: older releases, and a
    /// store on its own file system.
    static let stagingFolder = ".staging"

    /// How messages name the store: the path as the user wrote it.
    package let shown: String

    package init(root: String, shown: String? = nil) {
        self.root = root
        self.shown = shown ?? root
    }

    package var location: String { shown }

    private func path(_ key: String) -> String { root + "/" + key }

    /// The store's real path and the folder it is in: every symbolic link resolved, and for a store
    /// not created yet, its deepest existing ancestor's (`Folders.realPath`). Two spellings of one
    /// store (a link and its target, `dist` and `dist/.`, `.` inside it) have one real path, so one
    /// sidecar and one lock, and the sidecar is never inside the store.
    private var realPlace: (parent: String, name: String) {
        let real = Folders.realPath(root)
        let parent = (real as NSString).deletingLastPathComponent
        return (parent == "/" ? "" : parent, (real as NSString).lastPathComponent)
    }

    /// `.<name>.soundpack` beside the store (beside its real path): its lock and staging folder.
    var sidecar: String {
        let (parent, name) = realPlace
        return parent + "/." + name + ".soundpack"
    }

    /// The sidecar as a key relative to the store root, for messages.
    private var sidecarKey: String { "../." + realPlace.name + ".soundpack" }

    /// A folder versions are staged in: `key` names it in messages; it is reached from the folder
    /// `base` (the store's real parent, or the store as named) through `names`, each a real folder
    /// this user made, never a symbolic link.
    struct StagingArea {
        var key: String
        var base: String
        var names: [String]
        var path: String { base + (base.hasSuffix("/") ? "" : "/") + names.joined(separator: "/") }

        /// The area's folder, open; created (mode 0700) when `create`. A link, or a folder another
        /// user made, where a part of it should be is an error: it is never followed.
        func open(create: Bool) throws(POSIXFailure) -> Int32 {
            try PrivateFolder.open(names, under: base, create: create)
        }
    }

    /// Where versions may be staged: the sidecar's `staging/`, and the store's own `.staging/`
    /// (older releases, and a store on a file system of its own).
    private var stagingAreas: (sidecar: StagingArea, inStore: StagingArea) {
        let (parent, name) = realPlace
        return (StagingArea(key: sidecarKey + "/staging", base: parent.isEmpty ? "/" : parent, names: [".\(name).soundpack", "staging"]),
                StagingArea(key: Self.stagingFolder, base: root, names: [Self.stagingFolder]))
    }

    /// Where this store stages versions: the sidecar when it is on the store's file system (a
    /// rename cannot cross file systems), else the store's own `.staging/`.
    private func stagingArea() -> StagingArea {
        let areas = stagingAreas
        var store = stat(), parent = stat()
        guard stat(root, &store) == 0, stat(areas.sidecar.base, &parent) == 0, store.st_dev == parent.st_dev else { return areas.inStore }
        return areas.sidecar
    }

    /// The first part of `key`'s path that is a symbolic link (`wechat` of
    /// `wechat/1.0.0/manifest.json`, or the whole key), looked at without following it, up to the
    /// first part that does not exist; nil when there is none. A store holds only the folders and
    /// files soundpack wrote: nothing in it is read or written through a link, which could lead
    /// anywhere on the machine.
    private func link(in key: String) -> String? {
        var prefix = ""
        for component in key.slashSeparated {
            prefix += (prefix.isEmpty ? "" : "/") + component
            switch FileKind.at(path(prefix)) {
            case nil: return nil
            case .other("a symbolic link")?: return prefix
            default: continue
            }
        }
        return nil
    }

    /// What stands at `key` when it is reached through a symbolic link: "a symbolic link", or
    /// "reached through the symbolic link wechat"; nil when it is not.
    private func linkKind(_ key: String) -> String? {
        guard let link = link(in: key) else { return nil }
        return link.utf8.count == key.utf8.count ? "a symbolic link" : "reached through the symbolic link \(link.quoted(limit: 120))"
    }

    /// The error of a write that would go through a symbolic link in the store.
    private func throughLink(_ key: String, _ link: String) -> SoundpackError {
        SoundpackError(.environment, "cannot write \(location)/\(key.quoted(limit: 120))",
                   why: "\(location)/\(link.quoted(limit: 120)) is a symbolic link, and a store holds only the folders and files soundpack wrote: nothing is written through a link",
                   hint: "remove the link; soundpack verify checks the store")
    }

    package func read(_ key: String, atMost cap: Int) throws(SoundpackError) -> Data? {
        try readable(key) { () throws(SoundpackError) in try CappedFile.readData(path(key), cap: cap, what: (key as NSString).lastPathComponent) }
    }

    /// `read(key)` by `body` when `key` is a file, checked as every reader checks it first (no
    /// symbolic link on its way, nothing but a regular file); nil when there is none.
    private func readable<T>(_ key: String, _ body: () throws(SoundpackError) -> T) throws(SoundpackError) -> T? {
        try StoreLayout.checkKey(key, in: location)
        if let kind = linkKind(key) { throw Self.notAFile(path(key), kind) }
        switch FileKind.of(path(key)) {
        case nil: if errno == ENOENT || errno == ENOTDIR { return nil }
        case .other(let kind)?: throw Self.notAFile(path(key), kind)
        case .regular?: break
        }
        do { return try body() } catch {
            throw error.cause(of: .environment, "cannot read \(path(key))", joint: .colon)
        }
    }

    /// Whether `key` holds exactly `known`'s bytes (read and compared a piece at a time; checked
    /// and refused as `read` checks and refuses it); false when there is no file.
    package func holds(_ key: String, exactly known: Data, atMost cap: Int) throws(SoundpackError) -> Bool {
        try readable(key) { () throws(SoundpackError) in
            try CappedFile.holds(path(key), exactly: known, cap: cap, what: (key as NSString).lastPathComponent)
        } ?? false
    }

    package func digest(_ key: String) throws(SoundpackError) -> StoredFile? {
        try StoreLayout.checkKey(key, in: location)
        // Looked at before it is opened: a link, a FIFO or a device planted in the store is never opened.
        if let kind = linkKind(key) { return .notAFile(kind) }
        if case .other(let kind)? = FileKind.of(path(key)) { return .notAFile(kind) }
        // O_NONBLOCK: one swapped in meanwhile must not hold verify waiting for a writer either.
        let fd = SystemCall.open(path(key), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw SoundpackError.environment("cannot read \(path(key)): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SoundpackError.environment("cannot read \(path(key)): \(String(cString: strerror(errno)))") }
        if case .other(let kind) = FileKind(mode: info.st_mode) { return .notAFile(kind) }
        let hash = Digest.Stream()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { SystemCall.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw SoundpackError.environment("cannot read \(path(key)): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            buffer.withUnsafeBytes { hash.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        return .file(StoredDigest(bytes: hash.count, sha256: hash.finish()))
    }

    /// A key that is no file, where a reader needs its bytes.
    static func notAFile(_ path: String, _ kind: String) -> SoundpackError {
        .environment("\(path) is \(kind), not a file", hint: "a store holds only the files soundpack wrote; soundpack verify checks the store")
    }

    package func write(_ key: String, _ data: Data) throws(SoundpackError) { try write(key, pieces: [data]) }

    /// `write(_:_:)` of the pieces' bytes one after another, without joining them first.
    package func write(_ key: String, pieces: [Data]) throws(SoundpackError) {
        try StoreLayout.checkKey(key, in: location)
        let target = path(key)
        if let link = link(in: key) { throw throughLink(key, link) }
        do {
            try Folders.create((target as NSString).deletingLastPathComponent)
            try AtomicFile.write(pieces: pieces, to: target)
        } catch {
            throw SoundpackError.environment("cannot write \(target): \(error.localizedDescription)")
        }
    }

    package func writeIfAbsent(_ key: String, _ data: Data) throws(SoundpackError) -> Bool {
        try StoreLayout.checkKey(key, in: location)
        if let link = link(in: key) { throw throughLink(key, link) }
        guard FileKind.at(path(key)) == nil else { return false }
        try write(key, data)
        return true
    }

    package func list() throws(SoundpackError) -> [String] {
        Folders.walk(root).filter { entry in
            entry.kind != .folder && entry.path != Self.lockFile && !entry.path.hasBytePrefix(Self.stagingFolder + "/") && !Self.isTemporary(entry.path)
        }.map(\.path).sorted()
    }

    package func lock(_ scope: LockScope) throws(SoundpackError) -> any StoreLock {
        do { try Folders.create(root) } catch { throw SoundpackError.environment("cannot create the store \(root): \(error.localizedDescription)") }
        let (parent, name) = realPlace
        return try FileLock(under: parent.isEmpty ? "/" : parent, folders: [".\(name).soundpack"], scope: scope, store: location)
    }

    /// `.index.json.PID.N.tmp`: what `AtomicFile` leaves when killed between write and rename.
    static func isTemporary(_ key: String) -> Bool {
        let name = (key as NSString).lastPathComponent
        return name.hasPrefix(".") && name.hasSuffix(".tmp")
    }

    package func writeVersion(_ folder: String, files: [(name: String, data: Data)]) throws(SoundpackError) {
        try StoreLayout.checkKey(folder, in: location)
        for file in files { try StoreLayout.checkKey(folder + "/" + file.name, in: location) }
        do { try Folders.create(root) } catch { throw SoundpackError.environment("cannot create the store \(root): \(error.message)") }
        if let link = link(in: folder) { throw throughLink(folder, link) }
        let area = stagingArea()
        let areaFD: Int32
        do { areaFD = try area.open(create: true) } catch {
            throw SoundpackError(.environment, "cannot stage \(folder) in \(location)", why: error.message,
                             hint: "versions are staged only in a folder soundpack made; remove what stands at \(area.path)")
        }
        defer {
            close(areaFD)
            if area.key == Self.stagingFolder { rmdir(area.path) }  // inside the store: gone once empty
        }
        // Named by the folder when it is short; a long version number (a name of up to 255 bytes
        // is valid) would make the staging name too long, so it is cut and a hash of it added.
        var label = folder.replacingOccurrences(of: "/", with: "@")
        if label.utf8.count > 100 { label = String(decoding: label.utf8.prefix(64), as: UTF8.self) + "~" + Digest.sha256Hex(Array(folder.utf8)).prefix(16) }
        let name = "\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let staging = area.path + "/" + name
        guard mkdirat(areaFD, name, 0o755) == 0 else { throw SoundpackError.environment("cannot stage \(folder) in \(area.path): \(String(cString: strerror(errno)))") }
        var committed = false
        defer { if !committed { Folders.remove(name, in: areaFD) } }
        // Write everything first, then make it durable, then one rename: the version appears whole.
        var written: [String] = []
        for file in files {
            let target = "\(staging)/\(file.name)"
            do {
                try Folders.create((target as NSString).deletingLastPathComponent)
                try FileBytes.write(file.data, to: target)
            } catch { throw SoundpackError.environment("cannot write \(target): \(error.message)") }
            written.append(target)
        }
        // Durable before the rename, as one batch (one syncfs on Linux), not an fsync per file.
        do { try FileBytes.syncAll(written, folders: Set(written.map { ($0 as NSString).deletingLastPathComponent })) } catch {
            throw SoundpackError.environment(error.message)
        }
        let final = path(folder)
        let parent = (final as NSString).deletingLastPathComponent
        do { try Folders.create(parent) } catch { throw SoundpackError.environment("cannot create \(parent): \(error.message)") }
        if renameat(areaFD, name, AT_FDCWD, final) != 0 {
            guard errno == EEXIST || errno == ENOTEMPTY else {
                throw SoundpackError.environment("cannot move \(folder) into place: \(String(cString: strerror(errno)))")
            }
            // A whole folder an interrupted publish renamed but never recorded: set it aside, then retry.
            let aside = "replaced-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            guard renameat(AT_FDCWD, final, areaFD, aside) == 0, renameat(areaFD, name, AT_FDCWD, final) == 0 else {
                throw SoundpackError.environment("cannot replace the unrecorded \(folder): \(String(cString: strerror(errno)))")
            }
            Folders.remove(aside, in: areaFD)
        }
        committed = true
        FileBytes.syncFolder(parent)
    }

    /// Staging folders and temporary files interrupted writers left: only in the staging areas
    /// that are real folders this user made (a link in place of one is never looked into, and the
    /// store listing reports it), and temporary files at the store root.
    package func leftovers() throws(SoundpackError) -> [String] {
        var found: [String] = []
        for area in [stagingAreas.sidecar, stagingAreas.inStore] {
            guard let fd = try? area.open(create: false) else { continue }
            found += Folders.names(in: fd).map { "\(area.key)/\($0)" }
            close(fd)
        }
        let rootFD = SystemCall.open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if rootFD >= 0 {
            found += Folders.names(in: rootFD).filter(Self.isTemporary)
            close(rootFD)
        }
        return found
    }

    /// Staging folders and temporary files killed writers left, and what older releases kept in
    /// the store tree (`.staging/`, `.soundpack.lock`). Publishers of other packs may be writing
    /// meanwhile: a leftover is removed only when the process its name carries is gone (every
    /// writer of a store is on this machine: its lock is a `flock`). It looks only where they can
    /// be, in real folders this user made, and removes without following a link (`Folders.remove`):
    /// nothing outside the store and its sidecar is ever removed.
    package func removeLeftovers() {
        for area in [stagingAreas.sidecar, stagingAreas.inStore] {
            guard let fd = try? area.open(create: false) else { continue }
            for name in Folders.names(in: fd) where Self.writerIsGone(name) { Folders.remove(name, in: fd) }
            close(fd)
        }
        let rootFD = SystemCall.open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootFD >= 0 else { return }
        defer { close(rootFD) }
        // Temporary files are files: unlinkat removes one (or a link in its place), never a folder.
        for name in Folders.names(in: rootFD) where Self.isTemporary(name) && Self.writerIsGone(name) { unlinkat(rootFD, name, 0) }
        unlinkat(rootFD, Self.stagingFolder, AT_REMOVEDIR)
        unlinkat(rootFD, Self.lockFile, 0)
    }

    /// Whether the process that named `key` is gone: staging folders end in `-PID-RANDOM`,
    /// temporary files in `.PID.RANDOM.tmp`. A name without a PID is an older release's: gone.
    static func writerIsGone(_ key: String) -> Bool {
        let name = (key as NSString).lastPathComponent
        let parts = isTemporary(name) ? name.dropLast(4).split(separator: ".") : name.split(separator: "-")
        guard parts.count >= 3, UInt32(parts[parts.count - 1]) != nil, let pid = Int32(parts[parts.count - 2]), pid > 0 else { return true }
        if pid == getpid() { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// An exclusive `flock` on a lock file in the last of `folders` (under `base`): `.soundpack.lock`
    /// for the index, and `locks/<hash of the pack id>.lock` for a pack. Every one of those folders
    /// is one this user made (created 0700, owned by this user, not a symbolic link: PrivateFolder)
    /// and the lock file is never opened through a link (O_NOFOLLOW): a link or a folder planted
    /// by someone else never makes a lock create, open or lock another file.
    final class FileLock: StoreLock {
        private var fd: Int32

        init(under base: String, folders: [String], scope: LockScope, store: String) throws(SoundpackError) {
            var folders = folders
            let file: String
            switch scope {
            case .index: file = DirectoryStore.lockFile
            case .pack:
                folders.append("locks")
                file = Digest.sha256Hex(Data(scope.name.utf8)).prefix(32) + ".lock"
            }
            do {
                let folder = try PrivateFolder.open(folders, under: base)
                defer { close(folder) }
                fd = try PrivateFolder.openLockFile(file, in: folder, shown: ([base] + folders + [file]).joined(separator: "/"))
            } catch {
                throw SoundpackError(.environment, "cannot lock the store \(store)", why: error.message,
                                 hint: "locks are taken only in folders this user made, never through a symbolic link; remove what stands there and soundpack makes its own")
            }
            while flock(fd, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let failure = SoundpackError.environment("cannot lock the store \(store): \(String(cString: strerror(errno)))")
                    close(fd)
                    throw failure
                }
            }
        }

        func release() {
            guard fd >= 0 else { return }
            flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }

        deinit { release() }
    }
}

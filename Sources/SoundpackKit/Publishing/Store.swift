// The store (DESIGN §7) and its one owner: the layout (`index.json`, `ID/VER/manifest.json`,
// `ID/VER/ID-VER.tar.gz`, `ID/VER/clips/…`), the lock publishers and yanks take, manifest lookup
// and index.json, which is always rebuilt from the catalog. No other file spells a store path.
//
// A backend stores bytes under keys (`wechat/1.0.0/manifest.json`). Its interface is what an
// object store can implement too: read, replace, put-if-absent, list, and an exclusive section.

import Foundation
import SoundpackCore

/// Why the store could not be read or written (exit 3).
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Where each file of a store lives, relative to the store root.
public enum StoreLayout {
    public static let index = "index.json"
    public static let manifestFile = "manifest.json"
    public static let packJSONFile = PackFolder.manifestFile

    /// `wechat/1.0.0`: the folder of one version.
    public static func versionFolder(_ id: String, _ version: SemanticVersion) -> String { "\(id)/\(version)" }

    /// `wechat/1.0.0/<file>` for a path relative to the version folder.
    public static func versionFile(_ id: String, _ version: SemanticVersion, _ file: String) -> String {
        "\(versionFolder(id, version))/\(file)"
    }

    public static func manifest(_ id: String, _ version: SemanticVersion) -> String { versionFile(id, version, manifestFile) }
    public static func signature(_ id: String, _ version: SemanticVersion) -> String { manifest(id, version) + ".sig" }
    /// The signature's name inside the version folder.
    public static let signatureFile = manifestFile + ".sig"

    /// `wechat-1.0.0.tar.gz`: an archive's name inside the version folder.
    public static func archiveFile(_ id: String, _ version: SemanticVersion, _ kind: ArchiveKind) -> String {
        "\(id)-\(version).\(kind.rawValue)"
    }

    /// Where a clip goes in the version folder: its pack path, under `clips/` (`shi.caf` →
    /// `clips/shi.caf`, `clips/shi.caf` stays).
    public static func clipFile(packPath: String) -> String { PackPaths.storePath(packPath) }
}

/// Bytes under keys: a folder on disk, or (later) an object store.
public protocol StoreBackend: AnyObject, Sendable {
    /// Where the store is, for messages.
    var location: String { get }
    /// The bytes at `key`, or nil when there is none.
    func read(_ key: String) throws(StoreError) -> Data?
    /// Writes `key` whole (a reader sees the old bytes or the new, never part), replacing it.
    func write(_ key: String, _ data: Data) throws(StoreError)
    /// Writes `key` only when it does not exist yet; false when it did.
    func writeIfAbsent(_ key: String, _ data: Data) throws(StoreError) -> Bool
    /// Every key in the store.
    func list() throws(StoreError) -> [String]
    /// Takes the store's exclusive lock, held until the returned lock is released.
    func lock() throws(StoreError) -> any StoreLock
    /// Removes what an interrupted writer may have left (temporary files), under the lock.
    func removeLeftovers()
}

/// An exclusive hold on a store; `release` (or deinit) lets the next writer in.
public protocol StoreLock: AnyObject {
    func release()
}

/// A store: a backend and the layout, with the lookups every command shares.
public struct Store: Sendable {
    public let backend: any StoreBackend

    public init(backend: any StoreBackend) { self.backend = backend }

    /// A store in a local folder (created on first write).
    public static func directory(_ path: String) -> Store { Store(backend: DirectoryStore(root: path)) }

    public var location: String { backend.location }

    public func lock() throws(StoreError) -> any StoreLock { try backend.lock() }

    /// The manifest of a published version, read and decoded.
    public func manifest(_ id: String, _ version: SemanticVersion) throws(StoreError) -> StoreManifest {
        let key = StoreLayout.manifest(id, version)
        guard let data = try backend.read(key) else {
            throw StoreError("\(location)/\(key) is missing (soundpack verify checks the store)")
        }
        if let duplicate = JSONDuplicateKeys.first(in: data) {
            throw StoreError("\(location)/\(key) is not a soundpack manifest: \(duplicate.description)")
        }
        do { return try JSONDecoder().decode(StoreManifest.self, from: data) } catch {
            throw StoreError("\(location)/\(key) is not a soundpack manifest (soundpack verify checks the store)")
        }
    }

    /// A published version of `id` and its manifest: `version` when given (yanked or not), else
    /// the newest that is not yanked. Nil when the catalog has no such version.
    public func published(_ id: String, _ version: SemanticVersion?, in catalog: any Catalog) throws(PublishError) -> (version: PublishedVersion, manifest: StoreManifest)? {
        let versions: [PublishedVersion]
        do { versions = try catalog.publishedVersions(of: id) } catch { throw .catalog(error.message) }
        let chosen = if let version { versions.first { $0.version == version } } else { versions.filter { !$0.yanked }.max { $0.version < $1.version } }
        guard let chosen else { return nil }
        do { return (chosen, try manifest(chosen.id, chosen.version)) } catch { throw .io(error.message) }
    }

    /// The index the catalog's published versions describe.
    public static func index(of versions: [PublishedVersion]) -> StoreIndex {
        var packs: [String: StoreIndex.Pack] = [:]
        for version in versions {
            var pack = packs[version.id] ?? StoreIndex.Pack(latest: nil, versions: [:])
            pack.versions[version.version.description] = StoreIndex.Version(
                digest: version.digest, manifest: StoreLayout.manifest(version.id, version.version),
                manifestSha256: version.manifestSha256 ?? "", publishedAt: version.publishedAt, yanked: version.yanked,
                yankReason: version.yankReason)
            packs[version.id] = pack
        }
        for version in versions where !version.yanked {
            if let latest = packs[version.id]?.latest.flatMap(SemanticVersion.init), latest >= version.version { continue }
            packs[version.id]?.latest = version.version.description
        }
        return StoreIndex(packs: packs)
    }

    /// Rewrites index.json from the catalog; call it under the store lock, after the catalog commit.
    public func writeIndex(from catalog: any Catalog) throws(PublishError) {
        let versions: [PublishedVersion]
        do { versions = try catalog.publishedVersions() } catch { throw .catalog(error.message) }
        let data: Data
        do { data = try Self.index(of: versions).encoded() } catch { throw .io(error.message) }
        do { try backend.write(StoreLayout.index, data) } catch { throw .io(error.message) }
    }
}

/// A store in a local folder. Files are written to a temporary name, synced and renamed; the lock
/// is `flock` on `.soundpack.lock` in the store root.
public final class DirectoryStore: StoreBackend {
    public let root: String
    static let lockFile = ".soundpack.lock"

    public init(root: String) { self.root = root }

    public var location: String { root }

    private func path(_ key: String) -> String { root + "/" + key }

    public func read(_ key: String) throws(StoreError) -> Data? {
        FileManager.default.contents(atPath: path(key))
    }

    public func write(_ key: String, _ data: Data) throws(StoreError) {
        let target = path(key)
        do {
            try Folders.create((target as NSString).deletingLastPathComponent)
            try AtomicFile.write(data, to: target)
        } catch {
            throw StoreError("cannot write \(target): \(error.localizedDescription)")
        }
    }

    public func writeIfAbsent(_ key: String, _ data: Data) throws(StoreError) -> Bool {
        guard !FileManager.default.fileExists(atPath: path(key)) else { return false }
        try write(key, data)
        return true
    }

    public func list() throws(StoreError) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var keys: [String] = []
        for case let relative as String in walker where relative != Self.lockFile {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path(relative), isDirectory: &isFolder), !isFolder.boolValue else { continue }
            keys.append(relative)
        }
        return keys.sorted()
    }

    public func lock() throws(StoreError) -> any StoreLock { try FileLock(store: root) }

    /// Temporary files (`.NAME.tmp`) a killed writer left. Only called under the lock, when no
    /// other soundpack process can be writing one.
    public func removeLeftovers() {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return }
        for case let relative as String in walker {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix("."), name.hasSuffix(".tmp") { try? FileManager.default.removeItem(atPath: path(relative)) }
        }
    }

    /// An exclusive `flock` on the store's `.soundpack.lock`.
    final class FileLock: StoreLock {
        private var fd: Int32

        init(store: String) throws(StoreError) {
            do { try Folders.create(store) } catch {
                throw StoreError("cannot create the store \(store): \(error.localizedDescription)")
            }
            fd = open(store + "/" + DirectoryStore.lockFile, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw StoreError("cannot open \(store)/\(DirectoryStore.lockFile): \(String(cString: strerror(errno)))") }
            while flock(fd, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    close(fd)
                    throw StoreError("cannot lock \(store): \(String(cString: strerror(errno)))")
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

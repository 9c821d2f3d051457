// The project a command works in: its catalog, its store, its root and its packs.

import Foundation
import SoundpackCatalog
import SoundpackCore
import SoundpackPack
import SoundpackStore
import SoundpackSupport

/// What a command works on: the catalog, the store, the project root and the working folder its
/// arguments are relative to. Commands open catalogs and stores, and resolve pack arguments, only
/// through it.
public struct Workspace: Sendable {
    /// Where the catalog is: a SQLite file, a PostgreSQL URL, or the empty catalog.
    public var catalog: CatalogLocation
    /// Whether someone named the catalog (only the default's folder is ever created).
    public var catalogNamed: Bool
    /// Where the store is: a folder or `s3://BUCKET/PREFIX`.
    public var store: StoreLocation
    /// Whether someone named the store (`--store`, `SOUNDPACK_STORE`).
    public var storeNamed: Bool
    /// The project root (see `projectRoot(from:)`), or the working folder when there is none.
    public var root: String
    /// The folder relative arguments are read from.
    public var workingDirectory: String
    /// The environment the catalog and store are opened with (credentials, endpoints).
    public var environment: [String: String]

    /// The folder a project's default catalog lives in, and the one that marks a project root.
    public static let catalogFolder = ".soundpack"
    /// The folder of a project's packs, which also marks a project root.
    public static let packsFolder = "packs"

    /// The default catalog is `.soundpack/catalog.sqlite` and the default store `dist/`, under the
    /// project root; a named one is relative to the working folder.
    public init(catalog: String?, store: String?, s3Endpoint: String? = nil, workingDirectory: String, environment: [String: String]) {
        let ceilings = (environment[Self.ceilingVariable] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        let root = Self.projectRoot(from: workingDirectory, ceilings: ceilings) ?? workingDirectory
        let underRoot = Self.relative(root, from: workingDirectory)
        func defaulted(_ name: String) -> String { underRoot.isEmpty ? name : underRoot + "/" + name }
        self.catalog = CatalogLocation(catalog ?? defaulted(Self.catalogFolder + "/catalog.sqlite"), workingDirectory: workingDirectory)
        catalogNamed = catalog != nil
        self.store = StoreLocation(store ?? defaulted("dist"), endpoint: s3Endpoint, workingDirectory: workingDirectory)
        storeNamed = store != nil
        self.root = root
        self.workingDirectory = workingDirectory
        self.environment = environment
    }

    /// Folders the project-root search never goes up into (colon-separated absolute paths), as
    /// git's `GIT_CEILING_DIRECTORIES`: a stray `packs/` or `.soundpack/` above them is not a root.
    public static let ceilingVariable = "SOUNDPACK_CEILING_DIRECTORIES"

    /// The project root, as git finds `.git`: the nearest folder, from `folder` upward, that holds
    /// `.soundpack/` or `packs/`, not going up into any of `ceilings`; nil when none does.
    public static func projectRoot(from folder: String, ceilings: [String] = []) -> String? {
        let ceilings = Set(ceilings.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        var current = URL(fileURLWithPath: folder).standardizedFileURL.path
        while true {
            for marker in [catalogFolder, packsFolder] {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: current + (current == "/" ? "" : "/") + marker, isDirectory: &isFolder), isFolder.boolValue {
                    return current
                }
            }
            let parent = (current as NSString).deletingLastPathComponent
            guard current != "/", !ceilings.contains(parent) else { return nil }
            current = parent
        }
    }

    /// How `folder`, the working folder or one above it, is written from `workingDirectory`: `""`
    /// for the same folder, `..`, `../..`; the absolute path for any other folder.
    static func relative(_ folder: String, from workingDirectory: String) -> String {
        let target = URL(fileURLWithPath: folder).standardizedFileURL.pathComponents
        let here = URL(fileURLWithPath: workingDirectory).standardizedFileURL.pathComponents
        guard target.count <= here.count, Array(here.prefix(target.count)) == target else { return folder }
        return Array(repeating: "..", count: here.count - target.count).joined(separator: "/")
    }

    /// The catalog, migrated (created where it does not exist; only the default's folder is made).
    /// A command that reads it calls `requireCatalog()` first: a read reports what is there, never
    /// zero from nothing. `emptyWhenMissing` reads an empty one where the file is missing (a dry
    /// run before the first publish).
    public func openCatalog(emptyWhenMissing: Bool = false) throws(SoundpackError) -> any Catalog {
        var location = catalog
        if !location.exists && emptyWhenMissing { location = .inMemory }
        return try location.open(createFolder: !catalogNamed)
    }

    /// Nothing when the catalog exists; else the error that says so and names it, about the input
    /// `catalog` (the caller says what writes one and how to name another).
    public func requireCatalog() throws(SoundpackError) {
        if case .postgreSQL(let url) = catalog {
            let holds: Bool
            do { holds = try PostgreSQLCatalog.holdsCatalog(url: url) } catch { throw error.context("cannot use the catalog \(catalog.description.visible)") }
            guard !holds else { return }
            throw SoundpackError.environment("there is no catalog in \(catalog.description.visible)", "the database holds no soundpack tables").about(input: "catalog database")
        }
        guard !catalog.exists else { return }
        throw SoundpackError.environment("there is no catalog at \(catalog.description.visible)", "the file does not exist").about(input: "catalog")
    }

    /// The store, opened with the environment's credentials and endpoint; throws when it cannot be.
    public func openStore() throws(SoundpackError) -> Store {
        try store.open(environment: environment)
    }

    /// Nothing when `opened` (this workspace's store) holds a published file or a leftover of a
    /// publish; else the error that says there is no store there (no folder, or nothing in it), about
    /// the input `store`, so a command that reads it never reports on a store of nothing.
    public func requireStore(_ opened: Store) throws(SoundpackError) {
        if case .directory(let path, _) = store {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                throw SoundpackError.environment("there is no store at \(store.description.visible)", "the folder does not exist").about(input: "store")
            }
        }
        // A readable index.json is enough (one read); else any file or leftover of a publish. An
        // index.json that cannot be read (a FIFO, too large) is not an answer either way, and the
        // listing decides: the command that reads the store reports the index itself.
        if (try? opened.backend.read(StoreLayout.index, atMost: StoreLimits.indexBytes)) != nil { return }
        let files = try opened.backend.list(), leftovers = try opened.backend.leftovers()
        guard !files.isEmpty || !leftovers.isEmpty else {
            throw SoundpackError.environment("there is no store at \(store.description.visible)", "it holds no index.json and no published file").about(input: "store")
        }
    }

    /// The packs of a project: each folder under the root's `packs/` that holds a pack.json, by
    /// name, as written from the working folder (`packs/NAME`, `../packs/NAME`). Hidden folders
    /// are never packs: a conversion or import stages its copy in one.
    public func discoverPacks() -> [String] {
        let packs = URL(fileURLWithPath: root).appendingPathComponent(Self.packsFolder).path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: packs)) ?? []
        let underRoot = Self.relative(root, from: workingDirectory)
        let shownPacks = underRoot.isEmpty ? Self.packsFolder : underRoot + "/" + Self.packsFolder
        return names.sorted().filter { !$0.hasPrefix(".") && FileManager.default.fileExists(atPath: "\(packs)/\($0)/\(PackFolder.packFile)") }
            .map { "\(shownPacks)/\($0)" }
    }

    /// `SOURCE_DATE_EPOCH` (the mtime of published tar entries), 0 when unset; nil when it is not
    /// a non-negative integer.
    public var sourceDateEpoch: Int64? {
        guard let text = environment["SOURCE_DATE_EPOCH"] else { return 0 }
        return Int64(text).flatMap { $0 >= 0 ? $0 : nil }
    }
}

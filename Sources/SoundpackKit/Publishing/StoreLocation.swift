// Where the store is: a folder, or an S3 bucket and prefix. The one way a command names a store.

import Foundation

public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// A folder: read at `path` (absolute), shown as written.
    case directory(path: String, shown: String)
    /// `s3://bucket/prefix`, at `endpoint` (nil: the environment's or AWS's).
    case s3(url: String, endpoint: String?)

    /// `named` as a user writes it: `s3://…`, or a folder relative to `workingDirectory`.
    public init(_ named: String, endpoint: String? = nil, workingDirectory: String) {
        if named.hasBytePrefix("s3://") {
            self = .s3(url: named, endpoint: endpoint)
        } else {
            let path = named.hasPrefix("/") ? named : URL(fileURLWithPath: workingDirectory).appendingPathComponent(named).path
            self = .directory(path: path, shown: named)
        }
    }

    public var description: String {
        switch self {
        case .directory(_, let shown): return shown
        case .s3(let url, _): return url
        }
    }

    /// The store, with S3 credentials and region from `environment` (`AWS_*`).
    public func open(environment: [String: String]) throws(SoundpackError) -> Store {
        switch self {
        case .directory(let path, let shown): return Store.directory(path, shown: shown)
        case .s3(let url, let endpoint):
            return Store(backend: try S3Store(S3Location(url: url, endpoint: endpoint, environment: environment)))
        }
    }
}

/// What a command works on: the catalog, the store and the working folder its arguments are
/// relative to. Commands open catalogs and stores, and resolve pack arguments, only through it.
public struct Workspace: Sendable {
    public var catalog: CatalogLocation
    /// Whether someone named the catalog (only the default's folder is ever created).
    public var catalogNamed: Bool
    public var store: StoreLocation
    public var workingDirectory: String
    public var environment: [String: String]

    /// The default catalog is `.soundpack/catalog.sqlite` and the default store `dist/`, under the
    /// working folder.
    public init(catalog: String?, store: String?, s3Endpoint: String? = nil, workingDirectory: String, environment: [String: String]) {
        self.catalog = CatalogLocation(catalog ?? ".soundpack/catalog.sqlite", workingDirectory: workingDirectory)
        catalogNamed = catalog != nil
        self.store = StoreLocation(store ?? "dist", endpoint: s3Endpoint, workingDirectory: workingDirectory)
        self.workingDirectory = workingDirectory
        self.environment = environment
    }

    /// The catalog. `readOnly` never creates one: where the default SQLite file does not exist an
    /// empty catalog is read and nothing is left behind, while a catalog someone named must exist.
    /// `emptyWhenMissing` reads an empty one where even a named file is missing (a dry run).
    public func openCatalog(readOnly: Bool = false, emptyWhenMissing: Bool = false) throws(SoundpackError) -> any Catalog {
        var location = catalog
        if !location.exists && (emptyWhenMissing || readOnly && !catalogNamed) { location = .inMemory }
        if readOnly && !location.exists && location != .inMemory {
            throw CatalogError("there is no catalog at \(location.description.visible): the file or its folder does not exist")
        }
        return try location.open(createFolder: !catalogNamed)
    }

    public func openStore() throws(SoundpackError) -> Store {
        try store.open(environment: environment)
    }

    /// The packs of a project: each folder under `packs/` that holds a pack.json, by name, as
    /// `packs/NAME`. Hidden folders are never packs: a conversion or import stages its copy in one.
    public func discoverPacks() -> [String] {
        let packs = URL(fileURLWithPath: workingDirectory).appendingPathComponent("packs").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: packs)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") && FileManager.default.fileExists(atPath: "\(packs)/\($0)/\(PackFolder.packFile)") }
            .map { "packs/\($0)" }
    }

    /// `SOURCE_DATE_EPOCH` (the mtime of published tar entries), 0 when unset; nil when it is not
    /// a non-negative integer.
    public var sourceDateEpoch: Int64? {
        guard let text = environment["SOURCE_DATE_EPOCH"] else { return 0 }
        return Int64(text).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// What a pack argument names: a folder with a pack.json, or ID[@VERSION].
    public func packSource(_ argument: String) throws(SoundpackError) -> PackSource {
        try PackSource.resolve(argument, workingDirectory: workingDirectory)
    }
}

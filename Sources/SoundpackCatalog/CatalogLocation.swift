// Where a catalog is, as one typed value: a SQLite file, a PostgreSQL URL, or an empty catalog in
// memory (a read that finds no catalog, a dry run before the first publish). The one way every
// command opens a catalog (SwiftPM's SQLite.Location is the model).

import Foundation
import SoundpackSupport

/// Where a catalog is: a SQLite file, a PostgreSQL URL, or an empty catalog in memory.
public enum CatalogLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgreSQL(url: String)
    case inMemory

    /// The location `text` names: a `postgresql://` or `postgres://` URL as given, else a file path
    /// made absolute against `workingDirectory`.
    public init(_ text: String, workingDirectory: String) {
        if PostgreSQLCatalog.isURL(text) {
            self = .postgreSQL(url: text)
        } else {
            // Standardised (`packs/wechat/../../.soundpack` → `.soundpack`) so messages name it plainly.
            let absolute = text.hasPrefix("/") ? text : URL(fileURLWithPath: workingDirectory).appendingPathComponent(text).path
            self = .sqlite(path: URL(fileURLWithPath: absolute).standardizedFileURL.path)
        }
    }

    /// Whether there is a catalog there already (a server is assumed to have one).
    public var exists: Bool {
        switch self {
        case .sqlite(let path): return FileManager.default.fileExists(atPath: path)
        case .postgreSQL: return true
        case .inMemory: return false
        }
    }

    /// For messages: the path, or the URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgreSQL(let url): return PostgreSQLConnection.redacted(url)
        case .inMemory: return "(an empty catalog in memory)"
        }
    }

    /// Opens the catalog, applying migrations. A SQLite file's folder is created only when
    /// `createFolder` says so (the default `.soundpack/`).
    public func open(createFolder: Bool = false) throws(SoundpackError) -> SQLCatalog {
        switch self {
        case .sqlite(let path): return try SQLiteCatalog(path: path, createFolder: createFolder)
        case .postgreSQL(let url): return try PostgreSQLCatalog(url: url)
        case .inMemory: return try SQLiteCatalog(path: ":memory:", createFolder: false)
        }
    }
}

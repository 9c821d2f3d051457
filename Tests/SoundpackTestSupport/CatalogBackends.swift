// The catalog backends the catalog tests run against: SQLite always, PostgreSQL when the test
// command started a server (scripts/servers/postgres.sh exports SOUNDPACK_TEST_POSTGRES). With
// SOUNDPACK_REQUIRE_SERVERS=1 (as scripts/test.sh sets it) a missing server fails the tests
// instead of leaving PostgreSQL untested.

import Foundation
@testable import SoundpackKit

public enum CatalogBackend: String, Sendable, CaseIterable, CustomStringConvertible {
    case sqlite, postgresql

    public var description: String { rawValue }

    /// The base URL of the test server, if one runs.
    public static var postgresURL: String? { ProcessInfo.processInfo.environment["SOUNDPACK_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 } }
    public static var serversRequired: Bool { ProcessInfo.processInfo.environment["SOUNDPACK_REQUIRE_SERVERS"] == "1" }

    /// SQLite, and PostgreSQL when a server runs or is required.
    public static var available: [CatalogBackend] { postgresURL != nil || serversRequired ? [.sqlite, .postgresql] : [.sqlite] }

    /// Where a new, empty catalog can be opened: a file in `folder`, or a new database on the server.
    public func freshLocation(in folder: TemporaryFolder) throws -> String {
        switch self {
        case .sqlite: return folder.file("catalog-\(UUID().uuidString.prefix(8)).sqlite")
        case .postgresql: return try Self.freshPostgresDatabase()
        }
    }

    public func open(_ location: String) throws -> SQLCatalog {
        switch self {
        case .sqlite: return try SQLiteCatalog(path: location)
        case .postgresql: return try PostgreSQLCatalog(url: location)
        }
    }

    /// Creates a database with a unique name on the test server; returns its URL.
    public static func freshPostgresDatabase() throws -> String {
        guard let base = postgresURL, var components = URLComponents(string: base) else {
            throw CatalogError("no PostgreSQL test server: run the tests through scripts/test.sh, or eval \"$(scripts/servers/postgres.sh start)\" first")
        }
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try PostgreSQLConnection(url: base).execute("CREATE DATABASE \(name)")
        components.path = "/\(name)"
        guard let url = components.string else { throw CatalogError("cannot build a URL for \(name)") }
        return url
    }
}

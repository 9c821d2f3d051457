// The catalog backends the catalog tests run against: SQLite always, PostgreSQL when the test
// command started a server (scripts/servers/postgres.sh exports SOUNDPACK_TEST_POSTGRES). With
// SOUNDPACK_REQUIRE_SERVERS=1 (as scripts/test.sh sets it) a missing server fails the tests
// instead of leaving PostgreSQL untested.

import Foundation
import SoundpackKit

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
            throw SoundpackError.environment("no PostgreSQL test server: run the tests through scripts/test.sh, or eval \"$(scripts/servers/postgres.sh start)\" first")
        }
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        // Through psql (installed with the server), so this target needs nothing internal of
        // SoundpackKit and builds in release too.
        let psql = Process()
        psql.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        psql.arguments = ["psql", base, "-qc", "CREATE DATABASE \(name)"]
        psql.standardOutput = FileHandle.nullDevice
        try psql.run()
        psql.waitUntilExit()
        guard psql.terminationStatus == 0 else { throw SoundpackError.environment("psql could not create the test database \(name)") }
        components.path = "/\(name)"
        guard let url = components.string else { throw SoundpackError.environment("cannot build a URL for \(name)") }
        return url
    }
}

/// The S3-compatible test server (scripts/servers/swift.sh exports its endpoint and the AWS_*
/// credentials), and a fresh bucket on it per test.
public enum S3TestServer {
    public static var endpoint: String? { ProcessInfo.processInfo.environment["SOUNDPACK_TEST_S3_ENDPOINT"].flatMap { $0.isEmpty ? nil : $0 } }
    public static var available: Bool { endpoint != nil || CatalogBackend.serversRequired }

    /// `s3://<new bucket>/<prefix>` on the test server, the bucket created.
    public static func freshStoreURL(prefix: String = "voice") throws -> String {
        guard let endpoint else { throw SoundpackError.environment("no S3 test server: run the tests through scripts/test.sh, or eval \"$(scripts/servers/swift.sh start)\" first") }
        let bucket = "t-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        let url = "s3://\(bucket)/\(prefix)"
        try S3Store(S3Location(url: url, endpoint: endpoint, environment: ProcessInfo.processInfo.environment)).createBucket()
        return url
    }

    package static func store(_ url: String) throws -> S3Store {
        try S3Store(S3Location(url: url, endpoint: endpoint, environment: ProcessInfo.processInfo.environment))
    }
}

// `soundpack catalog migrate`: copy every row of one catalog into another, empty one (SQLite to
// PostgreSQL, or back), in one transaction on the target, keeping row ids so published versions,
// clips, runs and findings stay linked. Both sides are at the current schema when copying starts.

import Foundation
import SoundpackCore
import SoundpackSupport

/// Copies every row of one catalog into another, empty one (`soundpack catalog migrate`).
public enum CatalogCopy {
    /// The tables in an order that satisfies the foreign keys, each with its columns (schema 5)
    /// and how its rows are ordered: `ROWS` stands for the order rows were written in (clips and
    /// findings are listed in that order). `manifest_md5s` is not copied: it only saves requests,
    /// and the first publish of each pack to an S3 store records its MD5s again.
    static let tables: [(name: String, columns: [String], order: String)] = [
        ("packs", ["id", "name", "grammar", "created_at"], "id"),
        ("versions", ["id", "pack_id", "version", "digest", "grammar", "max_amount", "published_at", "yanked", "yank_reason", "updated_at",
                      "two", "manifest_sha256", "tar_sha256", "zip_sha256", "key_id", "yanked_at", "reading_options", "source_engine", "source_voice", "phrases"], "id"),
        ("clips", ["version_id", "token", "file", "bytes", "sha256", "container", "codec", "bits", "sample_rate", "channels", "frames",
                   "duration", "peak_dbfs", "leading_silence_ms", "trailing_silence_ms", "true_peak_dbtp", "momentary_max_lufs",
                   "dc_offset_percent", "clipped_runs", "store_file"], "version_id, ROWS"),
        ("validation_runs", ["id", "pack_id", "version", "digest", "path", "ran_at", "errors", "warnings", "passed", "worst_amount",
                             "worst_seconds", "tool_version"], "id"),
        ("findings", ["run_id", "rule", "severity", "token", "file", "message"], "run_id, ROWS"),
    ]

    /// Rows copied per table.
    public struct Counts: Sendable, Equatable {
        /// Table name → rows copied.
        public var rows: [String: Int] = [:]
    }

    /// What `migrate` copied, and where from and to (the locations as the catalogs name them).
    public struct Migration: Sendable {
        /// The catalog copied from, as it names its location.
        public var from: String
        /// The catalog copied into, as it names its location.
        public var to: String
        /// How many rows each table gave.
        public var counts: Counts
    }

    /// Opens the catalog at `from` (which must exist) and the one at `to` (a new SQLite file is
    /// created), brings both to the current schema and copies; all or nothing.
    public static func migrate(from: CatalogLocation, to: CatalogLocation) throws(SoundpackError) -> Migration {
        func open(_ location: CatalogLocation, mustExist: Bool) throws(SoundpackError) -> SQLCatalog {
            do throws(SoundpackError) {
                guard !mustExist || location.exists else { throw SoundpackError.environment("there is no catalog at \(location.description.visible)") }
                return try location.open()
            } catch {
                throw error.context("cannot use the catalog")
            }
        }
        let source = try open(from, mustExist: true), target = try open(to, mustExist: false)
        do { return Migration(from: source.location, to: target.location, counts: try copy(from: source, to: target)) } catch {
            throw error.of(.refused).adding(hint: "nothing was written to \(target.location.visible)")
        }
    }

    /// Copies `source` into `target`, which must hold no packs; all or nothing.
    public static func copy(from source: SQLCatalog, to target: SQLCatalog) throws(SoundpackError) -> Counts {
        guard try target.db.query("SELECT COUNT(*) AS n FROM packs", []).first(as: CountRow.self, "a pack count")?.n == 0 else {
            throw SoundpackError.environment("the catalog at \(target.location) already holds packs; migrate copies into an empty catalog only")
        }
        var counts = Counts()
        do {
            try target.db.writeTransaction(locking: []) {
                for table in tables {
                    let rows = try source.db.query("SELECT \(table.columns.joined(separator: ", ")) FROM \(table.name) ORDER BY \(table.order.replacingOccurrences(of: "ROWS", with: source.db.rowOrder(of: table.name)))", [])
                    let insert = "INSERT INTO \(table.name) (\(table.columns.joined(separator: ", "))) VALUES (\(table.columns.map { _ in "?" }.joined(separator: ", ")))"
                    for row in rows { try target.db.query(insert, table.columns.map { row[$0] }) }
                    counts.rows[table.name] = rows.count
                }
                try target.db.afterExplicitIDs(tables: ["versions", "validation_runs"])
            }
        } catch let error as SoundpackError {
            throw error
        } catch {
            throw SoundpackError.environment("\(error)")
        }
        return counts
    }
}

extension SQLConnection {
    /// The order `table`'s rows were written in: SQLite's rowid; in PostgreSQL the clips' sequence
    /// column, else the physical order of an append-only table.
    func rowOrder(of table: String) -> String {
        insertionOrder == "rowid" ? "rowid" : (table == "clips" ? insertionOrder : "ctid")
    }

    /// After rows were inserted with their ids: PostgreSQL's identity sequences move past them
    /// (SQLite's rowids need nothing).
    func afterExplicitIDs(tables: [String]) throws(SoundpackError) {
        guard insertionOrder != "rowid" else { return }
        for table in tables {
            try query("SELECT setval(pg_get_serial_sequence('\(table)', 'id'), GREATEST((SELECT MAX(id) FROM \(table)), 1))", [])
        }
    }
}

extension GrammarOptions {
    /// The options other than `two` as the catalog's `reading_options` column holds them
    /// (`money=kuai-mao tenStart=yi-shi`); nil when they are the defaults.
    var catalogText: String? {
        let chosen = self.chosen.filter { $0.name != "two" }
        return chosen.isEmpty ? nil : chosen.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
    }

    /// The options of a catalog row (`two` NULL in rows written before it existed); nil when a
    /// value is not one this soundpack knows.
    init?(two: String?, catalogText: String?) {
        self.init()
        if let two, !set("two", two) { return nil }
        for pair in catalogText?.split(separator: " ") ?? [] {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[0] != "two", set(parts[0], parts[1]) else { return nil }
        }
    }
}

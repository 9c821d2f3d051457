// The catalog on PostgreSQL through libpq (the only file that imports CPostgreSQL): parameterised
// statements, results read by column type, writers of one pack serialized by a transaction-scoped
// advisory lock, the schema version in a table of its own. Messages never show a password.

import CPostgreSQL
import Foundation
import SoundpackCore
import SoundpackSupport

/// The PostgreSQL catalog: `--catalog postgresql://user@host/db` (any libpq connection URI).
package final class PostgreSQLCatalog: SQLCatalog {
    package init(url: String) throws(SoundpackError) {
        try super.init(connection: PostgreSQLConnection(url: url))
    }

    /// Whether the database at `url` holds a soundpack catalog (its schema table, migrated at least
    /// once), asked without creating anything: a read of a database that has none is "no catalog",
    /// as for a SQLite file that does not exist.
    package static func holdsCatalog(url: String) throws(SoundpackError) -> Bool {
        let connection = try PostgreSQLConnection(url: url)
        let tables = try connection.query("SELECT count(*) AS n FROM pg_catalog.pg_tables WHERE tablename = 'soundpack_schema' AND schemaname = current_schema()", [])
        guard try (tables.first(as: CountRow.self, "a table count")?.n ?? 0) > 0 else { return false }
        let schema = try connection.query("SELECT max(version) AS version FROM soundpack_schema", []).first(as: SchemaVersionRow.self, "a schema version")
        return (schema?.version ?? 0) > 0
    }

    /// Whether `text` names a PostgreSQL catalog rather than a SQLite file.
    static func isURL(_ text: String) -> Bool {
        text.hasBytePrefix("postgresql://") || text.hasBytePrefix("postgres://")
    }

    var postgres: PostgreSQLConnection { db as! PostgreSQLConnection }
}

final class PostgreSQLConnection: SQLConnection {
    private let connection: OpaquePointer
    let location: String
    let insertionOrder = "seq"

    #if os(macOS)
    /// What to install when libpq cannot be opened (CPostgreSQL/shim.h names where it is looked for).
    static let installHint = "install it with Homebrew: brew install libpq"
    #else
    static let installHint = "install Debian's libpq5 (or your system's PostgreSQL client library)"
    #endif

    init(url: String) throws(SoundpackError) {
        location = Self.redacted(url)
        if let error = soundpack_pq_load_error() {
            throw SoundpackError.environment("cannot use the catalog at \(location): libpq could not be loaded (\(String(cString: error))); \(Self.installHint)")
        }
        // A server that is restarting or failing over refuses connections for a few seconds: wait
        // for it (up to about 10 s) rather than fail a CI job; any other refusal is final.
        var attempt = 0
        var opened: OpaquePointer?
        while true {
            guard let connection = soundpack_PQconnectdb(url) else { throw SoundpackError.environment("cannot connect to \(location): out of memory") }
            if soundpack_PQstatus(connection) == CONNECTION_OK { opened = connection; break }
            let message = Self.message(soundpack_PQerrorMessage(connection))
            soundpack_PQfinish(connection)
            attempt += 1
            guard attempt < 6, Self.isTransient(message) else {
                throw SoundpackError(.environment, "cannot connect to the catalog at \(location): \(message)", hint: "check the server is running and the URL, user and database")
            }
            Thread.sleep(forTimeInterval: 0.5 * Double(attempt))
        }
        guard let connection = opened else { throw SoundpackError.environment("cannot connect to \(location)") }
        self.connection = connection
        // Notices (such as "relation already exists, skipping") are not for our users' terminals.
        soundpack_PQsetNoticeProcessor(connection, { _, _ in }, nil)
        try execute("SET client_min_messages = warning; SET TIME ZONE 'UTC'")
    }

    deinit { soundpack_PQfinish(connection) }

    /// Whether a connection failure is one a moment's wait can cure: the server starting up,
    /// shutting down or not (yet) listening.
    static func isTransient(_ message: String) -> Bool {
        ["starting up", "shutting down", "Connection refused", "No such file or directory", "in recovery mode", "too many clients"]
            .contains { message.contains($0) }
    }

    /// The URL with any password replaced by `***`, for messages.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return "a PostgreSQL URL that does not parse" }
        if components.password != nil { components.password = "***" }
        if let items = components.queryItems, items.contains(where: { $0.name == "password" }) {
            components.queryItems = items.map { $0.name == "password" ? URLQueryItem(name: "password", value: "***") : $0 }
        }
        return (components.string ?? "a PostgreSQL URL").visible
    }

    private static func message(_ text: UnsafePointer<CChar>?) -> String {
        // libpq's messages run over lines ("…failed: No such file\n\tIs the server running…"): one line.
        text.map { String(cString: $0).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ").visible }
            ?? "no message"
    }

    private func failure(_ result: OpaquePointer?, _ sql: String) -> SoundpackError {
        let message = result.map { Self.message(soundpack_PQresultErrorMessage($0)) } ?? Self.message(soundpack_PQerrorMessage(connection))
        let lost = soundpack_PQstatus(connection) != CONNECTION_OK ? " (the connection to the server was lost; nothing of this command was committed)" : ""
        return SoundpackError.environment("\(location): PostgreSQL error while running \(String(sql.prefix(60)).visible)…: \(message)\(lost)")
    }

    /// `?` placeholders become `$1`, `$2`… (outside quoted literals).
    static func numbered(_ sql: String) -> String {
        var out = "", n = 0, quoted = false
        for character in sql {
            if character == "'" { quoted.toggle() }
            if character == "?" && !quoted {
                n += 1
                out += "$\(n)"
            } else {
                out.append(character)
            }
        }
        return out
    }

    func query(_ sql: String, _ arguments: [SQLValue]) throws(SoundpackError) -> [SQLRow] {
        // Every parameter goes as text with its type named, so the server never has to guess one;
        // but NULL, which fits any column, goes untyped: named text, a number column refused it.
        var types: [Oid] = [], texts: [String?] = []
        for argument in arguments {
            switch argument {
            case .null: types.append(0); texts.append(nil)
            case .integer(let v): types.append(20); texts.append(String(v))
            case .real(let v):
                types.append(701)
                texts.append(v.isFinite ? String(v) : (v.isNaN ? "NaN" : (v > 0 ? "Infinity" : "-Infinity")))
            case .text(let v):
                // PostgreSQL's text cannot hold NUL, and a C string would end at it: refused, never cut.
                guard !v.utf8.contains(0) else {
                    throw SoundpackError.environment("a text holds a NUL character, which PostgreSQL cannot store; \(location) was not changed by it")
                }
                types.append(25); texts.append(v)
            }
        }
        let statement = Self.numbered(sql)
        let result = withCStrings(texts) { pointers in
            soundpack_PQexecParams(connection, statement, Int32(arguments.count), types, pointers, nil, nil, 0)
        }
        defer { soundpack_PQclear(result) }
        let status = soundpack_PQresultStatus(result)
        guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK else { throw failure(result, sql) }
        let columns = soundpack_PQnfields(result)
        var names: [String: Int] = [:]
        for column in 0..<columns { names[String(cString: soundpack_PQfname(result, column))] = Int(column) }
        return (0..<soundpack_PQntuples(result)).map { row in
            SQLRow(names: names, values: (0..<columns).map { column in
                if soundpack_PQgetisnull(result, row, column) == 1 { return .null }
                let text = String(cString: soundpack_PQgetvalue(result, row, column))
                switch soundpack_PQftype(result, column) {
                case 20, 21, 23: return Int64(text).map(SQLValue.integer) ?? .text(text)  // int8, int2, int4
                case 16: return .integer(text == "t" ? 1 : 0)  // bool
                case 700, 701: return Double(text).map(SQLValue.real) ?? .text(text)  // float4, float8
                default: return .text(text)
                }
            })
        }
    }

    func execute(_ script: String) throws(SoundpackError) {
        let result = soundpack_PQexec(connection, script)
        defer { soundpack_PQclear(result) }
        let status = soundpack_PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY else { throw failure(result, script) }
    }

    /// BEGIN, then a transaction-scoped advisory lock per pack (in a fixed order, so two writers
    /// never wait on each other in a circle): a second publisher of the same pack waits for the
    /// first to commit or roll back, on any machine. A dropped connection releases the locks and
    /// rolls the transaction back.
    func writeTransaction<T>(locking packs: [String], _ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            for pack in Set(packs).sorted() {
                _ = try query("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [.text("soundpack.pack:" + pack)])
            }
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    func schemaVersion() throws(SoundpackError) -> Int64 {
        // First writers of a new database meet here: the advisory lock lets one create the table.
        _ = try query("SELECT pg_advisory_xact_lock(hashtextextended('soundpack.schema', 0))", [])
        try execute("CREATE TABLE IF NOT EXISTS soundpack_schema (version BIGINT NOT NULL)")
        return try query("SELECT version FROM soundpack_schema", []).first(as: SchemaVersionRow.self, "a schema version")?.version ?? 0
    }

    func setSchemaVersion(_ version: Int64) throws(SoundpackError) {
        try execute("DELETE FROM soundpack_schema")
        _ = try query("INSERT INTO soundpack_schema (version) VALUES (?)", [.integer(version)])
    }

    func hasIndex(_ name: String) throws(SoundpackError) -> Bool {
        try !query("SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ?", [.text(name)]).isEmpty
    }

    func hasTable(_ name: String) throws(SoundpackError) -> Bool {
        try !query("SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?", [.text(name)]).isEmpty
    }

    /// A table another role made may be one this role cannot use: each privilege is asked for
    /// (`has_table_privilege` with several answers whether any one is held).
    func hasUsableTable(_ name: String) throws(SoundpackError) -> Bool {
        try !query("""
            SELECT 1 FROM pg_tables t WHERE t.schemaname = current_schema() AND t.tablename = ?
              AND has_table_privilege(format('%I.%I', t.schemaname, t.tablename), 'SELECT')
              AND has_table_privilege(format('%I.%I', t.schemaname, t.tablename), 'INSERT')
              AND has_table_privilege(format('%I.%I', t.schemaname, t.tablename), 'DELETE')
            """, [.text(name)]).isEmpty
    }

    /// A session-level advisory lock of `scope` of the store: one writer of it at a time on every
    /// machine, held across transactions until released, and freed by the server when the
    /// connection ends (a killed publisher never leaves it held). The index's key is the one the
    /// whole store was locked by before pack locks existed.
    func storeLock(_ scope: LockScope) throws(SoundpackError) -> (any StoreLock)? {
        _ = try query("SELECT pg_advisory_lock(hashtextextended(?, 0))", [.text(scope.name)])
        return AdvisoryLock(connection: self, key: scope.name)
    }

    final class AdvisoryLock: StoreLock {
        private var connection: PostgreSQLConnection?
        private let key: String
        init(connection: PostgreSQLConnection, key: String) { (self.connection, self.key) = (connection, key) }

        func release() {
            _ = try? connection?.query("SELECT pg_advisory_unlock(hashtextextended(?, 0))", [.text(key)])
            connection = nil
        }

        deinit { release() }
    }

    /// The same tables, columns and protections as SQLite's (SQLiteConnection.migrations), in
    /// PostgreSQL's words: identity columns, DOUBLE PRECISION, binary-ordered ids, PL/pgSQL triggers.
    let migrations: [String] = [
        """
        CREATE TABLE packs (
            id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
            name TEXT,
            grammar TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE TABLE versions (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            pack_id TEXT COLLATE "C" NOT NULL REFERENCES packs(id),
            version TEXT NOT NULL,
            digest TEXT NOT NULL,
            grammar TEXT NOT NULL,
            max_amount TEXT NOT NULL,
            published_at TEXT,
            yanked INTEGER NOT NULL DEFAULT 0,
            yank_reason TEXT,
            updated_at TEXT NOT NULL,
            UNIQUE (pack_id, version)
        );
        CREATE TABLE clips (
            seq BIGINT GENERATED BY DEFAULT AS IDENTITY,
            version_id BIGINT NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
            token TEXT NOT NULL,
            file TEXT NOT NULL,
            bytes BIGINT, sha256 TEXT, container TEXT, codec TEXT, bits INTEGER,
            sample_rate INTEGER, channels INTEGER, frames BIGINT, duration DOUBLE PRECISION,
            peak_dbfs DOUBLE PRECISION, leading_silence_ms DOUBLE PRECISION, trailing_silence_ms DOUBLE PRECISION,
            PRIMARY KEY (version_id, token)
        );
        CREATE TABLE validation_runs (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            pack_id TEXT COLLATE "C" NOT NULL REFERENCES packs(id),
            version TEXT NOT NULL,
            digest TEXT NOT NULL,
            path TEXT NOT NULL,
            ran_at TEXT NOT NULL,
            errors INTEGER NOT NULL,
            warnings INTEGER NOT NULL,
            passed INTEGER NOT NULL,
            worst_amount TEXT,
            worst_seconds DOUBLE PRECISION,
            tool_version TEXT NOT NULL
        );
        CREATE TABLE findings (
            run_id BIGINT NOT NULL REFERENCES validation_runs(id) ON DELETE CASCADE,
            rule TEXT NOT NULL, severity TEXT NOT NULL, token TEXT, file TEXT, message TEXT NOT NULL
        );
        CREATE INDEX validation_runs_by_pack ON validation_runs (pack_id, version, ran_at);
        CREATE INDEX findings_by_run ON findings (run_id);
        CREATE FUNCTION soundpack_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION '%', TG_ARGV[0]; END $$;
        CREATE FUNCTION soundpack_keep_published_clips() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF (SELECT published_at FROM versions WHERE id = OLD.version_id) IS NOT NULL THEN
                    RAISE EXCEPTION 'clips of published versions cannot change';
                END IF;
                IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
                RETURN NEW;
            END $$;
        CREATE TRIGGER published_versions_are_immutable
            BEFORE UPDATE OF pack_id, version, digest, grammar, max_amount, published_at ON versions
            FOR EACH ROW WHEN (OLD.published_at IS NOT NULL)
            EXECUTE FUNCTION soundpack_refuse('published versions are immutable');
        CREATE TRIGGER published_versions_are_kept
            BEFORE DELETE ON versions FOR EACH ROW WHEN (OLD.published_at IS NOT NULL)
            EXECUTE FUNCTION soundpack_refuse('published versions cannot be deleted');
        CREATE TRIGGER published_clips_are_kept
            BEFORE DELETE ON clips FOR EACH ROW EXECUTE FUNCTION soundpack_keep_published_clips();
        """,
        // 2: level and loudness figures per clip.
        """
        ALTER TABLE clips ADD COLUMN true_peak_dbtp DOUBLE PRECISION;
        ALTER TABLE clips ADD COLUMN momentary_max_lufs DOUBLE PRECISION;
        ALTER TABLE clips ADD COLUMN dc_offset_percent DOUBLE PRECISION;
        ALTER TABLE clips ADD COLUMN clipped_runs INTEGER;
        """,
        // 3: what publishing records about a version.
        """
        ALTER TABLE versions ADD COLUMN two TEXT;
        ALTER TABLE versions ADD COLUMN manifest_sha256 TEXT;
        ALTER TABLE versions ADD COLUMN tar_sha256 TEXT;
        ALTER TABLE versions ADD COLUMN zip_sha256 TEXT;
        ALTER TABLE versions ADD COLUMN key_id TEXT;
        ALTER TABLE versions ADD COLUMN yanked_at TEXT;
        ALTER TABLE clips ADD COLUMN store_file TEXT;
        CREATE TRIGGER published_records_are_immutable
            BEFORE UPDATE OF two, manifest_sha256, tar_sha256, zip_sha256, key_id ON versions
            FOR EACH ROW WHEN (OLD.published_at IS NOT NULL)
            EXECUTE FUNCTION soundpack_refuse('published versions are immutable');
        CREATE TRIGGER published_clips_are_immutable
            BEFORE UPDATE ON clips FOR EACH ROW EXECUTE FUNCTION soundpack_keep_published_clips();
        CREATE TRIGGER yanks_are_final
            BEFORE UPDATE OF yanked ON versions
            FOR EACH ROW WHEN (OLD.yanked = 1 AND NEW.yanked = 0)
            EXECUTE FUNCTION soundpack_refuse('a yanked version stays yanked');
        """,
        // 4: `yank --undo`; only published versions can carry the flag.
        """
        DROP TRIGGER yanks_are_final ON versions;
        CREATE TRIGGER yanks_need_a_published_version
            BEFORE UPDATE OF yanked ON versions
            FOR EACH ROW WHEN (OLD.published_at IS NULL AND NEW.yanked = 1)
            EXECUTE FUNCTION soundpack_refuse('only published versions can be yanked');
        """,
        // 5: the reading options beside `two` (`money=kuai-mao tenStart=yi-shi`; NULL for the defaults).
        """
        ALTER TABLE versions ADD COLUMN reading_options TEXT;
        CREATE TRIGGER published_reading_options_are_immutable
            BEFORE UPDATE OF reading_options ON versions
            FOR EACH ROW WHEN (OLD.published_at IS NOT NULL)
            EXECUTE FUNCTION soundpack_refuse('published versions are immutable');
        """,
        // 6: pack.json `source`, the engine and voice that spoke a synthesised pack (NULL for recorded ones).
        """
        ALTER TABLE versions ADD COLUMN source_engine TEXT;
        ALTER TABLE versions ADD COLUMN source_voice TEXT;
        CREATE TRIGGER published_sources_are_immutable
            BEFORE UPDATE OF source_engine, source_voice ON versions
            FOR EACH ROW WHEN (OLD.published_at IS NOT NULL)
            EXECUTE FUNCTION soundpack_refuse('published versions are immutable');
        """,
        // 7: the phrases and texts of a version (JSON: phrases, defaultPhrase, texts), for `show`
        // and the bump check; NULL for versions recorded before (a published row's NULL may be
        // filled once from the store's manifest; phrases once written never change).
        """
        ALTER TABLE versions ADD COLUMN phrases TEXT;
        CREATE TRIGGER published_phrases_are_immutable
            BEFORE UPDATE OF phrases ON versions
            FOR EACH ROW WHEN (OLD.published_at IS NOT NULL AND OLD.phrases IS NOT NULL)
            EXECUTE FUNCTION soundpack_refuse('published versions are immutable');
        """,
    ]
}

/// Calls `body` with C strings for `strings` (nil stays a null pointer), valid during the call.
private func withCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { $0.map { strdup($0) } ?? nil }
    defer { copies.forEach { free($0) } }
    return body(copies.map { $0.map { UnsafePointer($0) } })
}

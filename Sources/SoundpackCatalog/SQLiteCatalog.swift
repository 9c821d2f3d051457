// The catalog on one SQLite file (DESIGN §7): journal mode DELETE with synchronous=FULL, foreign
// keys on, writers BEGIN IMMEDIATE (one writer at a time, so writers of one pack are serialized),
// the schema version in PRAGMA user_version, published rows protected by triggers.

import Foundation
import SoundpackCore
import SoundpackSupport

extension SoundpackError {
    init(_ error: SQLiteError, hint: String = "check the path and permissions") {
        self.init(.environment, error.description, hint: hint)
    }
}

/// The SQLite catalog.
package final class SQLiteCatalog: SQLCatalog {
    /// Opens or creates the catalog at `path`, applying migrations. Its folder is created only
    /// when `createFolder` says so (the default `.soundpack/`): a typo in a folder someone named
    /// is an error, not a new folder.
    package init(path: String, createFolder: Bool = true) throws(SoundpackError) {
        // SQLite writes `PATH-journal` beside the file: a device, FIFO or folder named as the
        // catalog (`/dev/null`) would put a journal file where nobody asked.
        var info = stat()
        if path != ":memory:", stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw SoundpackError.environment("\(path.visible) is not a regular file (a device, FIFO or folder); a catalog is a SQLite file")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if createFolder {
            do {
                try Folders.create(folder)
            } catch {
                throw SoundpackError.environment("cannot create the catalog folder \(folder): \(error.localizedDescription)")
            }
        } else {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw SoundpackError(.environment, "the folder \(folder) of the catalog does not exist", hint: "create it, or check the path")
            }
        }
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: path)
            try database.execute("PRAGMA foreign_keys = ON")
            try database.query("PRAGMA journal_mode = DELETE")
            try database.execute("PRAGMA synchronous = FULL")
        } catch where error.code & 0xFF == 26 /* SQLITE_NOTADB */ {
            throw SoundpackError(.environment, "\(path) is not a soundpack catalog: SQLite says \(error.message)", hint: "name the catalog's file, or move this file away")
        } catch { throw SoundpackError(error) }
        try super.init(connection: SQLiteConnection(database))
    }

    /// The SQLite connection, for tests that look under the catalog.
    var sqlite: SQLiteDatabase { (db as! SQLiteConnection).database }
}

/// The catalog's view of one SQLite database.
final class SQLiteConnection: SQLConnection {
    let database: SQLiteDatabase
    init(_ database: SQLiteDatabase) { self.database = database }

    var location: String { database.path }
    let insertionOrder = "rowid"

    func query(_ sql: String, _ arguments: [SQLValue]) throws(SoundpackError) -> [SQLRow] {
        do { return try database.query(sql, arguments) } catch { throw SoundpackError(error) }
    }

    func execute(_ script: String) throws(SoundpackError) {
        do { try database.execute(script) } catch { throw SoundpackError(error) }
    }

    /// BEGIN IMMEDIATE takes SQLite's one write lock: every writer waits, so writers of one pack do.
    func writeTransaction<T>(locking packs: [String], _ body: () throws -> T) throws -> T {
        do { return try database.writeTransaction(body) } catch let error as SQLiteError { throw SoundpackError(error) }
    }

    func schemaVersion() throws(SoundpackError) -> Int64 {
        try query("SELECT user_version AS version FROM pragma_user_version", []).first(as: SchemaVersionRow.self, "a schema version")?.version ?? 0
    }

    func setSchemaVersion(_ version: Int64) throws(SoundpackError) { try execute("PRAGMA user_version = \(version)") }

    func hasIndex(_ name: String) throws(SoundpackError) -> Bool {
        try !query("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", [.text(name)]).isEmpty
    }

    func hasTable(_ name: String) throws(SoundpackError) -> Bool {
        try !query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]).isEmpty
    }

    /// A file's tables are all usable by whoever may open it.
    func hasUsableTable(_ name: String) throws(SoundpackError) -> Bool { try hasTable(name) }

    /// One machine: the store's own lock serves.
    func storeLock(_ scope: LockScope) throws(SoundpackError) -> (any StoreLock)? { nil }

    var migrations: [String] { Self.migrations }

    static let migrations: [String] = [
        """
        CREATE TABLE packs (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT,
            grammar TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE TABLE versions (
            id INTEGER PRIMARY KEY,
            pack_id TEXT NOT NULL REFERENCES packs(id),
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
            version_id INTEGER NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
            token TEXT NOT NULL,
            file TEXT NOT NULL,
            bytes INTEGER, sha256 TEXT, container TEXT, codec TEXT, bits INTEGER,
            sample_rate INTEGER, channels INTEGER, frames INTEGER, duration REAL,
            peak_dbfs REAL, leading_silence_ms REAL, trailing_silence_ms REAL,
            PRIMARY KEY (version_id, token)
        );
        CREATE TABLE validation_runs (
            id INTEGER PRIMARY KEY,
            pack_id TEXT NOT NULL REFERENCES packs(id),
            version TEXT NOT NULL,
            digest TEXT NOT NULL,
            path TEXT NOT NULL,
            ran_at TEXT NOT NULL,
            errors INTEGER NOT NULL,
            warnings INTEGER NOT NULL,
            passed INTEGER NOT NULL,
            worst_amount TEXT,
            worst_seconds REAL,
            tool_version TEXT NOT NULL
        );
        CREATE TABLE findings (
            run_id INTEGER NOT NULL REFERENCES validation_runs(id) ON DELETE CASCADE,
            rule TEXT NOT NULL, severity TEXT NOT NULL, token TEXT, file TEXT, message TEXT NOT NULL
        );
        CREATE INDEX validation_runs_by_pack ON validation_runs (pack_id, version, ran_at);
        CREATE INDEX findings_by_run ON findings (run_id);
        CREATE TRIGGER published_versions_are_immutable
            BEFORE UPDATE OF pack_id, version, digest, grammar, max_amount, published_at ON versions
            WHEN OLD.published_at IS NOT NULL
            BEGIN SELECT RAISE(ABORT, 'published versions are immutable'); END;
        CREATE TRIGGER published_versions_are_kept
            BEFORE DELETE ON versions WHEN OLD.published_at IS NOT NULL
            BEGIN SELECT RAISE(ABORT, 'published versions cannot be deleted'); END;
        CREATE TRIGGER published_clips_are_kept
            BEFORE DELETE ON clips
            WHEN (SELECT published_at FROM versions WHERE id = OLD.version_id) IS NOT NULL
            BEGIN SELECT RAISE(ABORT, 'clips of published versions cannot change'); END;
        """,
        // 2: level and loudness figures per clip.
        """
        ALTER TABLE clips ADD COLUMN true_peak_dbtp REAL;
        ALTER TABLE clips ADD COLUMN momentary_max_lufs REAL;
        ALTER TABLE clips ADD COLUMN dc_offset_percent REAL;
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
            WHEN OLD.published_at IS NOT NULL
            BEGIN SELECT RAISE(ABORT, 'published versions are immutable'); END;
        CREATE TRIGGER published_clips_are_immutable
            BEFORE UPDATE ON clips
            WHEN (SELECT published_at FROM versions WHERE id = OLD.version_id) IS NOT NULL
            BEGIN SELECT RAISE(ABORT, 'clips of published versions cannot change'); END;
        CREATE TRIGGER yanks_are_final
            BEFORE UPDATE OF yanked ON versions
            WHEN OLD.yanked = 1 AND NEW.yanked = 0
            BEGIN SELECT RAISE(ABORT, 'a yanked version stays yanked'); END;
        """,
        // 4: `yank --undo` (a yank made by mistake can be taken back; it stays a flag, the version
        // itself is untouched); only published versions can carry the flag.
        """
        DROP TRIGGER yanks_are_final;
        CREATE TRIGGER yanks_need_a_published_version
            BEFORE UPDATE OF yanked ON versions
            WHEN OLD.published_at IS NULL AND NEW.yanked = 1
            BEGIN SELECT RAISE(ABORT, 'only published versions can be yanked'); END;
        """,
        // 5: the reading options beside `two` (`money=kuai-mao tenStart=yi-shi`; NULL for the defaults).
        """
        ALTER TABLE versions ADD COLUMN reading_options TEXT;
        CREATE TRIGGER published_reading_options_are_immutable
            BEFORE UPDATE OF reading_options ON versions
            WHEN OLD.published_at IS NOT NULL
            BEGIN SELECT RAISE(ABORT, 'published versions are immutable'); END;
        """,
        // 6: pack.json `source`, the engine and voice that spoke a synthesised pack (NULL for recorded ones).
        """
        ALTER TABLE versions ADD COLUMN source_engine TEXT;
        ALTER TABLE versions ADD COLUMN source_voice TEXT;
        CREATE TRIGGER published_sources_are_immutable
            BEFORE UPDATE OF source_engine, source_voice ON versions
            WHEN OLD.published_at IS NOT NULL
            BEGIN SELECT RAISE(ABORT, 'published versions are immutable'); END;
        """,
        // 7: the phrases and texts of a version (JSON: phrases, defaultPhrase, texts), for `show`
        // and the bump check; NULL for versions recorded before (a published row's NULL may be
        // filled once from the store's manifest; phrases once written never change).
        """
        ALTER TABLE versions ADD COLUMN phrases TEXT;
        CREATE TRIGGER published_phrases_are_immutable
            BEFORE UPDATE OF phrases ON versions
            WHEN OLD.published_at IS NOT NULL AND OLD.phrases IS NOT NULL
            BEGIN SELECT RAISE(ABORT, 'published versions are immutable'); END;
        """,
    ]
}

// The catalog on one SQLite file (DESIGN §7): journal mode DELETE with synchronous=FULL,
// foreign keys on, writers BEGIN IMMEDIATE, migrations by PRAGMA user_version in one transaction,
// published rows protected by triggers. Rows are read by column name.

import Foundation
import SoundpackCore

extension CatalogError {
    init(_ error: SQLiteError, hint: String = "check the path and permissions, or pass --catalog FILE") {
        self.init("\(error.description) (\(hint))")
    }
}

/// The SQLite catalog. One connection per instance; open one per process or thread.
public final class SQLiteCatalog: Catalog {
    /// The schema this binary writes; a catalog with a higher `user_version` is refused.
    public static let schemaVersion: Int64 = 4
    let db: SQLiteDatabase

    public var location: String { db.path }

    /// Opens or creates the catalog at `path`, applying migrations. Its folder is created only
    /// when `createFolder` says so (the default `.soundpack/`): a typo in a folder someone named
    /// is an error, not a new folder.
    public init(path: String, createFolder: Bool = true) throws(CatalogError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if createFolder {
            do {
                try Folders.create(folder)
            } catch {
                throw CatalogError("cannot create the catalog folder \(folder): \(error.localizedDescription) (pass --catalog FILE or set SOUNDPACK_CATALOG)")
            }
        } else {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw CatalogError("the folder \(folder) of the catalog does not exist (create it, or check the --catalog path)")
            }
        }
        do {
            db = try SQLiteDatabase(path: path)
            try db.execute("PRAGMA foreign_keys = ON")
            try db.query("PRAGMA journal_mode = DELETE")
            try db.execute("PRAGMA synchronous = FULL")
        } catch where error.code & 0xFF == 26 /* SQLITE_NOTADB */ {
            throw CatalogError("\(path) is not a soundpack catalog: SQLite says \(error.message) (pass --catalog FILE for the catalog, or move this file away)")
        } catch { throw CatalogError(error) }
        try migrate()
    }

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
    ]

    private func migrate() throws(CatalogError) {
        try write {
            let current = try db.query("SELECT user_version AS version FROM pragma_user_version").first?["version"].int ?? 0
            if current > Self.schemaVersion {
                throw CatalogError("the catalog at \(db.path) has schema version \(current), newer than this soundpack understands (\(Self.schemaVersion)); upgrade soundpack")
            }
            for version in current..<Self.schemaVersion {
                try db.execute(Self.migrations[Int(version)])
                try db.execute("PRAGMA user_version = \(version + 1)")
            }
        }
    }

    /// Runs `body` in one IMMEDIATE transaction; rolls back on any error.
    private func write<T>(_ body: () throws -> T) throws(CatalogError) -> T {
        do { return try db.writeTransaction(body) } catch let error as CatalogError {
            throw error
        } catch let error as SQLiteError {
            throw CatalogError(error)
        } catch {
            throw CatalogError("\(error)")
        }
    }

    private func read(_ sql: String, _ arguments: [SQLValue] = []) throws(CatalogError) -> [SQLRow] {
        do { return try db.query(sql, arguments) } catch { throw CatalogError(error) }
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    private func corrupt(_ what: String) -> CatalogError {
        CatalogError("the catalog at \(db.path) holds \(what); it was not written by soundpack (restore it from a backup)")
    }

    // MARK: writes

    public func recordValidations(_ runs: [ValidationRecord]) throws(CatalogError) {
        guard !runs.isEmpty else { return }
        try write {
            for run in runs { try record(run) }
        }
    }

    private func upsertPack(_ pack: VersionIdentity, at now: String) throws {
        try db.query("""
            INSERT INTO packs (id, name, grammar, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, grammar = excluded.grammar
            """, [.text(pack.packID), pack.packName.map(SQLValue.text) ?? .null, .text(pack.grammar.id.rawValue), .text(now)])
    }

    private func insertVersion(_ pack: VersionIdentity, at now: String) throws -> Int64 {
        try db.query("INSERT INTO versions (pack_id, version, digest, grammar, two, max_amount, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                     [.text(pack.packID), .text(pack.version.description), .text(pack.digest), .text(pack.grammar.id.rawValue),
                      .text(pack.grammar.two.rawValue), .text(pack.maxAmount.description), .text(now)])
        return db.lastInsertedRowID
    }

    private func insert(_ clip: ClipRecord, versionID: Int64) throws {
        func int(_ v: Int?) -> SQLValue { v.map { .integer(Int64($0)) } ?? .null }
        func real(_ v: Double?) -> SQLValue { v.map(SQLValue.real) ?? .null }
        func text(_ v: String?) -> SQLValue { v.map(SQLValue.text) ?? .null }
        try db.query("""
            INSERT INTO clips (version_id, token, file, store_file, bytes, sha256, container, codec, bits, sample_rate, channels,
                               frames, duration, peak_dbfs, leading_silence_ms, trailing_silence_ms,
                               true_peak_dbtp, momentary_max_lufs, dc_offset_percent, clipped_runs)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.integer(versionID), .text(clip.key), .text(clip.file), text(clip.storeFile), int(clip.bytes), text(clip.sha256),
             text(clip.container?.rawValue), text(clip.codec?.rawValue), int(clip.bitsPerSample), int(clip.sampleRate),
             int(clip.channels), clip.frames.map(SQLValue.integer) ?? .null, real(clip.durationSeconds), real(clip.peakDbfs),
             real(clip.leadingSilenceMs), real(clip.trailingSilenceMs), real(clip.truePeakDbtp), real(clip.momentaryMaxLufs),
             real(clip.dcOffsetPercent), int(clip.clippedRuns)])
    }

    private func record(_ run: ValidationRecord) throws {
        let now = Self.timestamp(run.ranAt)
        let pack = run.pack
        try upsertPack(pack, at: now)
        let existing = try db.query("SELECT id, published_at FROM versions WHERE pack_id = ? AND version = ?",
                                    [.text(pack.packID), .text(pack.version.description)]).first
        if existing?["published_at"] ?? .null == .null {
            let versionID: Int64
            if let rowID = existing?["id"].int {
                versionID = rowID
                try db.query("UPDATE versions SET digest = ?, grammar = ?, two = ?, max_amount = ?, updated_at = ? WHERE id = ?",
                             [.text(pack.digest), .text(pack.grammar.id.rawValue), .text(pack.grammar.two.rawValue),
                              .text(pack.maxAmount.description), .text(now), .integer(rowID)])
                try db.query("DELETE FROM clips WHERE version_id = ?", [.integer(rowID)])
            } else {
                versionID = try insertVersion(pack, at: now)
            }
            for clip in run.clips { try insert(clip, versionID: versionID) }
        }
        try db.query("""
            INSERT INTO validation_runs (pack_id, version, digest, path, ran_at, errors, warnings, passed, worst_amount, worst_seconds, tool_version)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(pack.packID), .text(pack.version.description), .text(pack.digest), .text(run.path), .text(now),
             .integer(Int64(run.errors)), .integer(Int64(run.warnings)), .integer(run.passed ? 1 : 0),
             run.worstAmount.map(SQLValue.text) ?? .null, run.worstSeconds.map(SQLValue.real) ?? .null, .text(run.toolVersion)])
        let runID = db.lastInsertedRowID
        for finding in run.findings {
            try db.query("INSERT INTO findings (run_id, rule, severity, token, file, message) VALUES (?, ?, ?, ?, ?, ?)",
                         [.integer(runID), .text(finding.rule), .text(finding.severity),
                          finding.token.map(SQLValue.text) ?? .null, finding.file.map(SQLValue.text) ?? .null, .text(finding.message)])
        }
    }

    public func recordPublication(_ publication: PublicationRecord) throws(CatalogError) -> Bool {
        let now = Self.timestamp(publication.publishedAt)
        let pack = publication.pack
        return try write { () throws -> Bool in
            let existing = try db.query("SELECT id, published_at FROM versions WHERE pack_id = ? AND version = ?",
                                        [.text(pack.packID), .text(pack.version.description)]).first
            if let existing, existing["published_at"] != .null { return false }
            try upsertPack(pack, at: now)
            let versionID: Int64
            if let rowID = existing?["id"].int {
                versionID = rowID
                try db.query("DELETE FROM clips WHERE version_id = ?", [.integer(rowID)])
            } else {
                versionID = try insertVersion(pack, at: now)
            }
            for clip in publication.clips { try insert(clip, versionID: versionID) }
            try db.query("""
                UPDATE versions SET digest = ?, grammar = ?, max_amount = ?, two = ?, manifest_sha256 = ?, tar_sha256 = ?, zip_sha256 = ?,
                                    key_id = ?, updated_at = ?, published_at = ?
                WHERE id = ?
                """,
                [.text(pack.digest), .text(pack.grammar.id.rawValue), .text(pack.maxAmount.description), .text(pack.grammar.two.rawValue),
                 .text(publication.manifestSha256), publication.tarSha256.map(SQLValue.text) ?? .null,
                 publication.zipSha256.map(SQLValue.text) ?? .null, publication.keyID.map(SQLValue.text) ?? .null,
                 .text(now), .text(now), .integer(versionID)])
            return true
        }
    }

    public func unyank(_ id: String, _ version: SemanticVersion) throws(CatalogError) -> YankOutcome {
        try write { () throws -> YankOutcome in
            guard let row = try db.query("SELECT id, yanked FROM versions WHERE pack_id = ? AND version = ? AND published_at IS NOT NULL",
                                         [.text(id), .text(version.description)]).first else { return .notPublished }
            guard row["yanked"].int == 1 else { return .notYanked }
            try db.query("UPDATE versions SET yanked = 0, yank_reason = NULL, yanked_at = NULL WHERE id = ?", [row["id"]])
            return .unyanked
        }
    }

    public func yank(_ id: String, _ version: SemanticVersion, reason: String, at date: Date) throws(CatalogError) -> YankOutcome {
        try write { () throws -> YankOutcome in
            guard let row = try db.query("SELECT id, yanked, yank_reason FROM versions WHERE pack_id = ? AND version = ? AND published_at IS NOT NULL",
                                         [.text(id), .text(version.description)]).first else { return .notPublished }
            if row["yanked"].int == 1 { return .alreadyYanked(reason: row["yank_reason"].string) }
            try db.query("UPDATE versions SET yanked = 1, yank_reason = ?, yanked_at = ? WHERE id = ?",
                         [.text(reason), .text(Self.timestamp(date)), row["id"]])
            return .yanked
        }
    }

    // MARK: reads

    public func packs() throws(CatalogError) -> [CatalogPack] {
        let rows = try read("""
            SELECT p.id, p.name, p.grammar,
                   (SELECT COUNT(*) FROM versions v WHERE v.pack_id = p.id AND v.published_at IS NOT NULL) AS published_count,
                   (SELECT r.ran_at FROM validation_runs r WHERE r.pack_id = p.id ORDER BY r.id DESC LIMIT 1) AS last_validated,
                   (SELECT CASE r.passed WHEN 1 THEN 'passed' ELSE 'failed' END FROM validation_runs r WHERE r.pack_id = p.id ORDER BY r.id DESC LIMIT 1) AS last_result
            FROM packs p ORDER BY p.id
            """)
        var packs: [CatalogPack] = []
        for row in rows {
            guard let id = row["id"].string else { throw corrupt("a pack without an id") }
            // The newest published version; a pack only validated so far shows its newest validated one.
            let versions = try read("SELECT version, published_at IS NOT NULL AS published FROM versions WHERE pack_id = ?", [.text(id)])
            let published = versions.filter { $0["published"].int == 1 }.compactMap { $0["version"].string.flatMap(SemanticVersion.init) }.max()
            let validated = versions.compactMap { $0["version"].string.flatMap(SemanticVersion.init) }.max()
            let latest = published?.description ?? validated.map { "\($0) (unpublished)" }
            packs.append(CatalogPack(id: id, name: row["name"].string, grammar: row["grammar"].string ?? "", latestVersion: latest,
                                     publishedVersions: Int(row["published_count"].int ?? 0), lastValidated: row["last_validated"].string,
                                     lastResult: row["last_result"].string))
        }
        return packs
    }

    public func version(of id: String, _ version: SemanticVersion?) throws(CatalogError) -> CatalogVersion? {
        let candidates = try read("""
            SELECT v.id, v.version, v.digest, v.grammar, v.max_amount, v.published_at, v.yanked, p.name
            FROM versions v JOIN packs p ON p.id = v.pack_id WHERE v.pack_id = ?
            """, [.text(id)])
        let chosen: SQLRow?
        if let version {
            chosen = candidates.first { $0["version"].string == version.description }
        } else {
            chosen = candidates.max { SemanticVersion.isOlder($0["version"].string ?? "", than: $1["version"].string ?? "") }
        }
        guard let row = chosen, let rowID = row["id"].int, let versionText = row["version"].string else { return nil }
        let clips = try read("""
            SELECT token, file, bytes, sha256, container, codec, sample_rate, channels, frames, duration, peak_dbfs, true_peak_dbtp, momentary_max_lufs
            FROM clips WHERE version_id = ? ORDER BY rowid
            """, [.integer(rowID)]).map { c in
            CatalogVersion.Clip(token: c["token"].string ?? "", file: c["file"].string ?? "", bytes: c["bytes"].int, sha256: c["sha256"].string,
                                container: c["container"].string, codec: c["codec"].string, sampleRate: c["sample_rate"].int,
                                channels: c["channels"].int, frames: c["frames"].int, durationSeconds: c["duration"].double,
                                peakDbfs: c["peak_dbfs"].double, truePeakDbtp: c["true_peak_dbtp"].double,
                                momentaryMaxLufs: c["momentary_max_lufs"].double)
        }
        let runs = try read("""
            SELECT ran_at, path, digest, errors, warnings, passed, worst_amount, worst_seconds
            FROM validation_runs WHERE pack_id = ? AND version = ? ORDER BY id
            """, [.text(id), .text(versionText)]).map { r in
            CatalogVersion.Run(ranAt: r["ran_at"].string ?? "", path: r["path"].string ?? "", digest: r["digest"].string ?? "",
                               errors: r["errors"].int ?? 0, warnings: r["warnings"].int ?? 0, passed: r["passed"].int == 1,
                               worstAmount: r["worst_amount"].string, worstSeconds: r["worst_seconds"].double)
        }
        return CatalogVersion(id: id, name: row["name"].string, version: versionText, digest: row["digest"].string ?? "",
                              grammar: row["grammar"].string ?? "", maxAmount: row["max_amount"].string ?? "",
                              publishedAt: row["published_at"].string, yanked: row["yanked"].int == 1, clips: clips, runs: runs)
    }

    public func versionRecord(of id: String, _ version: SemanticVersion) throws(CatalogError) -> VersionRecord? {
        guard let row = try read("""
            SELECT v.id, v.version, v.digest, v.grammar, v.two, v.max_amount, v.published_at, p.name
            FROM versions v JOIN packs p ON p.id = v.pack_id WHERE v.pack_id = ? AND v.version = ?
            """, [.text(id), .text(version.description)]).first else { return nil }
        guard let grammarID = row["grammar"].string.flatMap(GrammarID.init(rawValue:)),
              let two = row["two"] == .null ? TwoStyle.default : row["two"].string.flatMap(TwoStyle.init(rawValue:)),
              let maxAmount = row["max_amount"].string.flatMap({ try? Amount(parsing: $0) }),
              let digest = row["digest"].string else {
            throw corrupt("an unreadable version row for \(id)@\(version)")
        }
        let clips = try read("""
            SELECT token, file, store_file, sha256, bytes, container, codec, sample_rate, channels, frames, duration
            FROM clips WHERE version_id = ? ORDER BY rowid
            """, [row["id"]]).map { c in
            var clip = ClipRecord(key: c["token"].string ?? "", file: c["file"].string ?? "", storeFile: c["store_file"].string, facts: nil)
            clip.sha256 = c["sha256"].string
            clip.bytes = c["bytes"].int.map(Int.init)
            clip.container = c["container"].string.flatMap(Container.init(rawValue:))
            clip.codec = c["codec"].string.flatMap(Codec.init(rawValue:))
            clip.sampleRate = c["sample_rate"].int.map(Int.init)
            clip.channels = c["channels"].int.map(Int.init)
            clip.frames = c["frames"].int
            clip.durationSeconds = c["duration"].double
            return clip
        }
        let identity = VersionIdentity(packID: id, packName: row["name"].string, version: version, digest: digest,
                                       grammar: Grammar(grammarID, two: two), maxAmount: maxAmount)
        return VersionRecord(pack: identity, published: row["published_at"] != .null, clips: clips)
    }

    public func publishedVersions(of id: String?) throws(CatalogError) -> [PublishedVersion] {
        let rows = try read("""
            SELECT v.id, v.pack_id, v.version, v.digest, v.published_at, v.yanked, v.yank_reason, v.manifest_sha256,
                   v.tar_sha256, v.zip_sha256, v.key_id
            FROM versions v WHERE v.published_at IS NOT NULL AND (?1 IS NULL OR v.pack_id = ?1) ORDER BY v.pack_id, v.id
            """, [id.map(SQLValue.text) ?? .null])
        var result: [PublishedVersion] = []
        for row in rows {
            guard let packID = row["pack_id"].string, let version = row["version"].string.flatMap(SemanticVersion.init) else {
                throw corrupt("a published version without a pack id or semantic version")
            }
            var clips: [String: PublishedVersion.Clip] = [:]
            for clip in try read("SELECT token, store_file, sha256 FROM clips WHERE version_id = ?", [row["id"]]) {
                clips[clip["token"].string ?? ""] = PublishedVersion.Clip(storeFile: clip["store_file"].string ?? "", sha256: clip["sha256"].string ?? "")
            }
            result.append(PublishedVersion(
                id: packID, version: version, digest: row["digest"].string ?? "", publishedAt: row["published_at"].string ?? "",
                yanked: row["yanked"].int == 1, yankReason: row["yank_reason"].string, manifestSha256: row["manifest_sha256"].string,
                tarSha256: row["tar_sha256"].string, zipSha256: row["zip_sha256"].string, keyID: row["key_id"].string, clips: clips))
        }
        return result
    }
}

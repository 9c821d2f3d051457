// The catalog of packs, versions, clips and validation runs (DESIGN §7), on one SQLite file.

import Foundation
import SoundpackCore

/// Why the catalog could not be used; the message says what to do.
public struct CatalogError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    init(_ error: SQLiteError, hint: String = "check the path and permissions, or pass --catalog FILE") {
        message = "\(error.description) (\(hint))"
    }
    public var description: String { message }
}

/// A pack as `list` shows it.
public struct CatalogPack: Sendable, Codable, Equatable {
    public var id: String
    public var name: String?
    public var grammar: String
    public var latestVersion: String?
    public var publishedVersions: Int
    public var lastValidated: String?
    public var lastResult: String?
}

/// One recorded version with its clips and validation history, as `show` prints it.
public struct CatalogVersion: Sendable, Codable, Equatable {
    public struct Clip: Sendable, Codable, Equatable {
        public var token: String, file: String, bytes: Int64?, sha256: String?
        public var container: String?, codec: String?, sampleRate: Int64?, channels: Int64?, frames: Int64?, durationSeconds: Double?
        public var peakDbfs: Double?, truePeakDbtp: Double?, momentaryMaxLufs: Double?
    }
    public struct Run: Sendable, Codable, Equatable {
        public var ranAt: String, path: String, digest: String, errors: Int64, warnings: Int64, passed: Bool
        public var worstAmount: String?, worstSeconds: Double?
    }
    public var id: String
    public var name: String?
    public var version: String
    public var digest: String
    public var grammar: String
    public var maxAmount: String
    public var publishedAt: String?
    public var yanked: Bool
    public var clips: [Clip]
    public var runs: [Run]
}

/// The soundpack catalog. One connection per instance; open one per process or thread.
public final class Catalog {
    /// The schema this binary writes; a catalog with a higher `user_version` is refused.
    public static let schemaVersion: Int64 = 3
    let db: SQLiteDatabase

    /// Opens or creates the catalog at `path` (and its folder), applying migrations.
    public init(path: String) throws(CatalogError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CatalogError("cannot create the catalog folder \(folder): \(error.localizedDescription) (pass --catalog FILE or set SOUNDPACK_CATALOG)")
        }
        do {
            db = try SQLiteDatabase(path: path)
            try db.execute("PRAGMA foreign_keys = ON")
            try db.query("PRAGMA journal_mode = DELETE")
            try db.execute("PRAGMA synchronous = FULL")
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
    ]

    private func migrate() throws(CatalogError) {
        do {
            try db.writeTransaction {
                let current = try db.query("PRAGMA user_version").first?.first?.int ?? 0
                if current > Self.schemaVersion {
                    throw CatalogError("the catalog at \(db.path) has schema version \(current), newer than this soundpack understands (\(Self.schemaVersion)); upgrade soundpack")
                }
                for version in current..<Self.schemaVersion {
                    try db.execute(Self.migrations[Int(version)])
                    try db.execute("PRAGMA user_version = \(version + 1)")
                }
            }
        } catch let error as CatalogError {
            throw error
        } catch let error as SQLiteError {
            throw CatalogError(error)
        } catch {
            throw CatalogError("\(error)")
        }
    }

    func write<T>(_ body: () throws -> T) throws(CatalogError) -> T {
        do { return try db.writeTransaction(body) } catch let error as SQLiteError {
            throw CatalogError(error)
        } catch {
            throw CatalogError("\(error)")
        }
    }

    func read(_ sql: String, _ arguments: [SQLValue] = []) throws(CatalogError) -> [[SQLValue]] {
        do { return try db.query(sql, arguments) } catch { throw CatalogError(error) }
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Records one validation run. The pack and (unpublished) version rows are created or updated
    /// with the probed clips; a published version's rows are never touched. Packs whose pack.json
    /// could not be read have no id and are not recorded.
    public func recordValidation(_ report: PackReport, strict: Bool, toolVersion: String, at date: Date) throws(CatalogError) {
        guard let id = report.id, let version = report.version, let grammar = report.grammar,
              let maxAmount = report.maxAmount, let digest = report.digest else { return }
        let now = Self.timestamp(date)
        try write {
            try db.query("INSERT INTO packs (id, name, grammar, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name, grammar = excluded.grammar",
                         [.text(id), report.name.map(SQLValue.text) ?? .null, .text(grammar), .text(now)])
            let existing = try db.query("SELECT id, published_at FROM versions WHERE pack_id = ? AND version = ?", [.text(id), .text(version)]).first
            if existing?[1] == nil || existing?[1] == .null {
                let versionID: Int64
                if let rowID = existing?[0].int {
                    versionID = rowID
                    try db.query("UPDATE versions SET digest = ?, grammar = ?, max_amount = ?, updated_at = ? WHERE id = ?",
                                 [.text(digest), .text(grammar), .text(maxAmount), .text(now), .integer(rowID)])
                    try db.query("DELETE FROM clips WHERE version_id = ?", [.integer(rowID)])
                } else {
                    try db.query("INSERT INTO versions (pack_id, version, digest, grammar, max_amount, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                                 [.text(id), .text(version), .text(digest), .text(grammar), .text(maxAmount), .text(now)])
                    versionID = db.lastInsertedRowID
                }
                for clip in report.clips {
                    let f = clip.facts
                    func int(_ v: Int?) -> SQLValue { v.map { .integer(Int64($0)) } ?? .null }
                    func real(_ v: Double?) -> SQLValue { v.map(SQLValue.real) ?? .null }
                    func text(_ v: String?) -> SQLValue { v.map(SQLValue.text) ?? .null }
                    try db.query("""
                        INSERT INTO clips (version_id, token, file, bytes, sha256, container, codec, bits, sample_rate, channels,
                                           frames, duration, peak_dbfs, leading_silence_ms, trailing_silence_ms,
                                           true_peak_dbtp, momentary_max_lufs, dc_offset_percent, clipped_runs)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                        [.integer(versionID), .text(clip.token), .text(clip.file), int(f?.bytes), text(f?.sha256),
                         text(f?.container.rawValue), text(f?.codec.rawValue), int(f?.bitsPerSample), int(f?.sampleRate),
                         int(f?.channels), f.map { .integer($0.frames) } ?? .null, real(f?.durationSeconds), real(f?.peakDbfs),
                         real(f?.leadingSilenceMs), real(f?.trailingSilenceMs), real(f?.truePeakDbtp), real(f?.momentaryMaxLufs),
                         real(f?.dcOffsetPercent), int(f?.clippedRuns)])
                }
            }
            try db.query("""
                INSERT INTO validation_runs (pack_id, version, digest, path, ran_at, errors, warnings, passed, worst_amount, worst_seconds, tool_version)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(id), .text(version), .text(digest), .text(report.directory), .text(now), .integer(Int64(report.errors)),
                 .integer(Int64(report.warnings)), .integer(report.passed(strict: strict) ? 1 : 0),
                 report.worstCase.map { .text($0.amount) } ?? .null, report.worstCase.map { .real($0.seconds) } ?? .null,
                 .text(toolVersion)])
            let runID = db.lastInsertedRowID
            for finding in report.findings {
                try db.query("INSERT INTO findings (run_id, rule, severity, token, file, message) VALUES (?, ?, ?, ?, ?, ?)",
                             [.integer(runID), .text(finding.rule.rawValue), .text(finding.severity.rawValue),
                              finding.token.map(SQLValue.text) ?? .null, finding.file.map(SQLValue.text) ?? .null, .text(finding.message)])
            }
        }
    }

    /// Every pack, with its newest version and last validation result.
    public func packs() throws(CatalogError) -> [CatalogPack] {
        let rows = try read("""
            SELECT p.id, p.name, p.grammar,
                   (SELECT COUNT(*) FROM versions v WHERE v.pack_id = p.id AND v.published_at IS NOT NULL),
                   (SELECT r.ran_at FROM validation_runs r WHERE r.pack_id = p.id ORDER BY r.id DESC LIMIT 1),
                   (SELECT CASE r.passed WHEN 1 THEN 'passed' ELSE 'failed' END FROM validation_runs r WHERE r.pack_id = p.id ORDER BY r.id DESC LIMIT 1)
            FROM packs p ORDER BY p.id
            """)
        var packs: [CatalogPack] = []
        for row in rows {
            let id = row[0].string ?? ""
            // The newest published version; a pack only validated so far shows its newest validated one.
            let rows = try read("SELECT version, published_at IS NOT NULL FROM versions WHERE pack_id = ?", [.text(id)])
            let published = rows.filter { $0[1].int == 1 }.compactMap { $0[0].string.flatMap(SemanticVersion.init) }.max()
            let validated = rows.compactMap { $0[0].string.flatMap(SemanticVersion.init) }.max()
            let latest = published?.description ?? validated.map { "\($0) (unpublished)" }
            packs.append(CatalogPack(id: id, name: row[1].string, grammar: row[2].string ?? "", latestVersion: latest,
                                     publishedVersions: Int(row[3].int ?? 0), lastValidated: row[4].string, lastResult: row[5].string))
        }
        return packs
    }

    /// One version of a pack (the newest when `version` is nil), or nil when the catalog has none.
    public func version(of id: String, _ version: String?) throws(CatalogError) -> CatalogVersion? {
        let candidates = try read("SELECT v.id, v.version, v.digest, v.grammar, v.max_amount, v.published_at, v.yanked, p.name FROM versions v JOIN packs p ON p.id = v.pack_id WHERE v.pack_id = ?", [.text(id)])
        let chosen: [SQLValue]?
        if let version {
            chosen = candidates.first { $0[1].string == version }
        } else {
            chosen = candidates.max { SemanticVersion.isOlder($0[1].string ?? "", than: $1[1].string ?? "") }
        }
        guard let row = chosen, let rowID = row[0].int, let versionText = row[1].string else { return nil }
        let clips = try read("SELECT token, file, bytes, sha256, container, codec, sample_rate, channels, frames, duration, peak_dbfs, true_peak_dbtp, momentary_max_lufs FROM clips WHERE version_id = ? ORDER BY rowid", [.integer(rowID)]).map { c in
            CatalogVersion.Clip(token: c[0].string ?? "", file: c[1].string ?? "", bytes: c[2].int, sha256: c[3].string,
                                container: c[4].string, codec: c[5].string, sampleRate: c[6].int, channels: c[7].int,
                                frames: c[8].int, durationSeconds: c[9].double, peakDbfs: c[10].double, truePeakDbtp: c[11].double,
                                momentaryMaxLufs: c[12].double)
        }
        let runs = try read("SELECT ran_at, path, digest, errors, warnings, passed, worst_amount, worst_seconds FROM validation_runs WHERE pack_id = ? AND version = ? ORDER BY id", [.text(id), .text(versionText)]).map { r in
            CatalogVersion.Run(ranAt: r[0].string ?? "", path: r[1].string ?? "", digest: r[2].string ?? "", errors: r[3].int ?? 0,
                               warnings: r[4].int ?? 0, passed: r[5].int == 1, worstAmount: r[6].string, worstSeconds: r[7].double)
        }
        return CatalogVersion(id: id, name: row[7].string, version: versionText, digest: row[2].string ?? "", grammar: row[3].string ?? "",
                              maxAmount: row[4].string ?? "", publishedAt: row[5].string, yanked: row[6].int == 1, clips: clips, runs: runs)
    }
}

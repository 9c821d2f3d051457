// The catalog on a SQL database (DESIGN §7): SQLite for one machine, PostgreSQL for a team. One
// schema, one set of queries; the connection supplies what differs (placeholders, the schema-version
// store, how writers of one pack are serialized). Rows are read by column name.

import Foundation
import SoundpackCore
import SoundpackSupport

/// What the catalog needs of a database connection. Statements use `?` placeholders.
package protocol SQLConnection: AnyObject {
    /// Where the database is, for messages (never with a password).
    var location: String { get }
    /// The migrations that build the schema, in order; migration N brings the schema to version N.
    var migrations: [String] { get }
    /// How clips are listed in the order they were recorded (`rowid`, or a sequence column).
    var insertionOrder: String { get }
    @discardableResult func query(_ sql: String, _ arguments: [SQLValue]) throws(SoundpackError) -> [SQLRow]
    /// Runs a script of statements without parameters.
    func execute(_ script: String) throws(SoundpackError)
    /// Runs `body` in one transaction that holds, until it ends, the write lock of each of `packs`
    /// (another writer of the same pack waits); commits, or rolls back and rethrows.
    func writeTransaction<T>(locking packs: [String], _ body: () throws -> T) throws -> T
    /// The schema version recorded in the database (0 when new); call inside a write transaction.
    func schemaVersion() throws(SoundpackError) -> Int64
    func setSchemaVersion(_ version: Int64) throws(SoundpackError)
    /// Whether the database has an index of this name.
    func hasIndex(_ name: String) throws(SoundpackError) -> Bool
    /// Whether the database has a table of this name.
    func hasTable(_ name: String) throws(SoundpackError) -> Bool
    /// Whether the database has a table of this name that this connection may read, insert into
    /// and delete from.
    func hasUsableTable(_ name: String) throws(SoundpackError) -> Bool
    /// A lock of the store that writers on every machine honour, or nil.
    func storeLock(_ scope: LockScope) throws(SoundpackError) -> (any StoreLock)?
}

/// The catalog, on any `SQLConnection`. One connection per instance; open one per process or thread.
public class SQLCatalog: Catalog {
    /// The schema this binary writes; a catalog with a higher version is refused.
    package static let schemaVersion: Int64 = 7
    let db: any SQLConnection
    /// Whether the catalog has `manifest_md5s` (`sideTables`): a role that may not make it
    /// records no MD5s and reads none.
    private var hasManifestMD5s = false

    /// The database's file path or its URL without secrets (`Catalog`).
    public var location: String { db.location }

    init(connection: any SQLConnection) throws(SoundpackError) {
        db = connection
        try migrate()
    }

    private func migrate() throws(SoundpackError) {
        try write(locking: []) {
            let current = try db.schemaVersion()
            // user_version is whatever a file says: a negative one would index the migrations below zero.
            if current < 0 {
                throw SoundpackError.environment("the catalog at \(db.location) has schema version \(current), which no soundpack writes; the file is damaged or not a soundpack catalog (soundpack catalog rebuild --from-store recovers one)")
            }
            if current > Self.schemaVersion {
                throw SoundpackError.environment("the catalog at \(db.location) has schema version \(current), newer than this soundpack understands (\(Self.schemaVersion)); upgrade soundpack")
            }
            for version in current..<Self.schemaVersion {
                try db.execute(db.migrations[Int(version)])
                try db.setSchemaVersion(version + 1)
            }
            for (name, definition) in Self.queryIndexes where try !db.hasIndex(name) {
                // Only a speed-up: a role that may not make it (on PostgreSQL, one that does not own
                // the table) uses the catalog without it.
                do { try db.execute("SAVEPOINT query_index; CREATE INDEX \(name) ON \(definition); RELEASE SAVEPOINT query_index") } catch {
                    try db.execute("ROLLBACK TO SAVEPOINT query_index; RELEASE SAVEPOINT query_index")
                }
            }
            hasManifestMD5s = try db.hasUsableTable("manifest_md5s")
            // Made where missing; one another role made and this one may not use is left alone.
            let missing = try !hasManifestMD5s && !db.hasTable("manifest_md5s")
            if missing {
                do {
                    try db.execute("SAVEPOINT side_table; CREATE TABLE manifest_md5s (\(Self.manifestMD5sColumns)); RELEASE SAVEPOINT side_table")
                    hasManifestMD5s = true
                } catch {
                    try db.execute("ROLLBACK TO SAVEPOINT side_table; RELEASE SAVEPOINT side_table")
                }
            }
        }
    }

    /// The MD5 of each published version's manifest.json (lowercase hex), recorded when publish
    /// wrote it or read it back and found the SHA-256 the version row holds: what an S3 store's
    /// listing (ETag) is compared with, so one listing checks a pack's earlier manifests instead
    /// of a GET each. Like `queryIndexes` it is made where missing whenever a catalog is opened,
    /// outside the numbered migrations: a speed-up that changes no answer, which an older
    /// soundpack neither reads nor refuses the catalog for. A version without a row here is read.
    /// A connection that may not make the table, or use the one another role made (PostgreSQL),
    /// works without it: it records no MD5 and reads none.
    static let manifestMD5sColumns = "version_id BIGINT NOT NULL PRIMARY KEY REFERENCES versions(id) ON DELETE CASCADE, md5 TEXT NOT NULL"

    /// Indexes that only make queries cheaper, created where missing whenever a catalog is opened,
    /// outside the numbered migrations: they change no row and no answer, so a catalog that has
    /// them is the same schema to every soundpack (an older one keeps them up to date and never
    /// refuses the catalog for them).
    package static let queryIndexes: [(name: String, definition: String)] = [
        // Each pack's counts of published and yanked versions (what index.json's rewrite compares
        // with the index) from these three columns, not from every version row.
        ("versions_published_by_pack", "versions (pack_id, published_at, yanked)"),
    ]

    /// Runs `body` in one write transaction holding the locks of `packs`; rolls back on any error.
    private func write<T>(locking packs: [String], _ body: () throws -> T) throws(SoundpackError) -> T {
        do { return try PhaseTimes.measure("catalog: write transactions") { try db.writeTransaction(locking: packs, body) } } catch let error as SoundpackError {
            throw error
        } catch {
            throw SoundpackError.environment("\(error)")
        }
    }

    private func read(_ sql: String, _ arguments: [SQLValue] = []) throws(SoundpackError) -> [SQLRow] {
        try PhaseTimes.measure("catalog: queries") { () throws(SoundpackError) in try db.query(sql, arguments) }
    }

    private func corrupt(_ what: String) -> SoundpackError {
        SoundpackError.environment("the catalog at \(db.location) holds \(what); it was not written by soundpack (restore it from a backup)")
    }

    /// The first of `rows` read as `T`; nil when there is none.
    private func first<T: Decodable>(_ rows: [SQLRow], as type: T.Type, _ what: String) throws(SoundpackError) -> T? {
        try decoded(Array(rows.prefix(1)), as: type, what).first
    }

    /// `rows` read as `T` (`SQLRow.decode`); a row that is not one is a damaged catalog, named as `what`.
    private func decoded<T: Decodable>(_ rows: [SQLRow], as type: T.Type, _ what: String) throws(SoundpackError) -> [T] {
        do { return try rows.decoded(as: T.self) } catch { throw corrupt("\(what) it cannot read (\(error))") }
    }

    /// A lock of the store held through the database: PostgreSQL gives one, SQLite nil (`Catalog`).
    public func storeLock(_ scope: LockScope) throws(SoundpackError) -> (any StoreLock)? { try db.storeLock(scope) }

    // MARK: writes

    /// `source_engine`, `source_voice` of a version row.
    static func sourceValues(_ source: VoiceSource?) -> [SQLValue] {
        [source.map { SQLValue.text($0.engine) } ?? .null, source?.voice.map(SQLValue.text) ?? .null]
    }

    /// `phrases` of a version row: the JSON of its phrases and texts, NULL when not known.
    static func phrasesValue(_ phrases: VersionPhrases?) -> SQLValue {
        phrases?.catalogText.map(SQLValue.text) ?? .null
    }

    /// Records validation runs in one transaction (`Catalog`).
    public func recordValidations(_ runs: [ValidationRecord]) throws(SoundpackError) {
        guard !runs.isEmpty else { return }
        try write(locking: Array(Set(runs.map(\.pack.packID)))) {
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
        let row = try db.query("""
            INSERT INTO versions (pack_id, version, digest, grammar, two, reading_options, max_amount, updated_at, source_engine, source_voice, phrases)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """, [.text(pack.packID), .text(pack.version.description), .text(pack.digest), .text(pack.grammar.id.rawValue),
                  .text(pack.grammar.two.rawValue), pack.grammar.options.catalogText.map(SQLValue.text) ?? .null,
                  .text(pack.maxAmount.description), .text(now)] + Self.sourceValues(pack.source) + [Self.phrasesValue(pack.phrases)])
        guard let id = try first(row, as: RowID.self, "a new version row")?.id else { throw corrupt("a version row without an id") }
        return id
    }

    /// How many clip rows one INSERT carries: 320 parameters, below SQLite's limit (999 before 3.32,
    /// 32,766 since) and PostgreSQL's (65,535).
    static let clipRowsPerInsert = 16

    /// The clips' rows, in order, `clipRowsPerInsert` to a statement (20 values a row).
    private func insert(_ clips: [ClipRecord], versionID: Int64) throws {
        let row = "(" + repeatElement("?", count: 20).joined(separator: ", ") + ")"
        var start = 0
        while start < clips.count {
            let batch = clips[start..<min(start + Self.clipRowsPerInsert, clips.count)]
            try db.query("""
                INSERT INTO clips (version_id, token, file, store_file, bytes, sha256, container, codec, bits, sample_rate, channels,
                                   frames, duration, peak_dbfs, leading_silence_ms, trailing_silence_ms,
                                   true_peak_dbtp, momentary_max_lufs, dc_offset_percent, clipped_runs)
                VALUES \(repeatElement(row, count: batch.count).joined(separator: ", "))
                """, batch.flatMap { Self.values(of: $0, versionID: versionID) })
            start += batch.count
        }
    }

    /// A clip row's 20 values, in the column order of `insert`.
    private static func values(of clip: ClipRecord, versionID: Int64) -> [SQLValue] {
        func int(_ v: Int?) -> SQLValue { v.map { .integer(Int64($0)) } ?? .null }
        func real(_ v: Double?) -> SQLValue { v.map(SQLValue.real) ?? .null }
        func text(_ v: String?) -> SQLValue { v.map(SQLValue.text) ?? .null }
        // Every measure from one ClipFacts, or none: `ClipRow` reads them back so.
        let facts = clip.facts
        return [.integer(versionID), .text(clip.key), .text(clip.file), text(clip.storeFile), int(facts?.bytes), text(facts?.sha256),
                text(facts?.container.rawValue), text(facts?.codec.rawValue), int(facts?.bitsPerSample), int(facts?.sampleRate),
                int(facts?.channels), (facts?.frames).map(SQLValue.integer) ?? .null, real(facts?.durationSeconds), real(facts?.peakDbfs),
                real(facts?.leadingSilenceMs), real(facts?.trailingSilenceMs), real(facts?.truePeakDbtp), real(facts?.momentaryMaxLufs),
                real(facts?.dcOffsetPercent), int(facts?.clippedRuns)]
    }

    private func record(_ run: ValidationRecord) throws {
        let now = run.ranAt.timestamp
        let pack = run.pack
        try upsertPack(pack, at: now)
        let existing = try first(db.query("SELECT id, published_at FROM versions WHERE pack_id = ? AND version = ?",
                                          [.text(pack.packID), .text(pack.version.description)]), as: VersionStateRow.self, "a version row")
        if existing?.publishedAt == nil {
            let versionID: Int64
            if let rowID = existing?.id {
                versionID = rowID
                try db.query("""
                    UPDATE versions SET digest = ?, grammar = ?, two = ?, reading_options = ?, max_amount = ?, updated_at = ?,
                                        source_engine = ?, source_voice = ?, phrases = ? WHERE id = ?
                    """,
                             [.text(pack.digest), .text(pack.grammar.id.rawValue), .text(pack.grammar.two.rawValue),
                              pack.grammar.options.catalogText.map(SQLValue.text) ?? .null,
                              .text(pack.maxAmount.description), .text(now)] + Self.sourceValues(pack.source) + [Self.phrasesValue(pack.phrases), .integer(rowID)])
                try db.query("DELETE FROM clips WHERE version_id = ?", [.integer(rowID)])
            } else {
                versionID = try insertVersion(pack, at: now)
            }
            try insert(run.clips, versionID: versionID)
        }
        let row = try db.query("""
            INSERT INTO validation_runs (pack_id, version, digest, path, ran_at, errors, warnings, passed, worst_amount, worst_seconds, tool_version)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """,
            [.text(pack.packID), .text(pack.version.description), .text(pack.digest), .text(run.path), .text(now),
             .integer(Int64(run.errors)), .integer(Int64(run.warnings)), .integer(run.passed ? 1 : 0),
             run.worstAmount.map(SQLValue.text) ?? .null, run.worstSeconds.map(SQLValue.real) ?? .null, .text(run.toolVersion)])
        guard let runID = try first(row, as: RowID.self, "a new validation run")?.id else { throw corrupt("a validation run without an id") }
        for finding in run.findings {
            try db.query("INSERT INTO findings (run_id, rule, severity, token, file, message) VALUES (?, ?, ?, ?, ?, ?)",
                         [.integer(runID), .text(finding.rule.rawValue), .text(finding.severity.rawValue),
                          finding.token.map(SQLValue.text) ?? .null, finding.file.map(SQLValue.text) ?? .null, .text(finding.message)])
        }
    }

    /// Records a version as published; false when it was published meanwhile (`Catalog`).
    public func recordPublication(_ publication: PublicationRecord) throws(SoundpackError) -> Bool {
        let now = publication.publishedAt.timestamp
        let pack = publication.pack
        return try write(locking: [pack.packID]) { () throws -> Bool in
            let existing = try first(db.query("SELECT id, published_at FROM versions WHERE pack_id = ? AND version = ?",
                                              [.text(pack.packID), .text(pack.version.description)]), as: VersionStateRow.self, "a version row")
            if existing?.publishedAt != nil { return false }
            try upsertPack(pack, at: now)
            let versionID: Int64
            if let rowID = existing?.id {
                versionID = rowID
                try db.query("DELETE FROM clips WHERE version_id = ?", [.integer(rowID)])
            } else {
                versionID = try insertVersion(pack, at: now)
            }
            try insert(publication.clips, versionID: versionID)
            if hasManifestMD5s { try recordManifestMD5(publication.manifestMD5, versionID: versionID) }
            try db.query("""
                UPDATE versions SET digest = ?, grammar = ?, max_amount = ?, two = ?, reading_options = ?, manifest_sha256 = ?, tar_sha256 = ?, zip_sha256 = ?,
                                    key_id = ?, updated_at = ?, source_engine = ?, source_voice = ?, phrases = ?, published_at = ?
                WHERE id = ?
                """,
                [.text(pack.digest), .text(pack.grammar.id.rawValue), .text(pack.maxAmount.description), .text(pack.grammar.two.rawValue),
                 pack.grammar.options.catalogText.map(SQLValue.text) ?? .null,
                 .text(publication.manifestSha256), publication.tarSha256.map(SQLValue.text) ?? .null,
                 publication.zipSha256.map(SQLValue.text) ?? .null, publication.keyID.map(SQLValue.text) ?? .null,
                 .text(now)] + Self.sourceValues(pack.source) + [Self.phrasesValue(pack.phrases), .text(now), .integer(versionID)])
            return true
        }
    }

    /// `md5` as the manifest MD5 of the version row `versionID`, in the publication's transaction;
    /// a failure (the table taken away meanwhile) leaves the publication as it is, without it.
    private func recordManifestMD5(_ md5: String?, versionID: Int64) throws {
        try db.execute("SAVEPOINT manifest_md5")
        do {
            try db.query("DELETE FROM manifest_md5s WHERE version_id = ?", [.integer(versionID)])
            if let md5 { try db.query("INSERT INTO manifest_md5s (version_id, md5) VALUES (?, ?)", [.integer(versionID), .text(md5)]) }
            try db.execute("RELEASE SAVEPOINT manifest_md5")
        } catch {
            try db.execute("ROLLBACK TO SAVEPOINT manifest_md5; RELEASE SAVEPOINT manifest_md5")
        }
    }

    /// Records the MD5 of published versions' manifests that have none yet (`Catalog`); another
    /// process recording the same one at once is no conflict.
    public func recordManifestMD5s(_ entries: [(id: String, version: SemanticVersion, md5: String)]) throws(SoundpackError) {
        guard hasManifestMD5s, !entries.isEmpty else { return }
        try write(locking: []) { () throws in
            for entry in entries {
                try db.query("""
                    INSERT INTO manifest_md5s (version_id, md5)
                    SELECT v.id, ? FROM versions v WHERE v.pack_id = ? AND v.version = ? AND v.published_at IS NOT NULL
                      AND NOT EXISTS (SELECT 1 FROM manifest_md5s m WHERE m.version_id = v.id)
                    ON CONFLICT (version_id) DO NOTHING
                    """, [.text(entry.md5), .text(entry.id), .text(entry.version.description)])
            }
        }
    }

    /// Takes a yank back (`Catalog`).
    public func unyank(_ id: String, _ version: SemanticVersion) throws(SoundpackError) -> YankOutcome {
        try write(locking: [id]) { () throws -> YankOutcome in
            guard let row = try first(db.query("SELECT id, yanked, yank_reason FROM versions WHERE pack_id = ? AND version = ? AND published_at IS NOT NULL",
                                               [.text(id), .text(version.description)]), as: YankRow.self, "a version row") else { return .notPublished }
            guard row.yanked else { return .notYanked }
            try db.query("UPDATE versions SET yanked = 0, yank_reason = NULL, yanked_at = NULL WHERE id = ?", [.integer(row.id)])
            return .unyanked
        }
    }

    /// Marks a published version yanked, keeping the first reason when it already was (`Catalog`).
    public func yank(_ id: String, _ version: SemanticVersion, reason: String, at date: Date) throws(SoundpackError) -> YankOutcome {
        try write(locking: [id]) { () throws -> YankOutcome in
            guard let row = try first(db.query("SELECT id, yanked, yank_reason FROM versions WHERE pack_id = ? AND version = ? AND published_at IS NOT NULL",
                                               [.text(id), .text(version.description)]), as: YankRow.self, "a version row") else { return .notPublished }
            if row.yanked { return .alreadyYanked(reason: row.yankReason) }
            try db.query("UPDATE versions SET yanked = 1, yank_reason = ?, yanked_at = ? WHERE id = ?",
                         [.text(reason), .text(date.timestamp), .integer(row.id)])
            return .yanked
        }
    }

    // MARK: reads

    /// Every pack, with its newest version and last validation result (`Catalog`).
    public func packs() throws(SoundpackError) -> [CatalogPack] {
        let rows = try read("""
            SELECT p.id, p.name, p.grammar,
                   (SELECT COUNT(*) FROM versions v WHERE v.pack_id = p.id AND v.published_at IS NOT NULL) AS published_count,
                   (SELECT r.ran_at FROM validation_runs r WHERE r.pack_id = p.id ORDER BY r.id DESC LIMIT 1) AS last_validated,
                   (SELECT CASE r.passed WHEN 1 THEN 'passed' ELSE 'failed' END FROM validation_runs r WHERE r.pack_id = p.id ORDER BY r.id DESC LIMIT 1) AS last_result
            FROM packs p ORDER BY p.id
            """)
        var packs: [CatalogPack] = []
        for pack in try decoded(rows, as: PackRow.self, "a pack row") {
            // The newest published version; a pack only validated so far shows its newest validated one.
            let versions = try decoded(read("SELECT version, CASE WHEN published_at IS NOT NULL THEN 1 ELSE 0 END AS published, yanked FROM versions WHERE pack_id = ?",
                                            [.text(pack.id)]), as: PackVersionRow.self, "a version row of \(pack.id)")
            let publishedRows = versions.filter(\.published)
            let published = publishedRows.compactMap { SemanticVersion($0.version) }.max()
            let validated = versions.compactMap { SemanticVersion($0.version) }.max()
            // A yanked newest version says so: it is not what phones are served.
            let newestYanked = published.map { newest in publishedRows.contains { $0.version == newest.description && $0.yanked } } ?? false
            packs.append(CatalogPack(id: pack.id, name: pack.name, grammar: pack.grammar, newestPublished: published,
                                     newestPublishedIsYanked: newestYanked, newestValidated: published == nil ? validated : nil,
                                     publishedVersions: pack.publishedCount, lastValidated: pack.lastValidated, lastResult: pack.lastResult))
        }
        return packs
    }

    /// One version of a pack, the newest when `version` is nil, with its clips and runs (`Catalog`).
    public func version(of id: String, _ version: SemanticVersion?) throws(SoundpackError) -> CatalogVersion? {
        let candidates = try decoded(read("SELECT \(VersionRow.columns) FROM versions v JOIN packs p ON p.id = v.pack_id WHERE v.pack_id = ?",
                                          [.text(id)]), as: VersionRow.self, "a version row of \(id)")
        let chosen: VersionRow?
        if let version {
            chosen = candidates.first { $0.version == version.description }
        } else {
            chosen = candidates.max { SemanticVersion.isOlder($0.version, than: $1.version) }
        }
        guard let row = chosen else { return nil }
        let versionText = row.version
        guard let (number, grammar, options, maxAmount) = row.reading else {
            throw corrupt("an unreadable version row for \(PackRef.name(id, versionText: versionText.visible))")
        }
        let phrases = VersionPhrases(catalogText: row.phrases)
        if row.phrases != nil && phrases == nil { throw corrupt("unreadable phrases in the version row for \(PackRef.name(id, versionText: versionText.visible))") }
        let clips = try decoded(read("SELECT \(ClipRow.columns) FROM clips WHERE version_id = ? ORDER BY \(db.insertionOrder)", [.integer(row.id)]),
                                as: ClipRow.self, "a clip row of \(PackRef.name(id, number))").map(\.clip)
        let runs = try decoded(read("""
            SELECT ran_at, path, digest, errors, warnings, passed, worst_amount, worst_seconds
            FROM validation_runs WHERE pack_id = ? AND version = ? ORDER BY id
            """, [.text(id), .text(versionText)]), as: RunRow.self, "a validation run of \(PackRef.name(id, number))").map(\.run)
        return CatalogVersion(id: id, name: row.name, version: number, digest: row.digest,
                              grammar: grammar, maxAmount: maxAmount,
                              publishedAt: row.publishedAt, yanked: row.yanked, source: row.source,
                              grammarOptions: grammar.hasOptions ? options : nil, phrases: phrases, clips: clips, runs: runs)
    }

    /// The facts of a recorded version that decide compatibility (`Catalog`).
    public func versionRecord(of id: String, _ version: SemanticVersion) throws(SoundpackError) -> VersionRecord? {
        guard let row = try decoded(read("SELECT \(VersionRow.columns) FROM versions v JOIN packs p ON p.id = v.pack_id WHERE v.pack_id = ? AND v.version = ?",
                                         [.text(id), .text(version.description)]), as: VersionRow.self, "a version row of \(PackRef.name(id, version))").first
        else { return nil }
        guard let (_, grammarID, options, maxAmount) = row.reading else {
            throw corrupt("an unreadable version row for \(PackRef.name(id, version))")
        }
        let clips = try decoded(read("SELECT \(ClipRow.columns) FROM clips WHERE version_id = ? ORDER BY \(db.insertionOrder)", [.integer(row.id)]),
                                as: ClipRow.self, "a clip row of \(PackRef.name(id, version))").map(\.record)
        let identity = VersionIdentity(packID: id, packName: row.name, version: version, digest: row.digest,
                                       grammar: Grammar(grammarID, options: options), maxAmount: maxAmount, source: row.source,
                                       phrases: VersionPhrases(catalogText: row.phrases))
        return VersionRecord(pack: identity, published: row.publishedAt != nil, clips: clips)
    }

    /// Whether `id@version` is published (`Catalog`).
    public func isPublished(_ id: String, _ version: SemanticVersion) throws(SoundpackError) -> Bool {
        try !read("SELECT 1 FROM versions WHERE pack_id = ? AND version = ? AND published_at IS NOT NULL",
                  [.text(id), .text(version.description)]).isEmpty
    }

    /// The query of `publishedCounts()`: SQLite answers it from `versions_published_by_pack` alone.
    package static let publishedCountsQuery = """
        SELECT pack_id, COUNT(*) AS versions, SUM(CASE WHEN yanked = 1 THEN 1 ELSE 0 END) AS yanked
        FROM versions WHERE published_at IS NOT NULL GROUP BY pack_id
        """

    /// How many versions of each pack are published and yanked, in one aggregate query (`Catalog`).
    public func publishedCounts() throws(SoundpackError) -> [String: PublishedCount] {
        let rows = try read(Self.publishedCountsQuery)
        var counts: [String: PublishedCount] = [:]
        for row in rows {
            do {
                counts[try row.text("pack_id")] = PublishedCount(versions: Int(try row.integer("versions")), yanked: Int(try row.integer("yanked")))
            } catch { throw corrupt("a count of published versions it cannot read (\(error))") }
        }
        return counts
    }

    /// Every published version, of one pack or of all, oldest first per pack (`Catalog`).
    public func publishedVersions(of id: String?, withClips: Bool) throws(SoundpackError) -> [PublishedVersion] {
        // One pack's versions through the (pack_id, version) index, not a scan of every pack's.
        let (which, arguments): (String, [SQLValue]) = id.map { ("v.pack_id = ? AND", [.text($0)]) } ?? ("", [])
        let (md5, md5s) = hasManifestMD5s ? ("m.md5 AS manifest_md5", "LEFT JOIN manifest_md5s m ON m.version_id = v.id") : ("NULL AS manifest_md5", "")
        let rows = try read("""
            SELECT v.id, v.pack_id, v.version, v.digest, v.published_at, v.yanked, v.yank_reason, v.manifest_sha256,
                   v.tar_sha256, v.zip_sha256, v.key_id, \(md5)
            FROM versions v \(md5s) WHERE \(which) v.published_at IS NOT NULL ORDER BY v.pack_id, v.id
            """, arguments)
        // Every clip of those versions in one query, not one query per version.
        var clipsByVersion: [Int64: [String: PublishedVersion.Clip]] = [:]
        if withClips {
            let clips = try decoded(read("""
                SELECT c.version_id, c.token, c.store_file, c.sha256 FROM clips c JOIN versions v ON v.id = c.version_id
                WHERE \(which) v.published_at IS NOT NULL
                """, arguments), as: PublishedClipRow.self, "a clip row of a published version")
            for clip in clips {
                clipsByVersion[clip.versionID, default: [:]][clip.token] = PublishedVersion.Clip(storeFile: clip.storeFile, sha256: clip.sha256)
            }
        }
        var result: [PublishedVersion] = []
        result.reserveCapacity(rows.count)
        for row in rows {
            let published: PublishedRow
            do { published = try PublishedRow(row: row) } catch { throw corrupt("a published version row it cannot read (\(error))") }
            result.append(published.version(clips: clipsByVersion[published.id] ?? [:]))
        }
        return result
    }
}

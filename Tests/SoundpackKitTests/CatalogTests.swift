// The catalog: migrations, recorded validation runs, immutability of published versions, and
// several writers at once.

import Dispatch
import Foundation
@testable import SoundpackCatalog
import SoundpackCore
@testable import SoundpackKit
import SoundpackTestSupport
import Testing

@Suite struct CatalogTests {
    static func demoReport() -> PackReport { Validator().validate(folder: PackFolder(absolute: Fixtures.demoPack)) }

    @Test(arguments: CatalogBackend.available)
    func recordsValidationRunsAndReadsThemBack(_ backend: CatalogBackend) throws {
        let folder = TemporaryFolder()
        let catalog = try backend.open(backend == .sqlite ? folder.file("nested/catalog.sqlite") : backend.freshLocation(in: folder))
        // The demo pack at the default banner threshold: one warning, compose.banner-cut.
        let pack = try Fixtures.copyDemoPack(into: folder)
        try Fixtures.restoreDefaultBannerCut(pack)
        let report = Validator().validate(folder: PackFolder(absolute: pack))
        try catalog.recordValidations([report], strict: false, toolVersion: "test", at: Date(timeIntervalSince1970: 0))
        try catalog.recordValidations([report], strict: true, toolVersion: "test", at: Date(timeIntervalSince1970: 60))

        let packs = try catalog.packs()
        #expect(packs.map(\.id) == ["wechat"])
        #expect(packs.first?.latestVersion == "1.0.0 (unpublished)")
        #expect(packs.first?.publishedVersions == 0)
        // The strict run fails on that one warning.
        #expect(report.findings.map(\.rule) == [.composeBannerCut])
        #expect(packs.first?.lastResult == "failed")

        let version = try #require(try catalog.version(of: "wechat", nil))
        #expect(version.digest == report.digest)
        #expect(version.clips.count == report.clips.count)
        #expect(version.clips.first?.sha256 == report.clips.first?.facts?.sha256)
        #expect(version.runs.count == 2)
        #expect(version.runs.first?.ranAt.timestamp == "1970-01-01T00:00:00.000Z")
        #expect(packs.first?.lastValidated?.timestamp == "1970-01-01T00:01:00.000Z")
        #expect(version.runs.last?.worstAmount == report.worstCase?.amount?.description)
        // The version-bump rule reads back every clip's facts as validation measured them.
        let record = try #require(try catalog.versionRecord(of: "wechat", version.version))
        #expect(record.clips.map(\.key) == report.clips.map(\.key))
        #expect(record.clips.map(\.facts) == report.clips.map(\.facts))
        #expect(try catalog.version(of: "wechat", SemanticVersion("9.9.9")) == nil)
        #expect(try catalog.version(of: "nope", nil) == nil)
    }

    @Test(arguments: CatalogBackend.available)
    func refusesACatalogFromANewerSoundpack(_ backend: CatalogBackend) throws {
        let folder = TemporaryFolder()
        let location = try backend.freshLocation(in: folder)
        try backend.open(location).db.setSchemaVersion(99)
        #expect {
            _ = try backend.open(location)
        } throws: { error in
            (error as? SoundpackError)?.description.contains("newer than this soundpack") == true
        }
    }

    @Test func refusesAnUnwritableLocation() throws {
        let folder = TemporaryFolder()
        try folder.write("a file, not a folder", to: "blocker")
        #expect(throws: SoundpackError.self) { _ = try SQLiteCatalog(path: folder.file("blocker/catalog.sqlite")) }
    }

    @Test(arguments: CatalogBackend.available)
    func publishedVersionsCannotBeRewritten(_ backend: CatalogBackend) throws {
        let folder = TemporaryFolder()
        let catalog = try backend.open(try backend.freshLocation(in: folder))
        try catalog.recordValidations([Self.demoReport()], strict: false, toolVersion: "test", at: Date())
        try catalog.db.execute("UPDATE versions SET published_at = '2026-01-01T00:00:00.000Z'")
        for statement in ["UPDATE versions SET digest = 'x'", "UPDATE versions SET manifest_sha256 = 'x'", "UPDATE clips SET sha256 = 'x'",
                          "DELETE FROM clips", "DELETE FROM versions"] {
            #expect(throws: SoundpackError.self, "\(statement)") { try catalog.db.execute(statement) }
        }
        // Validating again records the run but leaves the published rows alone.
        try catalog.recordValidations([Self.demoReport()], strict: false, toolVersion: "test", at: Date())
        #expect(try catalog.version(of: "wechat", SemanticVersion("1.0.0"))?.runs.count == 2)
        if backend == .sqlite {
            let integrity = try catalog.db.query("PRAGMA integrity_check", [])
            #expect(integrity.first?.values.first?.string == "ok")
        }
    }

    @Test func pragmasFollowTheDesign() throws {
        let folder = TemporaryFolder()
        let catalog = try SQLiteCatalog(path: folder.file("catalog.sqlite"))
        #expect(try catalog.sqlite.query("PRAGMA journal_mode").first?.values.first?.string == "delete")
        #expect(try catalog.sqlite.query("PRAGMA foreign_keys").first?.values.first?.int == 1)
        #expect(try catalog.sqlite.query("PRAGMA synchronous").first?.values.first?.int == 2)
        #expect(try catalog.sqlite.query("PRAGMA user_version").first?.values.first?.int == SQLiteCatalog.schemaVersion)
    }

    /// A row holding what soundpack never writes is a damaged catalog, named with its column: it is
    /// never read as a default (a clip's size as none, a published clip's file as "").
    @Test func aDamagedRowIsAnErrorNamingItsColumnNotADefault() throws {
        let folder = TemporaryFolder()
        let catalog = try SQLiteCatalog(path: folder.file("catalog.sqlite"))
        try catalog.recordValidations([Self.demoReport()], strict: false, toolVersion: "t", at: Date())
        #expect(try catalog.version(of: "wechat", nil)?.clips.first?.bytes != nil)
        _ = try catalog.sqlite.query("UPDATE clips SET bytes = 'many' WHERE token = '5'")
        let error = try #require(throws: SoundpackError.self) { _ = try catalog.version(of: "wechat", nil) }
        #expect(error.description.contains("holds a clip row of wechat@1.0.0 it cannot read (column bytes: an integer that fits Int64 expected, found the text 'many')"), "\(error)")
        // The value is quoted escaped: a damaged row cannot forge a line or move the cursor.
        _ = try catalog.sqlite.query("UPDATE clips SET bytes = 'x' || char(10) || 'error: forged' || char(27) || '[2J' WHERE token = '5'")
        let forged = try #require(throws: SoundpackError.self) { _ = try catalog.version(of: "wechat", nil) }
        #expect(!forged.description.contains("\n") && !forged.description.contains("\u{1B}"), "\(forged)")
        #expect(forged.description.contains("found the text 'x\\u{A}error: forged\\u{1B}[2J'"), "\(forged)")
        // A date is the text soundpack writes, or the row is damaged: never read as another instant.
        _ = try catalog.sqlite.query("UPDATE clips SET bytes = 1")
        _ = try catalog.sqlite.query("UPDATE validation_runs SET ran_at = '2026-11-30 15:47'")
        let date = try #require(throws: SoundpackError.self) { _ = try catalog.version(of: "wechat", nil) }
        #expect(date.description.contains("(column ran_at: a timestamp such as 2026-11-30T15:47:58.580Z expected, found the text '2026-11-30 15:47')"), "\(date)")
        #expect(throws: SoundpackError.self) { _ = try catalog.packs() }
    }

    /// A finding is recorded by its rule's id, typed to the row; an id this soundpack has no rule
    /// for (a newer one ran the validation) is recorded as it is, not refused.
    @Test func aFindingOfAnUnknownRuleIsRecordedByItsID() throws {
        let folder = TemporaryFolder()
        let catalog = try SQLiteCatalog(path: folder.file("catalog.sqlite"))
        var run = try #require(ValidationRecord(Self.demoReport(), strict: false, toolVersion: "t", at: Date()))
        #expect(RuleID(rawValue: "audio.from-the-future") == nil)
        run.findings = [FindingRecord(rule: RuleID(recorded: "audio.from-the-future"), severity: .note, token: "5", file: nil, message: "m"),
                        FindingRecord(rule: .composeBannerCut, severity: .warning, token: nil, file: nil, message: "m")]
        try catalog.recordValidations([run])
        let rows = try catalog.sqlite.query("SELECT rule, severity FROM findings ORDER BY rowid")
        #expect(rows.map { $0.values.compactMap(\.string) } == [["audio.from-the-future", "note"], ["compose.banner-cut", "warning"]])
    }

    /// Eight connections creating and writing one new catalog at once: every write lands.
    @Test(arguments: CatalogBackend.available)
    func concurrentWritersAllSucceed(_ backend: CatalogBackend) throws {
        let folder = TemporaryFolder()
        let location = try backend.freshLocation(in: folder)
        let report = Self.demoReport()
        let failures = FailureList()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            do {
                let catalog = try backend.open(location)
                for _ in 0..<5 { try catalog.recordValidations([report], strict: false, toolVersion: "w\(worker)", at: Date()) }
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
        #expect(try backend.open(location).version(of: "wechat", nil)?.runs.count == 40)
    }

    /// Clip rows go in several to a statement: a version of 0, 1, 2, 5, exactly one statement's worth,
    /// one more, and two statements' and one more clips reads back every clip, in order, with its
    /// facts. Every fifth clip has none (it could not be read): on PostgreSQL its NULL numbers were
    /// refused as text.
    @Test(arguments: CatalogBackend.available)
    func clipRowsReadBackInOrderWhateverTheirCount(_ backend: CatalogBackend) throws {
        let folder = TemporaryFolder()
        let catalog = try backend.open(backend.freshLocation(in: folder))
        let report = Self.demoReport()
        let facts = report.clips.compactMap(\.facts)
        let perStatement = SQLCatalog.clipRowsPerInsert
        for count in [0, 1, 2, 5, perStatement, perStatement + 1, 2 * perStatement + 1] {
            var pack = try #require(VersionIdentity(report))
            pack.packID = "clips-\(count)"
            let clips = (0..<count).map { n in
                ClipRecord(key: "k\(n)", file: "clips/\(n).caf", storeFile: "clips/\(n).caf", facts: n % 5 == 3 ? nil : facts[n % facts.count])
            }
            let publication = PublicationRecord(pack: pack, clips: clips, manifestSha256: String(repeating: "b", count: 64), tarSha256: nil,
                                                 zipSha256: nil, keyID: nil, publishedAt: Date(timeIntervalSince1970: 0))
            #expect(try catalog.recordPublication(publication))
            let record = try #require(try catalog.versionRecord(of: pack.packID, pack.version))
            #expect(record.clips.map(\.key) == clips.map(\.key), "\(count) clips")
            #expect(record.clips.map(\.file) == clips.map(\.file) && record.clips.map(\.storeFile) == clips.map(\.storeFile), "\(count) clips")
            #expect(record.clips.map(\.facts) == clips.map(\.facts), "\(count) clips")
        }
    }

    /// Eight connections publishing the same pack@version at once: the database lets exactly one
    /// record it; the others see it published and record nothing.
    @Test(arguments: CatalogBackend.available)
    func concurrentPublishersOfOneVersionRecordItOnce(_ backend: CatalogBackend) throws {
        let folder = TemporaryFolder()
        let location = try backend.freshLocation(in: folder)
        let report = Self.demoReport()
        let publication = PublicationRecord(
            pack: try #require(VersionIdentity(report)), clips: report.clips.map { ClipRecord(key: $0.key, file: $0.file, facts: $0.facts) },
            manifestSha256: String(repeating: "a", count: 64), tarSha256: nil, zipSha256: nil, keyID: nil, publishedAt: Date())
        _ = try backend.open(location)  // the schema, created once
        let failures = FailureList(), recorded = FailureList()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            do {
                if try backend.open(location).recordPublication(publication) { recorded.append("\(worker)") }
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
        #expect(recorded.all.count == 1)
        let published = try backend.open(location).publishedVersions()
        #expect(published.map(\.version.description) == ["1.0.0"])
        #expect(published.first?.clips.count == report.clips.count)
    }
}


@Suite struct CatalogMigrationTests {
    /// A catalog written by schema 1 opens with its rows intact and gains the loudness columns.
    @Test(arguments: CatalogBackend.available)
    func schemaOneIsMigrated(_ backend: CatalogBackend) throws {
        let folder = TemporaryFolder()
        let location = try backend.freshLocation(in: folder)
        do {
            let connection: any SQLConnection = backend == .sqlite ? SQLiteConnection(try SQLiteDatabase(path: location))
                : try PostgreSQLConnection(url: location)
            try connection.writeTransaction(locking: []) {
                _ = try connection.schemaVersion()
                try connection.execute(connection.migrations[0])
                try connection.setSchemaVersion(1)
                try connection.execute("INSERT INTO packs (id, grammar, created_at) VALUES ('old', 'zh-Hans', '2025-01-01T00:00:00Z')")
            }
        }
        let catalog = try backend.open(location)
        #expect(try catalog.db.schemaVersion() == SQLCatalog.schemaVersion)
        #expect(try catalog.packs().map(\.id) == ["old"])
        try catalog.recordValidations([CatalogTests.demoReport()], strict: false, toolVersion: "test", at: Date())
        let clip = try #require(try catalog.version(of: "wechat", nil)?.clips.first)
        #expect(clip.momentaryMaxLufs != nil)
        #expect(clip.truePeakDbtp != nil)
    }

    /// A role that may use the tables but not make an index on them (it does not own them) opens a
    /// catalog without the index: the index only makes a query cheaper.
    @Test(.enabled(if: CatalogBackend.postgresURL != nil))
    func aRoleThatMayNotMakeTheIndexUsesTheCatalogWithoutIt() throws {
        let folder = TemporaryFolder()
        let location = try CatalogBackend.postgresql.freshLocation(in: folder)
        let role = "runner_\(UInt32.random(in: 0...UInt32.max))"
        do {
            let owner = try CatalogBackend.postgresql.open(location)
            try owner.db.execute("""
                DROP INDEX versions_published_by_pack;
                CREATE ROLE \(role) LOGIN;
                GRANT CREATE, USAGE ON SCHEMA public TO \(role);
                GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \(role);
                GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO \(role);
                """)
        }
        let url = try #require(URLComponents(string: location))
        var asRole = url
        asRole.user = role
        let catalog = try CatalogBackend.postgresql.open(try #require(asRole.string))
        #expect(try !catalog.db.hasIndex("versions_published_by_pack"))
        try catalog.recordValidations([CatalogTests.demoReport()], strict: false, toolVersion: "test", at: Date())
        #expect(try catalog.publishedCounts().isEmpty)
        #expect(try catalog.packs().map(\.id) == ["wechat"])
    }

    /// index.json's rewrite counts each pack's published and yanked versions from the index of
    /// (pack_id, published_at, yanked): SQLite from it alone, not from every version row (a table of
    /// 5,000 versions was read row by row through the (pack_id, version) index before). The index is made where it
    /// is missing, a catalog written before it included, and the schema version stays what older
    /// soundpack binaries accept.
    @Test(arguments: CatalogBackend.available)
    func publishedCountsReadAnIndexAlone(_ backend: CatalogBackend) throws {
        let folder = TemporaryFolder()
        let location = try backend.freshLocation(in: folder)
        do {
            let catalog = try backend.open(location)
            #expect(try catalog.db.hasIndex("versions_published_by_pack"))
            try catalog.db.execute("DROP INDEX versions_published_by_pack")
            #expect(try !catalog.db.hasIndex("versions_published_by_pack"))
        }
        let catalog = try backend.open(location)
        #expect(try catalog.db.schemaVersion() == 7)
        #expect(try catalog.db.hasIndex("versions_published_by_pack"))
        if backend == .postgresql {
            // The planner may read a small table whole; barred from that, it reads the index.
            try catalog.db.execute("SET enable_seqscan = off")
        }
        let explain = backend == .sqlite ? "EXPLAIN QUERY PLAN" : "EXPLAIN"
        let plan = try catalog.db.query("\(explain) \(SQLCatalog.publishedCountsQuery)", [])
            .map { row in try row.text(backend == .sqlite ? "detail" : "QUERY PLAN") }
        if backend == .sqlite {
            #expect(plan == ["SCAN versions USING COVERING INDEX versions_published_by_pack"])
        } else {
            // Index-only where its visibility map allows; a bitmap scan of it on a table not yet vacuumed.
            #expect(plan.contains { $0.contains("Scan using versions_published_by_pack") || $0.contains("Scan on versions_published_by_pack") }, "\(plan)")
        }
    }
}

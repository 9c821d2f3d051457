// The catalog commands on PostgreSQL, run as a user runs them: the same outputs as on SQLite, and
// `catalog migrate` from one to the other, checked with verify.

import Foundation
import Testing
@testable import SoundpackKit
import SoundpackCore
import SoundpackTestSupport

@Suite(.enabled(if: CatalogBackend.available.contains(.postgresql)))
struct PostgreSQLCatalogEndToEndTests {
    /// Strips what differs between two runs of the same commands: timestamps and the catalog's name.
    static func normalized(_ text: String, _ catalog: String) -> String {
        text.replacingOccurrences(of: catalog, with: "CATALOG")
            .replacingOccurrences(of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"#, with: "<time>", options: .regularExpression)
    }

    @Test func everyCatalogCommandPrintsWhatItPrintsOnSQLite() throws {
        let url = try CatalogBackend.freshPostgresDatabase()
        let onPostgres = try PublishEndToEndTests.project(), onSQLite = try PublishEndToEndTests.project()
        let commands: [[String]] = [
            ["validate", "packs/wechat"], ["publish"], ["publish"], ["list"], ["show", "wechat"], ["show", "wechat@1.0.0", "--format", "json"],
            ["yank", "wechat@1.0.0", "--reason", "clip 3"], ["list", "--format", "json"], ["verify"], ["export", "wechat", "--format", "json"],
            ["payload", "15.40", "--pack", "wechat@1.0.0"], ["yank", "wechat@1.0.0", "--undo"], ["diff", "wechat@1.0.0", "packs/wechat"],
        ]
        for command in commands {
            let postgres = try Executable.run(command + ["--catalog", url], in: onPostgres.path)
            let sqlite = try Executable.run(command, in: onSQLite.path)
            #expect(postgres.status == sqlite.status, "\(command): \(postgres.stderr)")
            #expect(Self.normalized(postgres.stdout, url) == Self.normalized(sqlite.stdout, onSQLite.file(".soundpack/catalog.sqlite")), "\(command)")
        }
        // The environment variable selects it too, and a password never shows in a message.
        let missing = try Executable.run(["list"], in: onPostgres.path,
                                         environment: ["SOUNDPACK_CATALOG": "postgresql://soundpack:hunter2@/nosuch?host=/nonexistent"])
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("postgresql://soundpack:***@/nosuch") && !missing.stderr.contains("hunter2"))
    }

    /// A pack with a clip that cannot be read: its row's numbers are NULL, which PostgreSQL refused
    /// as text parameters (exit 3, "cannot record the validation"). Validated straight into
    /// PostgreSQL, and migrated there from SQLite, it is recorded as on SQLite; so is a run without
    /// a worst case.
    @Test func aClipThatCannotBeReadIsRecorded() throws {
        let project = try PublishEndToEndTests.project()
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: project.file("packs/wechat/clips/shi.caf")))
        let url = try CatalogBackend.freshPostgresDatabase()
        let onPostgres = try Executable.run(["validate", "packs/wechat", "--catalog", url], in: project.path)
        let onSQLite = try Executable.run(["validate", "packs/wechat"], in: project.path)
        #expect(onPostgres.status == 1 && onSQLite.status == 1, "\(onPostgres.stderr)")
        #expect(!onPostgres.stderr.contains("cannot record"), "\(onPostgres.stderr)")
        #expect(Self.normalized(onPostgres.stdout, url) == Self.normalized(onSQLite.stdout, project.file(".soundpack/catalog.sqlite")))
        let show = ["show", "wechat", "--format", "json"]
        let shown = try Executable.run(show + ["--catalog", url], in: project.path)
        let shownOnSQLite = try Executable.run(show, in: project.path)
        #expect(shown.status == 0 && Self.normalized(shown.stdout, url) == Self.normalized(shownOnSQLite.stdout, ""), "\(shown.stderr)")
        let copy = try CatalogBackend.freshPostgresDatabase()
        let migrate = try Executable.run(["catalog", "migrate", "--from", ".soundpack/catalog.sqlite", "--to", copy], in: project.path)
        #expect(migrate.status == 0, "\(migrate.stderr)")
        let copied = try Executable.run(show + ["--catalog", copy], in: project.path)
        #expect(Self.normalized(copied.stdout, copy) == Self.normalized(shownOnSQLite.stdout, ""), "\(copied.stderr)")
        // A pack that cannot say every amount has no worst case: its run's seconds are NULL too.
        try Fixtures.editManifest(project.file("packs/wechat")) { manifest in
            var clips = manifest["clips"] as? [String: Any] ?? [:]
            clips["5"] = nil
            manifest["clips"] = clips
        }
        let uncovered = try Executable.run(["validate", "packs/wechat", "--catalog", url], in: project.path)
        #expect(uncovered.status == 1 && uncovered.stdout.contains("coverage.missing-token"), "\(uncovered.stdout)")
        #expect(!uncovered.stderr.contains("cannot record"), "\(uncovered.stderr)")
    }

    @Test func migrateCopiesACatalogAcrossAndBack() throws {
        let project = try PublishEndToEndTests.project()
        #expect(try Executable.run(["publish"], in: project.path).status == 0)
        #expect(try Executable.run(["yank", "wechat@1.0.0", "--reason", "clip 3"], in: project.path).status == 0)
        let url = try CatalogBackend.freshPostgresDatabase()
        let migrate = try Executable.run(["catalog", "migrate", "--from", ".soundpack/catalog.sqlite", "--to", url], in: project.path)
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(migrate.stdout.contains("1 packs, 1 versions, 18 clips, 1 validation runs"))
        #expect(try Executable.run(["verify", "--catalog", url], in: project.path).status == 0)
        for command in [["show", "wechat@1.0.0", "--format", "json"], ["list", "--format", "json"]] {
            let copied = try Executable.run(command + ["--catalog", url], in: project.path).stdout
            #expect(copied == (try Executable.run(command, in: project.path).stdout), "\(command)")
        }
        // A second copy into the same catalog is refused and changes nothing.
        let again = try Executable.run(["catalog", "migrate", "--from", ".soundpack/catalog.sqlite", "--to", url], in: project.path)
        #expect(again.status == 1 && again.stderr.contains("already holds packs"))
        // And back to a new SQLite file, and a new version published on top of the copy.
        #expect(try Executable.run(["catalog", "migrate", "--from", url, "--to", "back.sqlite"], in: project.path).status == 0)
        try PublishEndToEndTests.setVersion(project.file("packs/wechat"), "1.0.1")
        #expect(try Executable.run(["publish", "--catalog", url], in: project.path).status == 0)
        #expect(try Executable.run(["verify", "--catalog", url], in: project.path).status == 0)
    }

    /// `publish --catalog postgresql://… --store s3://…` as a CI runner runs it, then every command
    /// that reads the store: index.json lists exactly the catalog's versions and verify is clean.
    @Test(.enabled(if: S3TestServer.available))
    func publishToPostgreSQLAndS3() throws {
        let project = try PublishEndToEndTests.project()
        let team = ["--catalog", try CatalogBackend.freshPostgresDatabase(), "--store", try S3TestServer.freshStoreURL(),
                    "--s3-endpoint", try #require(S3TestServer.endpoint)]
        func run(_ command: [String]) throws -> ExecutionResult { try Executable.run(command + team, in: project.path) }
        let first = try run(["publish"])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("published wechat@1.0.0") && first.stdout.contains("to s3://"))
        #expect(try run(["publish"]).stdout.contains("nothing to do"))
        try PublishEndToEndTests.setVersion(project.file("packs/wechat"), "1.0.1")
        #expect(try run(["publish"]).status == 0)
        #expect(try run(["yank", "wechat@1.0.0", "--reason", "clip 3"]).status == 0)
        let verify = try run(["verify"])
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("files checked, no drift"))
        let store = try S3TestServer.store(try #require(team.firstIndex(of: "--store").map { team[$0 + 1] }))
        let index = try JSONDecoder().decode(StoreIndex.self, from: try #require(try store.read(StoreLayout.index)))
        #expect(index.packs["wechat"]?.versions.keys.sorted() == ["1.0.0", "1.0.1"])
        #expect(index.packs["wechat"]?.latest == "1.0.1" && index.packs["wechat"]?.versions["1.0.0"]?.yanked == true)
        #expect(try run(["payload", "15.40", "--pack", "wechat"]).stdout.contains("\"pack\" : \"wechat@1.0.1\""))
        #expect(try run(["export", "wechat", "--format", "json", "--base-url", "https://cdn.example.com/voice"]).status == 0)
        // A changed clip under a published version is drift, found through the object store.
        try store.write("wechat/1.0.1/clips/5.caf", Data("not a clip".utf8))
        let drift = try run(["verify"])
        #expect(drift.status == 1 && drift.stdout.contains("wechat/1.0.1/clips/5.caf"))
    }
}

// The store is the source of truth for what is published (DESIGN §7): a lost or old catalog never
// lets publish change a published version, index.json never loses a stored version or a yank, and
// `catalog rebuild --from-store` recovers a catalog, every file checked. Run on every pair of
// catalog (SQLite, PostgreSQL) and store (folder, S3) the test command has servers for.

import Foundation
import Testing
import SoundpackKit
import SoundpackTestSupport

/// One catalog and store a team could have.
struct Setup: CustomStringConvertible, Sendable {
    var catalog: CatalogBackend
    var s3: Bool

    var description: String { "\(catalog) + \(s3 ? "S3" : "folder")" }

    static var all: [Setup] {
        CatalogBackend.available.flatMap { catalog in ([false] + (S3TestServer.available ? [true] : [])).map { Setup(catalog: catalog, s3: $0) } }
    }

    /// The arguments that point every command at this setup's catalog (`name` picks a new one) and store.
    func arguments(in folder: TemporaryFolder, catalog name: String = "catalog", store: String) throws -> [String] {
        let location = catalog == .sqlite ? folder.file("\(name).sqlite") : try CatalogBackend.freshPostgresDatabase()
        return ["--catalog", location, "--store", store] + (s3 ? ["--s3-endpoint", try #require(S3TestServer.endpoint)] : [])
    }

    func store(in folder: TemporaryFolder) throws -> String { s3 ? try S3TestServer.freshStoreURL() : folder.file("dist") }

    /// The store's bytes, read through the tool's own backends.
    func backend(_ store: String) throws -> any StoreBackend { s3 ? try S3TestServer.store(store) : DirectoryStore(root: store) }
}

@Suite struct StoreIsTheTruthTests {
    static func run(_ arguments: [String], _ folder: TemporaryFolder) throws -> ExecutionResult {
        try Executable.run(arguments, in: folder.path)
    }

    /// index.json and every version file, as bytes, through the tool's own store reading (any backend).
    static func storeBytes(_ setup: Setup, _ store: String, _ folder: TemporaryFolder) throws -> [String: String] {
        let backend = try setup.backend(store)
        var bytes: [String: String] = [:]
        for key in try backend.list() { bytes[key] = try backend.read(key).map { Digest.sha256Hex($0) } }
        return bytes
    }

    /// SOUNDPACK_TIMINGS=1 names each kind of request a publish makes of an S3 store: index.json
    /// read and written once, the version's files each PUT only where absent.
    @Test(arguments: Setup.all.filter(\.s3))
    func timingsNameEachKindOfStoreRequest(_ setup: Setup) throws {
        let folder = try PublishEndToEndTests.project()
        let arguments = try setup.arguments(in: folder, store: try setup.store(in: folder))
        // A process of its own: the timings are the process's, and this one runs other tests at once.
        let timed = try Executable.spawn(["publish"] + arguments, in: folder.path, environment: ["SOUNDPACK_TIMINGS": "1"])
        #expect(timed.status == 0, "\(timed.stdout)\(timed.stderr)")
        func calls(_ phase: String) -> Int {
            let line = timed.stderr.split(separator: "\n").first { $0.hasPrefix(phase + "  ") }
            return line.flatMap { Int($0.split(separator: " ").dropLast().last ?? "") } ?? 0
        }
        #expect(calls("S3 request: PUT index.json") == 1, "\(timed.stderr)")
        #expect(calls("S3 request: GET index.json") >= 1, "\(timed.stderr)")
        #expect(calls("S3 request: PUT If-None-Match") >= 1, "\(timed.stderr)")
        // Swift's s3api answers a conditional PUT 501 (as often as PUTs were in flight when the first
        // answer came): from then on each file is a HEAD and a plain PUT.
        let refusals = calls("S3: If-None-Match answered 501, HEAD + PUT from then on")
        if refusals > 0 {
            #expect(calls("S3 request: PUT If-None-Match") == refusals && calls("S3 request: HEAD") == calls("S3 request: PUT"), "\(timed.stderr)")
        }
    }

    @Test(arguments: Setup.all)
    func aLostCatalogNeverLetsPublishChangeAPublishedVersion(_ setup: Setup) throws {
        let folder = try PublishEndToEndTests.project()
        let store = try setup.store(in: folder)
        let first = try setup.arguments(in: folder, store: store)
        #expect(try Self.run(["publish"] + first, folder).status == 0)
        let before = try Self.storeBytes(setup, store, folder)

        // A runner without the catalog, and clip 5 changed: refused, naming the store; nothing in it changes.
        try Fixtures.standIn(for: folder.file("packs/wechat/clips/5.caf"), to: folder.file("other-5.caf"))
        let original = try Data(contentsOf: URL(fileURLWithPath: folder.file("packs/wechat/clips/5.caf")))
        try FileManager.default.removeItem(atPath: folder.file("packs/wechat/clips/5.caf"))
        try FileManager.default.moveItem(atPath: folder.file("other-5.caf"), toPath: folder.file("packs/wechat/clips/5.caf"))
        let lost = try setup.arguments(in: folder, catalog: "lost", store: store)
        let refused = try Self.run(["publish"] + lost, folder)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stdout.contains("[catalog.version-conflict] wechat@1.0.0 is already published in the store"), "\(refused.stdout)")
        #expect(try Self.storeBytes(setup, store, folder) == before)

        // The same content from another lost catalog: a no-op that records the version from the store.
        try original.write(to: URL(fileURLWithPath: folder.file("packs/wechat/clips/5.caf")))
        let again = try setup.arguments(in: folder, catalog: "again", store: store)
        let same = try Self.run(["publish"] + again, folder)
        #expect(same.status == 0 && same.stdout.contains("wechat@1.0.0 is already published with this content"), "\(same.stdout)\(same.stderr)")
        #expect(try Self.storeBytes(setup, store, folder) == before)
        let list = try Self.run(["list"] + again, folder)
        #expect(list.stdout.contains("wechat  1.0.0    1"), "\(list.stdout)")
        #expect(try Self.run(["verify"] + again, folder).status == 0)
    }

    @Test(arguments: Setup.all)
    func anOldCatalogNeitherDropsVersionsFromTheIndexNorUnyanks(_ setup: Setup) throws {
        let folder = try PublishEndToEndTests.project()
        let store = try setup.store(in: folder)
        let old = try setup.arguments(in: folder, catalog: "old", store: store)
        #expect(try Self.run(["publish"] + old, folder).status == 0)
        // The team goes on with another catalog (the old one is what a stale backup would be).
        let current = try setup.arguments(in: folder, catalog: "current", store: store)
        #expect(try Self.run(["catalog", "rebuild", "--from-store"] + current, folder).status == 0)
        try PublishEndToEndTests.setVersion(folder.file("packs/wechat"), "1.0.1")
        #expect(try Self.run(["publish"] + current, folder).status == 0)
        #expect(try Self.run(["yank", "wechat@1.0.0", "--reason", "clip 3 is clipped"] + current, folder).status == 0)

        // The stale catalog publishes 1.0.2: index.json keeps 1.0.1 and the yank of 1.0.0.
        try PublishEndToEndTests.setVersion(folder.file("packs/wechat"), "1.0.2")
        let published = try Self.run(["publish"] + old, folder)
        #expect(published.status == 0, "\(published.stdout)\(published.stderr)")
        let index = try #require(try setup.backend(store).read("index.json"))
        let versions = try #require(((try JSONSerialization.jsonObject(with: index) as? [String: Any])?["packs"] as? [String: Any])?["wechat"] as? [String: Any])
        let listed = try #require(versions["versions"] as? [String: [String: Any]])
        #expect(Set(listed.keys) == ["1.0.0", "1.0.1", "1.0.2"])
        #expect(listed["1.0.0"]?["yanked"] as? Bool == true)
        #expect(versions["latest"] as? String == "1.0.2")
        // And the stale catalog learnt what the store holds.
        let show = try Self.run(["show", "wechat@1.0.0"] + old, folder)
        #expect(show.stdout.contains("yanked"), "\(show.stdout)")
        #expect(try Self.run(["verify"] + old, folder).status == 0)
    }

    @Test(arguments: Setup.all)
    func aLostCatalogIsRebuiltFromTheStoreFilesChecked(_ setup: Setup) throws {
        let folder = try PublishEndToEndTests.project()
        let store = try setup.store(in: folder)
        let first = try setup.arguments(in: folder, store: store)
        #expect(try Self.run(["publish"] + first, folder).status == 0)
        try PublishEndToEndTests.setVersion(folder.file("packs/wechat"), "1.1.0")
        #expect(try Self.run(["publish"] + first, folder).status == 0)
        #expect(try Self.run(["yank", "wechat@1.0.0", "--reason", "bad"] + first, folder).status == 0)

        let rebuilt = try setup.arguments(in: folder, catalog: "rebuilt", store: store)
        let rebuild = try Self.run(["catalog", "rebuild", "--from-store"] + rebuilt, folder)
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        #expect(rebuild.stdout.contains("recorded wechat@1.0.0") && rebuild.stdout.contains("recorded wechat@1.1.0")
                && rebuild.stdout.contains("recorded the yank of wechat@1.0.0"), "\(rebuild.stdout)")
        for command in [["show", "wechat@1.0.0", "--format", "json"], ["show", "wechat@1.1.0", "--format", "json"]] {
            let a = try Self.run(command + first, folder).stdout, b = try Self.run(command + rebuilt, folder).stdout
            #expect(Self.sameShow(a, b), "\(command)\n\(a)\n\(b)")
        }
        #expect(try Self.run(["verify"] + rebuilt, folder).status == 0)
        #expect(try Self.run(["catalog", "rebuild", "--from-store"] + rebuilt, folder).stdout.contains("0 versions recorded from the store, 0 yanks, 2 already known"))

        // A store file that does not match its manifest: nothing is recorded, exit 3.
        guard !setup.s3 else { return }
        var clip = try Data(contentsOf: URL(fileURLWithPath: store + "/wechat/1.1.0/clips/5.caf"))
        clip[clip.count - 3] ^= 0x55
        try clip.write(to: URL(fileURLWithPath: store + "/wechat/1.1.0/clips/5.caf"))
        let tampered = try setup.arguments(in: folder, catalog: "tampered", store: store)
        let refused = try Self.run(["catalog", "rebuild", "--from-store"] + tampered, folder)
        #expect(refused.status == 3 && refused.stderr.contains("wechat/1.1.0/clips/5.caf does not match its manifest"), "\(refused.stderr)")
        #expect(try Self.run(["list"] + tampered, folder).stdout.contains("wechat") == false)
    }

    /// A publish cut before manifest.json (an object store's last version file) leaves files of a
    /// version nobody knows: a leftover note on every backend, as a folder store's interrupted
    /// publish is, not tampering; and publishing that version completes it.
    @Test(arguments: Setup.all)
    func anInterruptedPublishIsALeftoverOnEveryBackend(_ setup: Setup) throws {
        let folder = try PublishEndToEndTests.project()
        let store = try setup.store(in: folder)
        let arguments = try setup.arguments(in: folder, store: store)
        #expect(try Self.run(["publish"] + arguments, folder).status == 0)
        let backend = try setup.backend(store)
        try PublishEndToEndTests.setVersion(folder.file("packs/wechat"), "1.0.1")
        for file in ["clips/1.caf", "clips/2.caf", "pack.json"] {
            try backend.write("wechat/1.0.1/\(file)", Data(contentsOf: URL(fileURLWithPath: folder.file("packs/wechat/\(file)"))))
        }
        let verify = try Self.run(["verify"] + arguments, folder)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("wechat/1.0.1: note: [store.leftover] part of a version an interrupted publish never finished"), "\(verify.stdout)")
        #expect(!verify.stdout.contains("store.unexpected"), "\(verify.stdout)")
        #expect(try Self.run(["publish"] + arguments, folder).status == 0)
        let after = try Self.run(["verify"] + arguments, folder)
        #expect(after.status == 0 && !after.stdout.contains("store.leftover"), "\(after.stdout)")
        // Files of a version index.json lists that no manifest accounts for are still drift.
        try backend.write("wechat/1.0.1/clips/stray.caf", Data("x".utf8))
        let stray = try Self.run(["verify"] + arguments, folder)
        #expect(stray.status == 1 && stray.stdout.contains("wechat/1.0.1/clips/stray.caf: error: [store.unexpected]"), "\(stray.stdout)")
    }

    /// show --format json of the same version from two catalogs: equal but for the validation history
    /// (the rebuilt catalog has the publication, not the runs that led to it).
    static func sameShow(_ a: String, _ b: String) -> Bool {
        func strip(_ text: String) -> Data? {
            guard var object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return nil }
            object["runs"] = nil
            return try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        }
        guard let x = strip(a), let y = strip(b) else { return false }
        return x == y
    }

    @Test func nothingButTheIndexAndVersionFoldersIsLeftInTheStoreTree() throws {
        let folder = try PublishEndToEndTests.project()
        #expect(try Self.run(["publish"], folder).status == 0)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.file("dist"))) == ["index.json", "wechat"])
        #expect(try Self.run(["yank", "wechat@1.0.0", "--reason", "x"], folder).status == 0)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.file("dist"))) == ["index.json", "wechat"])
    }

    @Test func aDryRunSeesConflictsBetweenFoldersOfOneRun() throws {
        let folder = try PublishEndToEndTests.project()
        try Fixtures.copyDemoPack(into: folder, as: "packs/wechat-copy")
        try FileManager.default.removeItem(atPath: folder.file("packs/wechat-copy/clips/5.caf"))
        try Fixtures.standIn(for: folder.file("packs/wechat/clips/5.caf"), to: folder.file("packs/wechat-copy/clips/5.caf"))
        let dry = try Self.run(["publish", "--dry-run"], folder)
        let real = try Self.run(["publish"], folder)
        #expect(dry.status == 1 && real.status == 1, "\(dry.stdout)\n\(real.stdout)")
        #expect(dry.stdout.contains("would publish wechat@1.0.0") && dry.stdout.contains("comes twice in this run with different content"), "\(dry.stdout)")
        #expect(real.stdout.contains("[catalog.version-conflict]"), "\(real.stdout)")
    }
}

// A store's manifest.json and index.json are not trusted: catalog rebuild, verify and export decode
// them as a phone does, keep every path inside the store, and recompute the manifest from the
// pack.json and clips stored beside it. Each case edits the store as someone with write access to
// it could, updating every hash that would give the edit away.

import Foundation
import Testing
import SoundpackKit
import SoundpackTestSupport

@Suite struct StoreManifestTrustTests {
    /// An edit of wechat@1.0.0's manifest.json.
    enum Edit: String, CaseIterable, CustomStringConvertible {
        /// Clip 5 moved out of the store, its path in the manifest pointing at it.
        case clipOutsideTheStore
        /// A reading option pack.json does not have (the digest left as it was).
        case readingOption
        /// A NUL in a text.
        case nulInText
        /// Phrases that do not fit the grammar.
        case invalidPhrases

        var description: String { rawValue }

        func apply(to manifest: inout [String: Any], in folder: TemporaryFolder) throws {
            switch self {
            case .clipOutsideTheStore:
                try FileManager.default.createDirectory(atPath: folder.file("outside"), withIntermediateDirectories: true)
                try FileManager.default.moveItem(atPath: folder.file("dist/wechat/1.0.0/clips/5.caf"), toPath: folder.file("outside/x.caf"))
                var clips = manifest["clips"] as? [String: [String: Any]] ?? [:]
                clips["5"]?["file"] = "../../../outside/x.caf"
                manifest["clips"] = clips
            case .readingOption:
                manifest["tenStart"] = "yi-shi"
            case .nulInText:
                manifest["texts"] = ["prefix": "微信到账\u{0}"]
            case .invalidPhrases:
                manifest["phrases"] = ["x": ["nope", "{amount}"]]
                manifest["defaultPhrase"] = "x"
            }
        }
    }

    static func run(_ arguments: [String], _ folder: TemporaryFolder) throws -> ExecutionResult {
        try Executable.run(arguments, in: folder.path)
    }

    static func json(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// Writes `object` as `path` and returns the SHA-256 of the bytes written.
    @discardableResult
    static func write(_ object: [String: Any], to path: String) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: path))
        return Digest.sha256Hex(data)
    }

    /// index.json with `update` applied to its entry of `id@version` (created from `from`'s when missing).
    static func editIndex(_ folder: TemporaryFolder, _ id: String, from: String = "wechat", _ update: (inout [String: Any]) -> Void) throws {
        var index = try json(folder.file("dist/index.json"))
        var packs = index["packs"] as? [String: [String: Any]] ?? [:]
        var pack = packs[id] ?? packs[from] ?? [:]
        var versions = pack["versions"] as? [String: [String: Any]] ?? [:]
        var entry = versions["1.0.0"] ?? [:]
        update(&entry)
        versions["1.0.0"] = entry
        pack["versions"] = versions
        packs[id] = pack
        index["packs"] = packs
        try write(index, to: folder.file("dist/index.json"))
    }

    /// The project's catalog made to record the edited manifest, as a catalog rebuilt from the
    /// edited store by an earlier release did (the catalog's own triggers keep published rows
    /// immutable, so they go first).
    static func catalogRecords(_ folder: TemporaryFolder, manifestSha256: String, clip5: String?) throws {
        let database = try SQLiteDatabase(path: folder.file(".soundpack/catalog.sqlite"))
        try database.execute("DROP TRIGGER published_records_are_immutable; DROP TRIGGER published_clips_are_immutable")
        try database.execute("UPDATE versions SET manifest_sha256 = '\(manifestSha256)'")
        if let clip5 { try database.execute("UPDATE clips SET store_file = '\(clip5)' WHERE token = '5'") }
    }

    @Test(arguments: Edit.allCases)
    func anEditedManifestIsRefusedByRebuildAndIsDriftForVerify(_ edit: Edit) throws {
        let folder = try PublishEndToEndTests.project()
        #expect(try Self.run(["publish"], folder).status == 0)
        let manifestPath = folder.file("dist/wechat/1.0.0/manifest.json")
        var manifest = try Self.json(manifestPath)
        try edit.apply(to: &manifest, in: folder)
        let sha = try Self.write(manifest, to: manifestPath)
        try Self.editIndex(folder, "wechat") { $0["manifestSha256"] = sha }

        // catalog rebuild --from-store: refused, nothing recorded (it recorded the version, reading outside the store).
        let rebuilt = ["--catalog", folder.file("rebuilt.sqlite")]
        let rebuild = try Self.run(["catalog", "rebuild", "--from-store"] + rebuilt, folder)
        #expect(rebuild.status == 3, "\(edit): \(rebuild.stdout)\(rebuild.stderr)")
        #expect(rebuild.stderr.contains("dist/wechat/1.0.0/manifest.json"), "\(edit): \(rebuild.stderr)")
        #expect(try !Self.run(["list"] + rebuilt, folder).stdout.contains("wechat"), "\(edit)")

        // verify, with a catalog that records the edited manifest: drift (it said no drift).
        try Self.catalogRecords(folder, manifestSha256: sha, clip5: edit == .clipOutsideTheStore ? "../../../outside/x.caf" : nil)
        let verify = try Self.run(["verify"], folder)
        #expect(verify.status == 1, "\(edit): \(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("dist/wechat/1.0.0/manifest.json: error: [store.changed]"), "\(edit): \(verify.stdout)")

        // export never hands it to phones.
        let export = try Self.run(["export", "wechat", "-o", "out.plist"], folder)
        #expect(export.status == 3, "\(edit): \(export.stdout)\(export.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.plist")), "\(edit)")
    }

    /// A pack id in index.json that is no pack id (`../evil`) names files outside the store: rebuild
    /// read a version there and recorded it, and the next publish wrote it back into index.json.
    @Test func aPackIDInTheIndexThatLeavesTheStoreIsRefused() throws {
        let folder = try PublishEndToEndTests.project()
        #expect(try Self.run(["publish"], folder).status == 0)
        // A whole version beside the store, its manifest naming itself ../evil.
        try FileManager.default.createDirectory(atPath: folder.file("evil"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder.file("dist/wechat/1.0.0"), toPath: folder.file("evil/1.0.0"))
        var manifest = try Self.json(folder.file("evil/1.0.0/manifest.json"))
        manifest["id"] = "../evil"
        let sha = try Self.write(manifest, to: folder.file("evil/1.0.0/manifest.json"))
        try Self.editIndex(folder, "../evil") { entry in
            entry["manifest"] = "../evil/1.0.0/manifest.json"
            entry["manifestSha256"] = sha
        }

        let rebuild = try Self.run(["catalog", "rebuild", "--from-store", "--catalog", folder.file("rebuilt.sqlite")], folder)
        #expect(rebuild.status == 3, "\(rebuild.stdout)\(rebuild.stderr)")
        #expect(rebuild.stderr.contains("'../evil' is not a pack id"), "\(rebuild.stderr)")

        try PublishEndToEndTests.setVersion(folder.file("packs/wechat"), "1.0.1")
        let publish = try Self.run(["publish"], folder)
        #expect(publish.status == 3, "\(publish.stdout)\(publish.stderr)")
        #expect(publish.stderr.contains("'../evil' is not a pack id"), "\(publish.stderr)")
        #expect(try !String(contentsOfFile: folder.file("dist/index.json"), encoding: .utf8).contains("1.0.1"))

        let verify = try Self.run(["verify"], folder)
        #expect(verify.status == 1 && verify.stdout.contains("index.json: error: [store.index]") && verify.stdout.contains("'../evil' is not a pack id"), "\(verify.stdout)")
    }

    /// The manifest publish writes is the one rebuild and verify recompute: an untouched store
    /// passes both, for a pack with phrases and reading options too.
    @Test func anUntouchedStorePassesRebuildAndVerify() throws {
        let folder = try PublishEndToEndTests.project()
        try Fixtures.copyDemoPack(into: folder, as: "packs/merchant", from: Fixtures.merchantPack)
        try Fixtures.editManifest(folder.file("packs/wechat")) { $0["grammarOptions"] = ["two": "er", "tenStart": "yi-shi"] }
        #expect(try Self.run(["publish"], folder).status == 0)
        let rebuild = try Self.run(["catalog", "rebuild", "--from-store", "--catalog", folder.file("rebuilt.sqlite")], folder)
        #expect(rebuild.status == 0 && rebuild.stdout.contains("2 versions recorded"), "\(rebuild.stdout)\(rebuild.stderr)")
        for catalog in [[], ["--catalog", folder.file("rebuilt.sqlite")]] {
            let verify = try Self.run(["verify"] + catalog, folder)
            #expect(verify.status == 0, "\(catalog): \(verify.stdout)\(verify.stderr)")
        }
        let export = try Self.run(["export", "wechat", "merchant", "--namespace", "-o", "out.plist"], folder)
        #expect(export.status == 0, "\(export.stdout)\(export.stderr)")
    }
}

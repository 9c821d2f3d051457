// The validator's report: the parsed pack.json stays typed, the folder is named as the user wrote
// it, and the JSON rendering keeps its documented keys.

import Foundation
import Synchronization
import Testing
import SoundpackCore
import SoundpackTestSupport
@testable import SoundpackKit

@Suite struct ValidatorTests {
    @Test func theReportKeepsTheTypedManifestAndTheFolderAsTyped() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        try Fixtures.editManifest(pack) { $0["grammarOptions"] = ["two": "liang"]; $0["maxAmount"] = "9999.99" }
        let report = Validator().validate(folder: PackFolder(path: pack, shown: "packs/wechat"))
        let manifest = try #require(report.packFile)
        #expect(manifest.grammar == Grammar(.zhHans, two: .liang))
        #expect(manifest.profile == .iosNotification)
        #expect(report.version == SemanticVersion("1.0.0"))
        #expect(report.folder.shown == "packs/wechat")
        #expect(report.folder.path == pack)
        // 两 is needed from 200 up with liang, and the demo pack has no clip for it.
        #expect(report.findings.contains { $0.rule == .coverageMissingToken && $0.token == "两" })
        #expect(ValidationRun.location(report, report.findings[0]) == "packs/wechat/pack.json")
    }

    @Test func theJSONRenderingHasTheSchemaKeys() throws {
        let report = Validator().validate(folder: PackFolder(path: Fixtures.demoPack, shown: "packs/wechat"))
        let object = try #require(try JSONSerialization.jsonObject(with: try StoreJSON.encode(report)) as? [String: Any])
        #expect(object["directory"] as? String == "packs/wechat")
        #expect(object["two"] as? String == "er")
        #expect(object["profile"] as? String == "ios-notification")
        #expect(object["version"] as? String == "1.0.0")
        #expect((object["checks"] as? [String: Any])?["maxLeadingSilenceMs"] as? Double == 60)
        #expect(object["ignoredByPack"] == nil)
        let clip = try #require((object["clips"] as? [[String: Any]])?.first)
        #expect(clip["token"] as? String == "prefix")
    }

    /// pack.json's reasons for its checks reach the JSON report, where CI and reviewers read them.
    @Test func theJSONRenderingCarriesTheReasonsForChecks() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        try Fixtures.editManifest(pack) { manifest in
            manifest["checks"] = ["bannerCutSeconds": 10, "ignore": ["audio.dc-offset"],
                                  "reasons": ["bannerCutSeconds": "users choose Persistent banners", "audio.dc-offset": "old interface"]]
        }
        let report = Validator().validate(folder: PackFolder(path: pack, shown: "packs/wechat"))
        let object = try #require(try JSONSerialization.jsonObject(with: try StoreJSON.encode(report)) as? [String: Any])
        #expect(object["checkReasons"] as? [String: String] == ["bannerCutSeconds": "users choose Persistent banners", "audio.dc-offset": "old interface"])
        #expect((object["checks"] as? [String: Any])?["bannerCutSeconds"] as? Double == 10)
    }

    @Test func aPackWithoutPackJSONHasNoManifestAndNoDigest() {
        let folder = TemporaryFolder()
        let report = Validator().validate(folder: PackFolder(path: folder.path, shown: "empty"))
        #expect(report.packFile == nil)
        #expect(report.digest == nil)
        #expect(report.title == "empty")
        #expect(report.findings.map(\.rule) == [.manifestInvalid])
    }

    @Test func suppressionRecountsWithoutDroppingFindings() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        try FileManager.default.removeItem(atPath: pack + "/clips/7.caf")
        var report = Validator().validate(folder: PackFolder(absolute: pack))
        #expect(report.errors == 1)
        report.suppress(Suppressions(rules: [.fileUnreadable]))
        #expect(report.errors == 0 && report.suppressed == 1)
        #expect(report.findings.count == 1)
    }
}

/// The cost of validating is bounded by the pack's files, not by how many keys name them.
@Suite struct ValidationCostTests {
    @Test func aFileNamedByManyKeysIsProbedOnce() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        try Fixtures.writeClip(Fixtures.tone(seconds: 29, sampleRate: 8_000), to: pack + "/clips/long.caf", sampleRate: 8_000)
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            for index in 0..<230 { clips["extra-\(index)"] = index % 2 == 0 ? "clips/long.caf" : "./clips//long.caf" }
            object["clips"] = clips
        }
        let totals = Mutex<Set<Int>>([])
        let report = Validator().validate(folders: [PackFolder(absolute: pack)]) { _, total in totals.withLock { _ = $0.insert(total) } }[0]
        // 18 demo clips and one long file, whatever the number of keys.
        #expect(totals.withLock { $0 } == [19])
        let long = report.clips.filter { $0.file.hasSuffix("long.caf") }
        #expect(long.count == 230 && Set(long.map { $0.facts?.frames }).count == 1 && (long.first?.facts?.frames ?? 0) > 232_000)
        #expect(report.findings.filter { $0.rule == .audioTooLong }.count == 230)
    }

    @Test func morePackJSONClipsThanAPackCanHaveAreRefused() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            for index in 0..<300 { clips["extra-\(index)"] = "clips/1.caf" }
            object["clips"] = clips
        }
        let report = Validator().validate(folder: PackFolder(absolute: pack))
        #expect(report.findings.map(\.rule) == [.manifestInvalid])
        #expect(report.findings.first?.message.contains("at most 256") == true)
    }

    @Test func filesBeyondThePacksByteBudgetAreNotRead() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        var inspector = PackInspector()
        inspector.limits.maxPackBytes = 200_000
        let report = Validator(inspector: inspector).validate(folder: PackFolder(absolute: pack))
        let unread = report.clips.filter { $0.error?.contains("MiB in all") == true }
        #expect(!unread.isEmpty)
        #expect(report.clips.filter { $0.facts != nil }.reduce(0) { $0 + ($1.facts?.bytes ?? 0) } <= 200_000)
    }
}

@Suite struct PackFileListingTests {
    /// A name that starts with a combining mark joins the `/` before it into one character; the
    /// listing must still see it (a prefix test on characters would skip it).
    @Test func anOrphanNamedWithALeadingCombiningMarkIsFound() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        try FileManager.default.copyItem(atPath: pack + "/clips/1.caf", toPath: pack + "/clips/\u{065E}x.caf")
        let report = Validator().validate(folder: PackFolder(absolute: pack))
        #expect(report.findings.contains { $0.rule == .coverageOrphanFile && $0.file == "clips/\u{065E}x.caf" }, "\(report.findings)")
    }
}

// The validator's report: the parsed pack.json stays typed, the folder is named as the user wrote
// it, and the JSON rendering keeps its documented keys.

import Foundation
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
        let manifest = try #require(report.manifest)
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

    @Test func aPackWithoutPackJSONHasNoManifestAndNoDigest() {
        let folder = TemporaryFolder()
        let report = Validator().validate(folder: PackFolder(path: folder.path, shown: "empty"))
        #expect(report.manifest == nil)
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
        report.suppress(rules: [.fileUnreadable], baseline: [])
        #expect(report.errors == 0 && report.suppressed == 1)
        #expect(report.findings.count == 1)
    }
}

// The renderings of one validation run name packs by the folder as the user typed it.

import Foundation
import Testing
import SoundpackCore
import SoundpackTestSupport
@testable import SoundpackKit

@Suite struct FindingRendererTests {
    static func brokenReport() throws -> (TemporaryFolder, PackReport) {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        try FileManager.default.removeItem(atPath: pack + "/clips/7.caf")
        return (folder, Validator().validate(folder: PackFolder(path: pack, shown: "packs/wechat/")))
    }

    @Test func textNamesTheFolderAsTypedWithoutADoubleSlash() throws {
        let (_, report) = try Self.brokenReport()
        let text = FindingRenderer.text(ValidationRun(reports: [report], strict: false, toolVersion: "t"), colour: false)
        #expect(text.hasPrefix("packs/wechat/clips/7.caf: error: [file.unreadable]"))
        #expect(text.contains("packs/wechat/: failed — wechat 1.0.0, 18 clips"))
        #expect(!text.contains("\u{1B}["))
    }

    @Test func junitNamesTheSuiteByFolderAndCarriesThePackAsAProperty() throws {
        let (_, report) = try Self.brokenReport()
        let xml = FindingRenderer.junit(ValidationRun(reports: [report], strict: false, toolVersion: "t"))
        #expect(xml.contains("<testsuite name=\"packs/wechat/\""))
        #expect(xml.contains("<property name=\"pack\" value=\"wechat@1.0.0\"/>"))
        #expect(xml.contains("[file.unreadable] packs/wechat/clips/7.caf"))
    }
}

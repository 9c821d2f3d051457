// The HTML report says why a pack that validated has no sample announcements or a clip no
// waveform, instead of leaving them out or blaming errors the pack does not have.

import Foundation
import Testing
import SoundpackKit
import SoundpackTestSupport

@Suite struct HTMLReportTests {
    static func count(_ needle: String, in haystack: String) -> Int { haystack.components(separatedBy: needle).count - 1 }

    /// A clip gone after validation: the pack passed, so the report names the missing clip where
    /// the players would be, and the clip's row says why it has no waveform.
    @Test func aClipThatChangedSinceValidationIsSaidNotSkipped() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        let report = Validator().validate(folder: PackFolder(path: pack, shown: "wechat"))
        #expect(report.errors == 0)
        try FileManager.default.removeItem(atPath: pack + "/clips/5.caf")

        let html = HTMLReport.render([report], toolVersion: "test")
        #expect(!html.contains("until its errors are fixed"), "the pack has no errors")
        #expect(html.contains("<p class=\"muted\">Not rendered: cannot read clip 'clips/5.caf' for '5': "), "\(html)")
        let row5 = try #require(html.components(separatedBy: "<tr class=\"clip\" data-token=\"5\"").last?.components(separatedBy: "</tr>").first)
        #expect(row5.contains("<span class=\"muted\">not drawn: "), "\(row5)")
        #expect(Self.count("<svg class=\"wave\"", in: html) == 17)
    }
}

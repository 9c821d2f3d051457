// The HTML report renders what `render` would: an announcement iOS would not play (compose.too-long)
// is named, not rendered into the page as minutes of base64 audio.

import Foundation
import Testing
import SoundpackTestSupport

@Suite struct ReportBoundsTests {
    @Test func aPhraseRenderRefusesIsNotRenderedIntoTheReport() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "merchant", from: Fixtures.merchantPack)
        try Fixtures.writeClip(Fixtures.tone(seconds: 20, amplitude: 0.3), to: pack + "/clips/order.caf")
        try Fixtures.editManifest(pack) { manifest in
            var phrases = manifest["phrases"] as? [String: [String]] ?? [:]
            phrases["order"] = Array(repeating: "order", count: 16)  // 320 s
            manifest["phrases"] = phrases
            manifest["checks"] = ["maxClipSeconds": 30]
        }
        let refused = try Executable.run(["render", "--pack", "merchant", "--phrase", "order", "-o", "order.caf"], in: folder.path)
        #expect(refused.status == 1 && refused.stderr.contains("compose.too-long"), "\(refused.stderr)")

        let report = try Executable.run(["report", "merchant", "-o", "report.html"], in: folder.path)
        #expect(report.status == 1, "\(report.stderr)")
        let html = try String(contentsOfFile: folder.file("report.html"), encoding: .utf8)
        #expect(html.contains("data-phrase=\"order\"><figcaption>order</figcaption><p class=\"muted\">Not rendered: [compose.too-long] the announcement of phrase 'order' lasts 320."), "\(html.utf8.count) bytes")
        // The 20 s clip's own player is in the page (about 1.2 MB); 320 s of announcement would be 19 MB more.
        #expect(html.utf8.count < 4_000_000, "\(html.utf8.count) bytes")
        #expect(html.contains("data-phrase=\"wechat\""), "the other phrases are still rendered")
    }
}

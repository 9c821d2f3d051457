// `soundpack report`: one self-contained HTML file with every part a reviewer needs.

import Foundation
import Testing
import SoundpackTestSupport

@Suite struct ReportEndToEndTests {
    static func count(_ needle: String, in haystack: String) -> Int { haystack.components(separatedBy: needle).count - 1 }

    @Test func theReportIsSelfContainedAndComplete() throws {
        let folder = TemporaryFolder()
        try FormatGoldenTests.brokenPack(in: folder)
        // The demo pack at the default banner threshold, for a finding about the whole pack.
        let good = try Fixtures.copyDemoPack(into: folder)
        try Fixtures.restoreDefaultBannerCut(good)
        let result = try Executable.run(["report", good, "packs/broken", "-o", "report.html"], in: folder.path)
        // Written either way; a pack with errors makes the exit code 1, as validate's.
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("report.html: 2 packs (1 failed)"))
        #expect(result.stderr.contains("packs/broken: failed — 2 errors"))
        let html = try String(contentsOfFile: folder.file("report.html"), encoding: .utf8)

        #expect(html.hasPrefix("<!DOCTYPE html>"))
        // Nothing is fetched: no scripts, no external styles, images or media.
        #expect(!html.contains("<script"))
        #expect(!html.contains("src=\"http"))
        #expect(!html.contains("href=\"http"))
        #expect(!html.contains("url(http"))

        #expect(Self.count("<section class=\"pack\"", in: html) == 2)
        // The demo pack: 18 readable clips; the broken one: 17 entries, 16 readable (5.caf is text).
        #expect(Self.count("<tr class=\"clip\"", in: html) == 18 + 17)
        #expect(Self.count("<svg class=\"wave\"", in: html) == 18 + 16)
        #expect(Self.count("<rect class=\"silence\"", in: html) == 2 * (18 + 16))
        #expect(Self.count("<svg class=\"loudness\"", in: html) == 2)
        #expect(Self.count("<rect class=\"bar\"", in: html) == 18 + 16)
        // Players for every readable clip, and for 4 sample amounts and the worst case of the good pack.
        #expect(Self.count("<audio controls", in: html) == 18 + 16 + 5)
        #expect(Self.count("src=\"data:audio/wav;base64,UklGR", in: html) == 18 + 16 + 5)
        #expect(html.contains("of iOS's 30 s limit"))
        #expect(html.contains("Not rendered: the pack cannot be joined until its errors are fixed."))

        // Every finding sits next to the clip it concerns; pack-level ones at the top of the pack.
        let row5 = try #require(html.components(separatedBy: "<tr class=\"clip\" data-token=\"5\"").last?.components(separatedBy: "</tr>").first)
        #expect(row5.contains("data-rule=\"file.unreadable\""))
        let row7 = try #require(html.components(separatedBy: "<tr class=\"clip\" data-token=\"7\"").last?.components(separatedBy: "</tr>").first)
        #expect(row7.contains("data-rule=\"audio.dc-offset\""))
        #expect(html.contains("<span class=\"rule\">clips/extra.wav</span>: <span class=\"rule\">[coverage.orphan-file]</span>"))
        #expect(Self.count("<div class=\"finding ", in: html) == 6)
        #expect(html.contains("data-rule=\"compose.banner-cut\""))
        // The missing token has its row, the pack's name is shown, and the failing pack says why it has no worst case.
        let missing = try #require(html.components(separatedBy: "<tr class=\"clip missing\" data-token=\"百\"").last?.components(separatedBy: "</tr>").first)
        #expect(missing.contains("data-rule=\"coverage.missing-token\""))
        #expect(html.contains("<p class=\"name\">WeChat Pay — payment received</p>"))
        #expect(html.contains("No figure: a clip some amount needs is missing or unreadable"))
        #expect(html.contains("@media (max-width:600px)"))
    }

    @Test func badAmountsAndMissingFoldersAreErrors() throws {
        let folder = TemporaryFolder()
        let amount = try Executable.run(["report", Fixtures.demoPack, "--amount", "1e3", "-o", "r.html"], in: folder.path)
        #expect(amount.status == 1 && amount.stderr.contains("'1e3' is not an amount"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("r.html")))
        let missing = try Executable.run(["report", "packs/nonexist", "-o", "r.html"], in: folder.path)
        #expect(missing.status == 1 && missing.stderr.contains("packs/nonexist: failed"))
    }
}

// Every rendering of one broken pack (2 errors, 3 warnings) against golden files.
// Re-record with SOUNDPACK_RECORD_GOLDEN=1; a recording run fails so it is never mistaken for a pass.

import Foundation
import Testing
import SoundpackKit
import SoundpackTestSupport

@Suite struct FormatGoldenTests {
    static let goldenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden").path

    /// The demo pack with two errors (a missing token, an unreadable clip) and three warnings (an
    /// orphan file, leading silence, DC offset), in `folder/packs/broken`.
    static func brokenPack(in folder: TemporaryFolder) throws {
        try FileManager.default.createDirectory(atPath: folder.file("packs"), withIntermediateDirectories: true)
        let pack = try Fixtures.copyDemoPack(into: folder, as: "packs/broken")
        let clips = pack + "/clips/"
        try Fixtures.editManifest(pack) { object in
            var entries = object["clips"] as? [String: Any] ?? [:]
            entries["百"] = nil
            object["clips"] = entries
            object["id"] = "broken"
        }
        try FileManager.default.removeItem(atPath: clips + "bai.caf")
        try Data(String(repeating: "not audio. ", count: 2_000).utf8).write(to: URL(fileURLWithPath: clips + "5.caf"))
        try Fixtures.writeClip(Fixtures.tone(seconds: 0.2), to: clips + "extra.wav", container: .wav)
        let three = try AudioProbe().decode(path: clips + "3.caf")
        try Fixtures.writeClip([Float](repeating: 0, count: 6_615) + three.samples, to: clips + "3.caf")
        let seven = try AudioProbe().decode(path: clips + "7.caf")
        try Fixtures.writeClip(seven.samples.map { $0 + 0.01 }, to: clips + "7.caf")
    }

    @Test(arguments: ["text", "json", "junit", "github", "sarif"])
    func matchesTheGoldenFile(_ format: String) throws {
        let folder = TemporaryFolder()
        try Self.brokenPack(in: folder)
        let result = try Executable.run(["validate", "packs/broken", "--format", format, "--no-record"], in: folder.path)
        #expect(result.status == 1)
        // JUnit times vary run to run: compared as T.
        let stdout = result.stdout.replacing(#/time="[0-9.]+"/#, with: #"time="T""#)
        let golden = "\(Self.goldenFolder)/broken.\(format)"
        if ProcessInfo.processInfo.environment["SOUNDPACK_RECORD_GOLDEN"] != nil {
            try Data(stdout.utf8).write(to: URL(fileURLWithPath: golden))
            Issue.record("recorded \(golden); run again without SOUNDPACK_RECORD_GOLDEN")
            return
        }
        let expected = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(stdout == expected, "\(format) differs from \(golden)")
    }

    /// The same five findings, whatever the rendering.
    @Test func everyFormatCarriesTheSameFiveFindings() throws {
        let folder = TemporaryFolder()
        try Self.brokenPack(in: folder)
        func render(_ format: String) throws -> String {
            try Executable.run(["validate", "packs/broken", "--format", format, "--no-record"], in: folder.path).stdout
        }
        let expected: Set<String> = ["coverage.missing-token", "file.unreadable", "coverage.orphan-file", "audio.leading-silence", "audio.dc-offset"]
        let text = try render("text").split(separator: "\n").compactMap { line in line.firstRange(of: "[").map { String(line[$0.upperBound...].prefix { $0 != "]" }) } }
        #expect(Set(text) == expected && text.count == 5)
        let json = try JSONSerialization.jsonObject(with: Data(try render("json").utf8)) as? [String: Any]
        let findings = ((json?["packs"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]]) ?? []
        #expect(Set(findings.compactMap { $0["rule"] as? String }) == expected && findings.count == 5)
        let github = try render("github").split(separator: "\n")
        #expect(github.filter { $0.hasPrefix("::error ") }.count == 2 && github.filter { $0.hasPrefix("::warning ") }.count == 3)
        let sarif = try JSONSerialization.jsonObject(with: Data(try render("sarif").utf8)) as? [String: Any]
        let results = ((sarif?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
        #expect(Set(results.compactMap { $0["ruleId"] as? String }) == expected && results.count == 5)
        let junit = try render("junit")
        #expect(junit.components(separatedBy: "<failure ").count - 1 == 2)
        #expect(junit.components(separatedBy: "<system-out>").count - 1 == 3)
    }

    @Test func suppressionIsVisibleAndBaselinesOnlyFailOnNewFindings() throws {
        let folder = TemporaryFolder()
        try Self.brokenPack(in: folder)
        let ignored = try Executable.run(["validate", "packs/broken", "--ignore", "audio.dc-offset", "--strict", "--no-record"], in: folder.path)
        #expect(ignored.stdout.contains("note: suppressed [audio.dc-offset]"))
        #expect(ignored.stdout.contains("(ignored by --ignore audio.dc-offset)"))
        #expect(ignored.stdout.contains("2 errors, 2 warnings, 1 suppressed"))
        try Fixtures.editManifest(folder.file("packs/broken")) { object in
            var checks = object["checks"] as? [String: Any] ?? [:]
            checks["ignore"] = ["coverage.orphan-file"]
            object["checks"] = checks
        }
        let byPack = try Executable.run(["validate", "packs/broken", "--no-record"], in: folder.path)
        #expect(byPack.stdout.contains("(ignored by pack.json checks.ignore)"))

        // Accept today's findings; a new one fails the gate, the old ones do not.
        let baseline = try Executable.run(["validate", "packs/broken", "--format", "json", "--output", "baseline.json", "--no-record"], in: folder.path)
        #expect(baseline.stdout.contains("packs/broken: failed"))
        let clean = try Executable.run(["validate", "packs/broken", "--baseline", "baseline.json", "--strict", "--no-record"], in: folder.path)
        #expect(clean.status == 0, "\(clean.stdout)")
        #expect(clean.stdout.contains("(in the baseline)"))
        try Data("not audio either".utf8).write(to: URL(fileURLWithPath: folder.file("packs/broken/clips/6.caf")))
        let regressed = try Executable.run(["validate", "packs/broken", "--baseline", "baseline.json", "--no-record"], in: folder.path)
        #expect(regressed.status == 1)
        #expect(regressed.stdout.contains("packs/broken/clips/6.caf: error: [file.unreadable]"))
        #expect(try Executable.run(["validate", "packs/broken", "--ignore", "no.such-rule"], in: folder.path).status == 2)
    }
}

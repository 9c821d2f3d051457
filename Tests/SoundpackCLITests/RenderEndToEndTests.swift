// `soundpack render`: the joined file is exactly the clips in reading order, with gaps, and its
// length agrees to the frame with the duration compose.too-long computes.

import Foundation
import Testing
import SoundpackCore
import SoundpackKit
import SoundpackTestSupport

@Suite struct RenderEndToEndTests {
    static let root = Fixtures.repositoryRoot

    static func decode(_ path: String) throws -> DecodedAudio { try AudioProbe().decode(path: path) }

    static func clipSamples(_ amount: String) throws -> [[Float]] {
        let files = try Executable.run(["say", "--pack", "packs/wechat", "--format", "files", amount], in: root)
        return try files.stdout.split(whereSeparator: \.isWhitespace).map { try decode(root + "/packs/wechat/" + $0).samples }
    }

    @Test(arguments: ["1234.56", "0.05", "10010", "99999999.99"])
    func theFileIsTheClipsInReadingOrder(_ amount: String) throws {
        let folder = TemporaryFolder()
        let result = try Executable.run(["render", "--pack", "packs/wechat", amount, "-o", folder.file("a.caf")], in: Self.root)
        #expect(result.status == 0, "\(result.stderr)")
        let rendered = try Self.decode(folder.file("a.caf"))
        #expect(rendered.format.container == .caf)
        #expect(rendered.format.codec == .lpcm)
        #expect(rendered.format.bitsPerSample == 16)
        #expect(rendered.sampleRate == 22_050)
        #expect(rendered.samples == Array(try Self.clipSamples(amount).joined()))
    }

    @Test(arguments: [("wav", Container.wav), ("aiff", .aiff)])
    func gapsAddExactlyTheirFrames(_ ext: String, _ container: Container) throws {
        let folder = TemporaryFolder()
        let output = folder.file("a.\(ext)")
        let result = try Executable.run(["render", "--pack", "packs/wechat", "15.40", "--gap-ms", "50", "-o", output], in: Self.root)
        #expect(result.status == 0, "\(result.stderr)")
        let rendered = try Self.decode(output)
        #expect(rendered.format.container == container)
        let clips = try Self.clipSamples("15.40")
        let gap = [Float](repeating: 0, count: 1_103)  // 50 ms at 22050 Hz, rounded
        var expected: [Float] = []
        for (i, clip) in clips.enumerated() {
            if i > 0 { expected += gap }
            expected += clip
        }
        #expect(rendered.frames == clips.reduce(0) { $0 + $1.count } + gap.count * (clips.count - 1))
        #expect(rendered.samples == expected)
    }

    /// compose.too-long's worst case and render's output count frames the same way.
    @Test func theWorstCaseLastsWhatValidateSays() throws {
        let folder = TemporaryFolder()
        let report = try Executable.run(["validate", "packs/wechat", "--format", "json", "--no-record"], in: Self.root)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let worst = try #require((document["packs"] as? [[String: Any]])?.first?["worstCase"] as? [String: Any])
        let amount = try #require(worst["amount"] as? String)
        let frames = try #require(worst["frames"] as? Int)
        #expect(try Executable.run(["render", "--pack", "packs/wechat", amount, "-o", folder.file("w.wav")], in: Self.root).status == 0)
        #expect(try Self.decode(folder.file("w.wav")).frames == frames)

        // And no other amount is longer: sample a few thousand and compare.
        let renderer = try PackRenderer(directory: Self.root + "/packs/wechat")
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let other = Amount(minorUnits: Int64.random(in: 0...9_999_999_999, using: &rng))
            #expect(renderer.timing.frames(of: renderer.tokens(for: other)) <= Int64(frames))
            if renderer.timing.frames(of: renderer.tokens(for: other)) > Int64(frames) { break }
        }
    }

    @Test func bulkWritesOneFilePerAmountAndReportsBadLines() throws {
        let folder = TemporaryFolder()
        try folder.write("15.40\n15.4\nnot money\n0.05\n1,000\n", to: "amounts.txt")
        let result = try Executable.run(["render", "--pack", Self.root + "/packs/wechat", "--amounts", "amounts.txt", "-o", "out", "--container", "wav"],
                                        in: folder.path)
        #expect(result.status == 1)
        #expect(result.stderr == "error: line 3: 'not money' is not an amount — expected digits with at most one '.', like 15.40\n")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.file("out")).sorted()
        #expect(files == ["0.05.wav", "1000.wav", "15.40.wav"])
        #expect(try Self.decode(folder.file("out/15.40.wav")).samples == Array(try Self.clipSamples("15.40").joined()))

        let stdin = try Executable.run(["render", "--pack", Self.root + "/packs/wechat", "--amounts", "-", "-o", "in"], in: folder.path, input: "7\n8\n")
        #expect(stdin.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("in")).sorted() == ["7.caf", "8.caf"])
    }

    @Test func trimmingSilenceShortensEveryClip() throws {
        let folder = TemporaryFolder()
        let plain = try Executable.run(["render", "--pack", "packs/wechat", "15.40", "-o", folder.file("p.wav")], in: Self.root)
        let trimmed = try Executable.run(["render", "--pack", "packs/wechat", "15.40", "--trim-silence", "-o", folder.file("t.wav")], in: Self.root)
        #expect(plain.status == 0 && trimmed.status == 0)
        let full = try Self.decode(folder.file("p.wav")), cut = try Self.decode(folder.file("t.wav"))
        let facts = try AudioProbe().probe(path: folder.file("t.wav"))
        #expect(cut.frames < full.frames)
        #expect(facts.leadingSilenceMs == 0)
        #expect(facts.trailingSilenceMs == 0)
    }

    @Test func refusesWhatItCannotRender() throws {
        let folder = TemporaryFolder()
        #expect(try Executable.run(["render", "--pack", "packs/wechat", "1", "-o", folder.file("a.mp3")], in: Self.root).status == 2)
        #expect(try Executable.run(["render", "--pack", "packs/wechat", "1e3", "-o", folder.file("a.caf")], in: Self.root).status == 1)
        let pack = try Fixtures.copyDemoPack(into: folder)
        try Fixtures.writeClip(Fixtures.tone(seconds: 0.3, sampleRate: 44_100), to: pack + "/clips/8.caf", sampleRate: 44_100)
        let mismatch = try Executable.run(["render", "--pack", pack, "1", "-o", folder.file("a.caf")], in: folder.path)
        #expect(mismatch.status == 1)
        #expect(mismatch.stderr.contains("clips must share one format"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("a.caf")))
    }
}

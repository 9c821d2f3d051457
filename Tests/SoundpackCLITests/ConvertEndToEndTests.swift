// `soundpack convert`: an uneven raw pack becomes one that validates clean; failures leave nothing.

import Dispatch
import Foundation
import Synchronization
import Testing
import SoundpackKit
import SoundpackTestSupport

@Suite struct ConvertEndToEndTests {
    /// The demo pack as a voice actor might deliver it: 48 kHz stereo WAV, levels spread over
    /// 12 dB, and 300-400 ms of silence around every word.
    static func makeRawPack(in folder: TemporaryFolder) throws -> String {
        let raw = folder.file("raw")
        try FileManager.default.createDirectory(atPath: raw + "/clips", withIntermediateDirectories: true)
        let demo = Fixtures.demoPack
        var clips: [String: String] = [:]
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: demo + "/pack.json"))) as? [String: Any] ?? [:]
        for (index, (key, path)) in (manifest["clips"] as? [String: String] ?? [:]).sorted(by: { $0.key < $1.key }).enumerated() {
            let audio = try AudioProbe().decode(path: demo + "/" + path)
            let upsampled = try Resampler.resample(audio.samples, channels: 1, from: audio.sampleRate, to: 48_000)
            let gain = Float(pow(10, (Double(index * 7 % 13) - 9) / 20))  // -9 … +3 dB, scattered
            let voice = upsampled.map { $0 * gain * 0.7 }
            let padded = [Float](repeating: 0, count: 14_400) + voice + [Float](repeating: 0, count: 19_200)
            let stereo = padded.flatMap { [$0, $0 * 0.9] }
            let name = "clips/" + (path as NSString).lastPathComponent.replacingOccurrences(of: ".caf", with: ".wav")
            try Fixtures.writeClip(stereo, to: raw + "/" + name, sampleRate: 48_000, channels: 2, container: .wav)
            clips[key] = name
        }
        var document = manifest
        document["clips"] = clips
        document["$schema"] = nil
        try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted]).write(to: URL(fileURLWithPath: raw + "/pack.json"))
        return raw
    }

    static func fingerprint(_ folder: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for file in FileManager.default.enumerator(atPath: folder)?.compactMap({ $0 as? String }) ?? [] {
            let path = folder + "/" + file
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                result[file] = Digest.sha256Hex(try Data(contentsOf: URL(fileURLWithPath: path)))
            }
        }
        return result
    }

    @Test func anUnevenRawPackBecomesOneThatValidatesClean() throws {
        let folder = TemporaryFolder()
        let raw = try Self.makeRawPack(in: folder)
        let before = try Self.fingerprint(raw)
        let rawReport = try Executable.run(["validate", raw, "--no-record"], in: folder.path)
        #expect(rawReport.stdout.contains("[audio.leading-silence]"))
        #expect(rawReport.stdout.contains("[audio.loudness-outlier]"))

        let result = try Executable.run(["convert", raw, "packs/wechat", "--rate", "22050", "--mono", "--loudness", "-18", "--trim-silence"],
                                        in: folder.path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try Self.fingerprint(raw) == before, "the source was modified")

        // Clean, --strict included: the raw pack.json's checks (the raised banner threshold and its
        // reason) are the converted pack's.
        let json = try Executable.run(["validate", "packs/wechat", "--format", "json", "--strict", "--no-record"], in: folder.path)
        #expect(json.status == 0, "\(json.stdout)")
        let report = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["packs"] as? [[String: Any]])[0]
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(findings.isEmpty, "\(findings)")
        let reasons = try #require(report["checkReasons"] as? [String: String])
        #expect(reasons.keys.sorted() == ["bannerCutSeconds"])
        let clips = try #require(report["clips"] as? [[String: Any]])
        let source = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: raw + "/pack.json"))) as? [String: Any]
        #expect(Set(clips.compactMap { $0["token"] as? String }) == Set((source?["clips"] as? [String: String] ?? [:]).keys))
        for clip in clips {
            let facts = try #require(clip["facts"] as? [String: Any])
            #expect(facts["sampleRate"] as? Int == 22_050)
            #expect(facts["channels"] as? Int == 1)
            #expect(facts["container"] as? String == "caf")
            #expect((clip["file"] as? String)?.hasSuffix(".caf") == true)
        }
    }

    @Test(arguments: ["ulaw", "alaw"])
    func writesTheRequestedCodecAndContainer(_ codec: String) throws {
        let folder = TemporaryFolder()
        let result = try Executable.run(["convert", Fixtures.demoPack, "out", "--codec", codec, "--container", "aiff", "--rate", "8000"], in: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        let facts = try AudioProbe().probe(path: folder.file("out/clips/shi.aiff"))
        #expect(facts.codec.rawValue == codec)
        #expect(facts.sampleRate == 8_000)
    }

    @Test func aCorruptSourceClipLeavesNoDestination() throws {
        let folder = TemporaryFolder()
        let source = try Fixtures.copyDemoPack(into: folder, as: "src")
        try Data(String(repeating: "garbage ", count: 3_000).utf8).write(to: URL(fileURLWithPath: source + "/clips/5.caf"))
        let result = try Executable.run(["convert", "src", "out"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("clips/5.caf"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["src"])
    }

    /// Every unreadable clip and every missing token in one run, then nothing written.
    @Test func everyProblemOfTheSourceIsReportedInOneRun() throws {
        let folder = TemporaryFolder()
        let source = try Fixtures.copyDemoPack(into: folder, as: "src")
        try "not audio".write(toFile: source + "/clips/5.wav", atomically: true, encoding: .utf8)
        try "not audio either".write(toFile: source + "/clips/7.mp3", atomically: true, encoding: .utf8)
        try Fixtures.editManifest(source) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            clips["5"] = "clips/5.wav"
            clips["7"] = "clips/7.mp3"
            clips["百"] = nil
            object["clips"] = clips
        }
        let result = try Executable.run(["convert", "src", "out"], in: folder.path)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("3 problems in src"), "\(result.stderr)")
        #expect(result.stderr.contains("cannot read clip 'clips/5.wav' for '5'"), "\(result.stderr)")
        #expect(result.stderr.contains("cannot read clip 'clips/7.mp3' for '7'"), "\(result.stderr)")
        #expect(result.stderr.contains("no clip for token '百'"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["src"])
    }

    @Test func anUnwritableDestinationLeavesNothing() throws {
        let folder = TemporaryFolder()
        try folder.write("a file where a folder should be", to: "blocked")
        let result = try Executable.run(["convert", Fixtures.demoPack, "blocked/out"], in: folder.path)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["blocked"])
    }

    @Test func anExistingDestinationNeedsForce() throws {
        let folder = TemporaryFolder()
        try folder.write("keep me", to: "out/precious.txt")
        let refused = try Executable.run(["convert", Fixtures.demoPack, "out"], in: folder.path)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--force"))
        #expect(FileManager.default.fileExists(atPath: folder.file("out/precious.txt")))
        let forced = try Executable.run(["convert", Fixtures.demoPack, "out", "--force"], in: folder.path)
        #expect(forced.status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/precious.txt")))
        #expect(FileManager.default.fileExists(atPath: folder.file("out/pack.json")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out"])
    }
}

/// `convert` never replaces a DEST it did not create, cleans up after killed runs, and its staging
/// folders are never taken for packs.
@Suite struct ConvertDestinationTests {
    @Test func concurrentConvertsToOneDestinationLeaveOneWinnerAndReplaceNothing() throws {
        let folder = TemporaryFolder()
        _ = try Fixtures.copyDemoPack(into: folder, as: "packs/wechat")
        let results = FailureList()
        let statuses = Mutex<[Int32]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            do {
                let run = try Executable.run(["convert", "packs/wechat", "packs/wechat-16k", "--rate", "16000"], in: folder.path)
                statuses.withLock { $0.append(run.status) }
                if run.status != 0 && !run.stderr.contains("already exists") { results.append(run.stderr) }
            } catch { results.append("\(error)") }
        }
        #expect(statuses.withLock { $0.sorted() } == [0, 1, 1])
        #expect(results.all.isEmpty)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.file("packs")).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
        #expect(try Executable.run(["validate", "packs/wechat-16k", "--no-record"], in: folder.path).status == 0)
    }

    @Test func aKilledConversionsStagingIsRemovedAndNeverPublished() throws {
        let folder = TemporaryFolder()
        _ = try Fixtures.copyDemoPack(into: folder, as: "packs/wechat")
        // What a convert killed mid-run leaves: a hidden staging copy owned by a process that is gone
        // (4194305 is above the largest pid Linux hands out).
        let abandoned = folder.file("packs/.wechat-16k.converting-4194305-1")
        try FileManager.default.copyItem(atPath: Fixtures.demoPack, toPath: abandoned)
        let publish = try Executable.run(["publish"], in: folder.path)
        #expect(publish.status == 0, "\(publish.stdout)\(publish.stderr)")
        #expect(publish.stdout.contains("packs/wechat:") && !publish.stdout.contains("converting"))
        let convert = try Executable.run(["convert", "packs/wechat", "packs/wechat-16k", "--rate", "16000"], in: folder.path)
        #expect(convert.status == 0, "\(convert.stderr)")
        #expect(!FileManager.default.fileExists(atPath: abandoned))
    }
}

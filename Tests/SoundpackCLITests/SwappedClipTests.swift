// audio.swapped: a pack's clips compared with the version a store holds below it. Two files
// swapped between 1.0.0 and 1.0.1 are named in validate (with a store), refused by publish's gate and
// shown by diff; a re-encoded pack and one clip re-recorded are clean; a pack spoken by another
// voice gets one note and no finding. A store whose clip was altered is said in a note.

import Foundation
import Testing
import SoundpackAudio
import SoundpackTestSupport

@Suite struct SwappedClipTests {
    static let store = ["--store", "store", "--catalog", "catalog.sqlite"]

    /// A folder whose store holds the demo pack 1.0.0, and a copy of the pack at `1.0.1` to edit.
    static func published(_ folder: TemporaryFolder) throws -> String {
        let pack = try Fixtures.copyDemoPack(into: folder, as: "one")
        let published = try Executable.run(["publish", "one"] + store, in: folder.path)
        try #require(published.status == 0, "\(published.stdout)\(published.stderr)")
        let next = try Fixtures.copyDemoPack(into: folder, as: "next", from: pack)
        try Fixtures.editManifest(next) { $0["version"] = "1.0.1" }
        return next
    }

    /// The report of `validate PACK --format json` against the store, and its audio.swapped tokens.
    static func validate(_ pack: String, in folder: TemporaryFolder) throws -> (swapped: [String], notes: [String], status: Int32) {
        let result = try Executable.run(["validate", pack, "--format", "json", "--no-record"] + store, in: folder.path)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        let packs = try #require(report["packs"] as? [[String: Any]])
        let findings = try #require(packs.first?["findings"] as? [[String: Any]], "no findings in the report")
        let swapped = findings.filter { $0["rule"] as? String == "audio.swapped" }.compactMap { $0["token"] as? String }
        return (swapped.sorted(), packs.first?["notes"] as? [String] ?? [], result.status)
    }

    @Test func twoSwappedFilesAreNamedRefusedAndShown() throws {
        let folder = TemporaryFolder()
        let next = try Self.published(folder)
        try Fixtures.editManifest(next) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            (clips["5"], clips["6"]) = (clips["6"], clips["5"])
            object["clips"] = clips
        }
        let validated = try Self.validate("next", in: folder)
        #expect(validated.swapped == ["5", "6"])
        #expect(validated.status == 1)
        let text = try Executable.run(["validate", "next", "--no-record"] + Self.store, in: folder.path)
        #expect(text.stdout.contains("[audio.swapped] 5 now sounds like the earlier 6 of 1.0.0"), "\(text.stdout)")

        let refused = try Executable.run(["publish", "next"] + Self.store, in: folder.path)
        #expect(refused.status != 0)
        #expect((refused.stdout + refused.stderr).contains("audio.swapped"), "\(refused.stdout)\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("store/wechat/1.0.1")))

        let diff = try Executable.run(["diff", "wechat@1.0.0", "next"] + Self.store, in: folder.path)
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("audio changed: 5 — sounds like the earlier 6"), "\(diff.stdout)")
        #expect(diff.stdout.contains("audio changed: 6 — sounds like the earlier 5"), "\(diff.stdout)")
    }

    /// Two store files whose names are two spellings of one String (`é` composed, `e` + U+0301) are
    /// two files: the earlier version is read, and a swap between them is named.
    @Test func filesUnderTwoSpellingsOfANameAreTwoEarlierClips() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "one")
        let (composed, decomposed) = ("clips/\u{E9}.caf", "clips/e\u{301}.caf")
        try FileManager.default.moveItem(atPath: pack + "/clips/5.caf", toPath: pack + "/" + composed)
        try FileManager.default.moveItem(atPath: pack + "/clips/6.caf", toPath: pack + "/" + decomposed)
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            (clips["5"], clips["6"]) = (composed, decomposed)
            object["clips"] = clips
        }
        let published = try Executable.run(["publish", "one"] + Self.store, in: folder.path)
        try #require(published.status == 0, "\(published.stdout)\(published.stderr)")
        let next = try Fixtures.copyDemoPack(into: folder, as: "next", from: pack)
        try Fixtures.editManifest(next) { object in
            object["version"] = "1.0.1"
            var clips = object["clips"] as? [String: Any] ?? [:]
            (clips["5"], clips["6"]) = (decomposed, composed)
            object["clips"] = clips
        }
        let validated = try Self.validate("next", in: folder)
        #expect(!validated.notes.contains { $0.contains("not compared") }, "\(validated.notes)")
        #expect(validated.swapped == ["5", "6"])
    }

    /// Without a store nothing is compared, and nothing is said of it.
    @Test func withoutAStoreNothingIsCompared() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "alone")
        let result = try Executable.run(["validate", pack, "--format", "json", "--no-record"], in: folder.path)
        #expect(!result.stdout.contains("audio.swapped"))
        #expect(!result.stdout.contains("earlier version"))
    }

    /// A named store that holds nothing is said in the report, not silently skipped.
    @Test func aNamedStoreThatHoldsNothingIsSaid() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "alone")
        let named = try Executable.run(["validate", pack, "--format", "json", "--no-record", "--store", "nowhere"], in: folder.path)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdout.contains("clips not compared with the store's earlier version"), "\(named.stdout)")
    }

    /// The same words re-encoded (µ-law) and one clip re-recorded 5 % faster are no swap.
    @Test func aReencodedPackAndARetakeAreClean() throws {
        let folder = TemporaryFolder()
        let next = try Self.published(folder)
        let converted = try Executable.run(["convert", "next", "ulaw", "--codec", "ulaw"], in: folder.path)
        try #require(converted.status == 0, "\(converted.stderr)")
        #expect(try Self.validate("ulaw", in: folder).swapped == [])
        let five = next + "/clips/5.caf"
        let samples = try AudioProbe().decode(path: five).samples
        // Every 20th sample dropped: the same take, 5 % faster and 5 % higher.
        try Fixtures.writeClip(samples.enumerated().filter { $0.offset % 20 != 19 }.map(\.element), to: five)
        let retake = try Self.validate("next", in: folder)
        #expect(retake.swapped == [])
        #expect(retake.notes.allSatisfy { !$0.contains("voice changed") })
    }

    /// A pack spoken by another voice: one note that the voice changed, no finding.
    @Test func anotherVoiceIsOneNote() throws {
        let folder = TemporaryFolder()
        for (name, voice, version) in [("one", "cmn", "1.0.0"), ("two", "cmn+f3", "1.0.1")] {
            let made = try Executable.run(["synth", name, "--id", "voiced", "--voice", voice, "--max-amount", "99"], in: folder.path)
            try #require(made.status == 0, "\(made.stdout)\(made.stderr)")
            try Fixtures.editManifest(folder.file(name)) { $0["version"] = version }
        }
        let published = try Executable.run(["publish", "one"] + Self.store, in: folder.path)
        try #require(published.status == 0, "\(published.stdout)\(published.stderr)")
        let validated = try Self.validate("two", in: folder)
        #expect(validated.swapped == [])
        #expect(validated.notes.filter { $0.hasPrefix("the voice changed since 1.0.0") }.count == 1, "\(validated.notes)")
    }

    /// A clip of the earlier version altered in the store: not compared, and said.
    @Test func anAlteredStoreIsSaid() throws {
        let folder = TemporaryFolder()
        _ = try Self.published(folder)
        let stored = folder.file("store/wechat/1.0.0/clips/5.caf")
        try Data("not the clip".utf8).write(to: URL(fileURLWithPath: stored))
        let validated = try Self.validate("next", in: folder)
        #expect(validated.swapped == [])
        #expect(validated.notes.contains { $0.hasPrefix("clips not compared with the store's earlier version") && $0.contains("5.caf") }, "\(validated.notes)")
    }

    /// A store manifest is read as a budget: a clip larger than its manifest declares is not read
    /// past the declared size, and clips declared larger in all than a pack may hold (5 and 6 each
    /// at the size given: the largest integer too, whose sum overflows) are not read.
    @Test(arguments: [(10, "is above the"), (200 << 20, "declares clips of"), (Int.max, "declares clips of")])
    func aStoreManifestBoundsWhatIsRead(_ bytes: Int, _ said: String) throws {
        let folder = TemporaryFolder()
        _ = try Self.published(folder)
        let manifest = URL(fileURLWithPath: folder.file("store/wechat/1.0.0/manifest.json"))
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
        var clips = try #require(object["clips"] as? [String: [String: Any]])
        clips["5"]?["bytes"] = bytes
        clips["6"]?["bytes"] = bytes
        object["clips"] = clips
        try JSONSerialization.data(withJSONObject: object).write(to: manifest)
        let validated = try Self.validate("next", in: folder)
        #expect(validated.notes.contains { $0.hasPrefix("clips not compared with the store's earlier version") && $0.contains(said) }, "\(validated.notes)")
    }
}

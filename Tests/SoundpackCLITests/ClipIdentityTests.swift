// audio.duplicate and audio.voice-outlier, measured on a labelled set: clean packs (every demo
// pack, and packs synthesised with other voices, where Hindi's 33/35 and 43/45 sound alike in most
// of their length) must give no finding; planted copies (the same bytes, re-levelled, passed through µ-law, resampled and back)
// must each give one, naming the planted clip. A clip of a voice of the other sex, swapped between
// two packs synthesised with espeak-ng's male and female variants, is audio.voice-outlier.

import Foundation
import Testing
import SoundpackAudio
import SoundpackTestSupport

@Suite struct ClipIdentityTests {
    static func duplicates(_ pack: String, in folder: TemporaryFolder) throws -> [String] {
        try findings(of: "audio.duplicate", pack, in: folder)
    }

    /// The tokens `rule` names in `validate --format json` of `pack`.
    static func findings(of rule: String, _ pack: String, in folder: TemporaryFolder) throws -> [String] {
        let result = try Executable.run(["validate", pack, "--format", "json", "--no-record"], in: folder.path)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        let packs = try #require(report["packs"] as? [[String: Any]], "no packs in the report")
        try #require(!packs.isEmpty && packs.allSatisfy { $0["findings"] is [[String: Any]] }, "the report holds no pack's findings")
        return packs.flatMap { ($0["findings"] as? [[String: Any]] ?? []).filter { $0["rule"] as? String == rule }.compactMap { $0["token"] as? String } }
    }

    @Test(arguments: ["wechat", "merchant", "en-us", "hi-in"])
    func aDemoPackHasNoDuplicate(_ name: String) throws {
        let folder = TemporaryFolder()
        #expect(try Self.duplicates(Fixtures.repositoryRoot + "/packs/" + name, in: folder) == [])
        #expect(try Self.findings(of: "audio.voice-outlier", Fixtures.repositoryRoot + "/packs/" + name, in: folder) == [])
        #expect(try Self.findings(of: "audio.wrong-word", Fixtures.repositoryRoot + "/packs/" + name, in: folder) == [])
    }

    /// Two files whose names are two spellings of one String (`é` composed, `e` + U+0301) are two
    /// files on Linux: a copy of 5 under 6 in the second is a duplicate, not the first file again.
    @Test func aCopyUnderAnotherSpellingOfTheNameIsADuplicate() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "spelled")
        for name in ["\u{E9}", "e\u{301}"] { try FileManager.default.copyItem(atPath: pack + "/clips/5.caf", toPath: pack + "/clips/\(name).caf") }
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            (clips["5"], clips["6"]) = ("clips/\u{E9}.caf", "clips/e\u{301}.caf")
            object["clips"] = clips
        }
        #expect(try Self.duplicates("spelled", in: folder) == ["6"])
    }

    /// A grammar with no recogniser here says so once, in the report's notes and on the summary line.
    @Test(arguments: [("wechat", "zh-Hans"), ("hi-in", "hi-IN")])
    func wordsNotCheckedAreSaidOnce(_ name: String, _ grammar: String) throws {
        let folder = TemporaryFolder()
        let pack = Fixtures.repositoryRoot + "/packs/" + name
        let json = try Executable.run(["validate", pack, "--format", "json", "--no-record"], in: folder.path)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stderr)")
        let notes = (report["packs"] as? [[String: Any]])?.first?["notes"] as? [String]
        #expect(notes == ["words not checked (no recogniser for \(grammar))"])
        let text = try Executable.run(["validate", pack, "--no-record"], in: folder.path)
        #expect(text.stdout.components(separatedBy: "words not checked").count == 2, "\(text.stdout)")
    }

    /// Two clips of the en-us demo pack filed under each other's key (four and thousand) are heard
    /// as the other word, and no other clip is named.
    @Test(.recogniserInstalled)
    func aClipUnderAnotherWordsKeyIsHeard() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "misfiled", from: Fixtures.repositoryRoot + "/packs/en-us")
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            (clips["four"], clips["thousand"]) = (clips["thousand"], clips["four"])
            object["clips"] = clips
        }
        #expect(try Self.findings(of: "audio.wrong-word", "misfiled", in: folder).sorted() == ["four", "thousand"])
        let text = try Executable.run(["validate", "misfiled", "--no-record"], in: folder.path)
        #expect(text.stdout.contains("clips/thousand.caf (four) is heard as 'thousand', not 'four'"), "\(text.stdout)")
    }

    /// One file under every key of an English pack leaves one word to hear: nothing can be heard
    /// as another word, so audio.wrong-word is said not checked (a skipped JUnit case), not passed.
    @Test(.recogniserInstalled)
    func oneWordLeftIsNotChecked() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "one-file", from: Fixtures.repositoryRoot + "/packs/en-us")
        try Fixtures.editManifest(pack) { object in
            let clips = object["clips"] as? [String: Any] ?? [:]
            object["clips"] = clips.mapValues { _ in "clips/five.caf" }
        }
        let junit = try Executable.run(["validate", "one-file", "--format", "junit", "--no-record"], in: folder.path)
        let testCase = try #require(junit.stdout.components(separatedBy: "<testcase").first { $0.contains("audio.wrong-word") }, "\(junit.stdout)")
        #expect(testCase.contains("<skipped"), "\(testCase)")
        #expect(testCase.contains("fewer than two different words"), "\(testCase)")
    }

    /// audio.voice-outlier: one clip of a voice of the other sex, planted both ways in packs
    /// synthesised with espeak-ng's male and female variants, is named, and nothing else is.
    @Test(arguments: [("zh-Hans", "cmn", "cmn+f3", "5"), ("en-US", "en-us", "en-us+f3", "five"), ("hi-IN", "hi", "hi+f2", "5")])
    func aClipOfAnotherVoiceIsNamed(_ grammar: String, _ voice: String, _ other: String, _ key: String) throws {
        let folder = TemporaryFolder()
        for (name, v) in [("one", voice), ("two", other)] {
            let made = try Executable.run(["synth", name, "--id", name, "--grammar", grammar, "--voice", v, "--max-amount", "99"], in: folder.path)
            try #require(made.status == 0, "\(made.stdout)\(made.stderr)")
        }
        let stem = key
        let (one, two) = (folder.file("one/clips/\(stem).caf"), folder.file("two/clips/\(stem).caf"))
        try FileManager.default.moveItem(atPath: one, toPath: folder.file("taken.caf"))
        try FileManager.default.moveItem(atPath: two, toPath: one)
        try FileManager.default.moveItem(atPath: folder.file("taken.caf"), toPath: two)
        // Swapped both ways: each pack now holds one clip of the other voice.
        for pack in ["one", "two"] {
            #expect(try Self.findings(of: "audio.voice-outlier", pack, in: folder) == [key], "\(pack) (\(grammar))")
        }
    }

    /// Other voices: espeak-ng's Hindi (male and female variant), Mandarin female, en-IN; synth
    /// itself validates, so a false finding would fail it.
    @Test(arguments: [("hi-IN", "hi"), ("hi-IN", "hi+f2"), ("zh-Hans", "cmn+f3"), ("en-IN", "en-us+m3"), ("en-US", "en-us"), ("en-US", "en-us+f3")])
    func aSynthesisedPackHasNoDuplicate(_ grammar: String, _ voice: String) throws {
        let folder = TemporaryFolder()
        let made = try Executable.run(["synth", "voiced", "--id", "voiced", "--grammar", grammar, "--voice", voice, "--max-amount", "99999.99"], in: folder.path)
        try #require(made.status == 0, "\(made.stdout)\(made.stderr)")
        #expect(try Self.duplicates("voiced", in: folder) == [])
        #expect(try Self.findings(of: "audio.voice-outlier", "voiced", in: folder) == [])
        #expect(try Self.findings(of: "audio.wrong-word", "voiced", in: folder) == [])
    }

    /// espeak-ng's Hindi female variant at 190 words a minute says 7 (सात) and 60 (साठ) alike:
    /// their prints correlate 0.952 and differ by only 2.5 dB, closer than any other clean pair,
    /// yet below the 0.999 of every planted copy. synth validates, so a finding would fail it.
    @Test func wordsSaidAlikeAreNoDuplicate() throws {
        let folder = TemporaryFolder()
        let made = try Executable.run(["synth", "fast", "--id", "fast", "--grammar", "hi-IN", "--max-amount", "99",
                                       "--engine-command", "espeak-ng -v hi+f2 -s 190 -w {out} {text}"], in: folder.path)
        try #require(made.status == 0, "\(made.stdout)\(made.stderr)")
        #expect(try Self.duplicates("fast", in: folder) == [])
    }

    @Test func everyPlantedCopyIsFoundAndNamed() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "planted")
        let clips = pack + "/clips/"
        // µ-law and 16 kHz versions of the pack, made by soundpack itself.
        for (name, options) in [("ulaw", ["--codec", "ulaw"]), ("low", ["--rate", "16000"])] {
            let made = try Executable.run(["convert", Fixtures.demoPack, name] + options, in: folder.path)
            try #require(made.status == 0, "\(made.stderr)")
        }
        let back = try Executable.run(["convert", "low", "back", "--rate", "22050"], in: folder.path)
        try #require(back.status == 0, "\(back.stderr)")
        // 6 is a copy of 5; 8 is 3 at half the level; 9 is 2 through µ-law; 百 is 4 resampled down and up.
        try FileManager.default.removeItem(atPath: clips + "6.caf")
        try FileManager.default.copyItem(atPath: clips + "5.caf", toPath: clips + "6.caf")
        try Fixtures.writeClip(try AudioProbe().decode(path: clips + "3.caf").samples.map { $0 * 0.5 }, to: clips + "8.caf")
        try Fixtures.writeClip(try AudioProbe().decode(path: folder.file("ulaw/clips/2.caf")).samples, to: clips + "9.caf")
        try Fixtures.writeClip(try AudioProbe().decode(path: folder.file("back/clips/4.caf")).samples, to: clips + "bai.caf")
        #expect(Set(try Self.duplicates("planted", in: folder)) == ["6", "8", "9", "百"])
    }

    /// One file under two keys is a choice made in pack.json, not a copy.
    @Test func oneFileUnderTwoKeysIsAllowed() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "shared")
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            clips["6"] = clips["5"]
            object["clips"] = clips
        }
        try FileManager.default.removeItem(atPath: pack + "/clips/6.caf")
        #expect(try Self.duplicates("shared", in: folder) == [])
    }
}

extension Trait where Self == ConditionTrait {
    /// For a test that hears words: skipped, with the reason, where pocketsphinx or its model is missing.
    static var recogniserInstalled: Self {
        .enabled(if: WordRecogniser.unavailable == nil, "pocketsphinx or its US English model is not installed (scripts/bootstrap.sh installs both)")
    }
}

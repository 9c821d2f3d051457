// `soundpack init DIR --from RECORDINGS`: a delivery of recordings in mixed formats and names
// becomes a pack that convert turns into one validate passes; what cannot be matched is listed,
// and hostile entries are never followed or half-written.

import Foundation
import Testing
import SoundpackKit
import SoundpackTestSupport

@Suite struct InitFromEndToEndTests {
    static let mp3Fixtures = Fixtures.repositoryRoot + "/Tests/SoundpackKitTests/Fixtures/delivery-mp3"
    static let m4aFixtures = Fixtures.repositoryRoot + "/Tests/SoundpackKitTests/Fixtures/delivery-m4a"

    /// The demo pack as a sound designer delivers it: MP3 with designer names (wechat_prefix.mp3),
    /// 5 and 8 re-recorded as 48 kHz stereo WAV with 300 ms of silence around the word, 点 and 元 as
    /// M4A (48 kHz stereo AAC from a phone, ALAC), the rest CAF copies under their ASCII stems
    /// (Qian.caf in another case), and a note that is not audio.
    static func makeDelivery(in folder: TemporaryFolder, leaving left: Set<String> = []) throws -> String {
        let delivery = folder.file("delivery")
        try FileManager.default.createDirectory(atPath: delivery, withIntermediateDirectories: true)
        let fm = FileManager.default
        for stem in ["prefix", "0", "1", "2", "3", "4", "6", "7", "9", "shi"] where !left.contains(stem) {
            try fm.copyItem(atPath: "\(mp3Fixtures)/\(stem).mp3", toPath: "\(delivery)/\(stem == "prefix" ? "wechat_prefix" : stem).mp3")
        }
        for stem in ["5", "8"] where !left.contains(stem) {
            let audio = try AudioProbe().decode(path: "\(Fixtures.demoPack)/clips/\(stem).caf")
            let upsampled = try Resampler.resample(audio.samples, channels: 1, from: audio.sampleRate, to: 48_000)
            let padded = [Float](repeating: 0, count: 14_400) + upsampled + [Float](repeating: 0, count: 14_400)
            try Fixtures.writeClip(padded.flatMap { [$0, $0] }, to: "\(delivery)/\(stem).wav", sampleRate: 48_000, channels: 2, container: .wav)
        }
        for (stem, name) in [("bai", "bai.caf"), ("qian", "Qian.caf"), ("wan", "wan.caf")] where !left.contains(stem) {
            try fm.copyItem(atPath: "\(Fixtures.demoPack)/clips/\(stem).caf", toPath: "\(delivery)/\(name)")
        }
        for stem in ["dian", "yuan"] where !left.contains(stem) {
            try fm.copyItem(atPath: "\(m4aFixtures)/\(stem).m4a", toPath: "\(delivery)/\(stem).m4a")
        }
        try folder.write("take 2 of 5 is louder\n", to: "delivery/notes.txt")
        return delivery
    }

    static func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    @Test func aMixedDeliveryBecomesAPackThatConvertMakesValid() throws {
        let folder = TemporaryFolder()
        let delivery = try Self.makeDelivery(in: folder)
        let adopted = try Executable.run(["init", "raw/wechat", "--id", "wechat", "--from", "delivery", "--map", "prefix=wechat_prefix",
                                          "--phrase-text", "prefix=微信到账"], in: folder.path)
        #expect(adopted.status == 0, "\(adopted.stderr)")
        #expect(adopted.stdout.contains("prefix  wechat_prefix.mp3  clips/prefix.mp3"))
        #expect(adopted.stdout.contains("千      Qian.caf           clips/qian.caf"))
        #expect(adopted.stdout.contains("notes.txt          skipped: not an audio file name"))

        let pack = try Self.json(String(contentsOfFile: folder.file("raw/wechat/pack.json"), encoding: .utf8))
        let clips = pack["clips"] as? [String: String] ?? [:]
        #expect(clips["prefix"] == "clips/prefix.mp3" && clips["5"] == "clips/5.wav" && clips["十"] == "clips/shi.mp3" && clips["千"] == "clips/qian.caf")
        #expect(clips["点"] == "clips/dian.m4a" && clips["元"] == "clips/yuan.m4a")
        #expect(clips.count == 17)
        #expect((pack["texts"] as? [String: String]) == ["prefix": "微信到账"])
        #expect(pack["$schema"] == nil, "a pack outside the repository gets no $schema that would not resolve")
        // Byte for byte.
        #expect(FileManager.default.contentsEqual(atPath: folder.file("raw/wechat/clips/prefix.mp3"), andPath: delivery + "/wechat_prefix.mp3"))
        #expect(FileManager.default.contentsEqual(atPath: folder.file("raw/wechat/clips/5.wav"), andPath: delivery + "/5.wav"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("raw/wechat/clips/notes.txt")))

        // Before convert, the M4A clips are a format iOS does not play (not unreadable files).
        let raw = try Executable.run(["validate", "raw/wechat", "--no-record"], in: folder.path)
        #expect(raw.status == 1 && raw.stdout.contains("raw/wechat/clips/dian.m4a: error: [format.unsupported] AAC in MP4 (.m4a)"), "\(raw.stdout)")
        #expect(!raw.stdout.contains("file.unreadable"), "\(raw.stdout)")

        let converted = try Executable.run(["convert", "raw/wechat", "packs/wechat", "--mono", "--trim-silence", "--rate", "22050", "--loudness", "-19"], in: folder.path)
        #expect(converted.status == 0, "\(converted.stderr)")
        let validated = try Executable.run(["validate", "packs/wechat", "--no-record", "--format", "json"], in: folder.path)
        let report = try Self.json(validated.stdout)
        let packs = report["packs"] as? [[String: Any]] ?? []
        #expect(validated.status == 0 && packs.first?["errors"] as? Int == 0, "\(validated.stdout)")
    }

    @Test func aFolderThatExistsIsRefusedAndLeftAlone() throws {
        let folder = TemporaryFolder()
        _ = try Self.makeDelivery(in: folder)
        try FileManager.default.createDirectory(atPath: folder.file("raw/wechat"), withIntermediateDirectories: true)
        let result = try Executable.run(["init", "raw/wechat", "--id", "wechat", "--from", "delivery", "--map", "prefix=wechat_prefix"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("raw/wechat already exists"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("raw/wechat")).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("raw")) == ["wechat"], "no staging folder is left")
    }

    @Test(arguments: [
        (["--map", "prefx=wechat_prefix"], "did you mean 'prefix'?"),
        (["--map", "prefix=wechat_prefx"], "did you mean 'wechat_prefix'?"),
        (["--map", "亿=yi"], "the pack never says '亿' up to maxAmount 99999999.99"),
        (["--map", "prefix"], "--map 'prefix' is not TOKEN=NAME"),
    ])
    func aMapThatNamesNoTokenOrNoFileIsAUsageError(map: [String], message: String) throws {
        let folder = TemporaryFolder()
        _ = try Self.makeDelivery(in: folder)
        let result = try Executable.run(["init", "raw/wechat", "--id", "wechat", "--from", "delivery"] + map, in: folder.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("raw")))
    }

    @Test func twoRecordingsForOneTokenAreRefusedNamingBothUntilAMapChooses() throws {
        let folder = TemporaryFolder()
        let delivery = try Self.makeDelivery(in: folder)
        try FileManager.default.copyItem(atPath: Self.mp3Fixtures + "/4.mp3", toPath: delivery + "/5.mp3")
        let refused = try Executable.run(["init", "raw/wechat", "--id", "wechat", "--from", "delivery", "--map", "prefix=wechat_prefix"], in: folder.path)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("2 recordings for token '5': 5.mp3, 5.wav"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--map 5=5.mp3"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("raw")))

        let chosen = try Executable.run(["init", "raw/wechat", "--id", "wechat", "--from", "delivery", "--map", "prefix=wechat_prefix", "--map", "5=5.wav"], in: folder.path)
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stdout.contains("5.mp3              not matched: token '5' is mapped to 5.wav"), "\(chosen.stdout)")
    }

    @Test func symbolicLinksAndFIFOsAreNeverFollowedOrOpened() throws {
        let folder = TemporaryFolder()
        let delivery = try Self.makeDelivery(in: folder, leaving: ["yuan"])
        let outside = folder.file("outside.caf")
        try FileManager.default.copyItem(atPath: Fixtures.demoPack + "/clips/yuan.caf", toPath: outside)
        try FileManager.default.createSymbolicLink(atPath: delivery + "/yuan.caf", withDestinationPath: outside)
        #expect(mkfifo(delivery + "/dian-take2.wav", 0o644) == 0)
        try FileManager.default.createDirectory(atPath: delivery + "/old takes", withIntermediateDirectories: true)
        let result = try Executable.run(["init", "raw/wechat", "--id", "wechat", "--from", "delivery", "--map", "prefix=wechat_prefix", "--format", "json"], in: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        let document = try Self.json(result.stdout)
        let skipped = (document["skipped"] as? [[String: String]] ?? []).map { [$0["name"] ?? "", $0["reason"] ?? ""] }
        #expect(skipped.contains(["yuan.caf", "a symbolic link, not followed"]))
        #expect(skipped.contains(["dian-take2.wav", "a FIFO"]))
        #expect(skipped.contains { $0[0] == "old takes" && $0[1].hasPrefix("a folder") })
        let missing = (document["missing"] as? [[String: Any]] ?? []).compactMap { $0["token"] as? String }
        #expect(missing == ["元"])
        #expect(!FileManager.default.fileExists(atPath: folder.file("raw/wechat/clips/yuan.caf")))
        // A --map to the link is refused, saying why.
        let mapped = try Executable.run(["init", "raw/other", "--id", "wechat", "--from", "delivery", "--map", "元=yuan"], in: folder.path)
        #expect(mapped.status == 2 && mapped.stderr.contains("a symbolic link, not followed"), "\(mapped.stderr)")
    }

    @Test func theTableListsUnmatchedRecordingsAndMissingTokensWithTheAmountThatNeedsThem() throws {
        let folder = TemporaryFolder()
        let delivery = try Self.makeDelivery(in: folder, leaving: ["bai", "prefix"])
        try FileManager.default.copyItem(atPath: Fixtures.demoPack + "/clips/bai.caf", toPath: delivery + "/bai2.caf")
        try FileManager.default.copyItem(atPath: Fixtures.demoPack + "/clips/yi.caf", toPath: delivery + "/yi.caf")
        try Data([0x49, 0x44, 0x33]).write(to: URL(fileURLWithPath: delivery + "/take\u{1B}[2J\nfinal.mp3"))
        let result = try Executable.run(["init", "raw/wechat", "--id", "wechat", "--from", "delivery"], in: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        // The table's rows, cells split at the column gaps.
        let rows = result.stdout.split(separator: "\n").map { $0.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        #expect(rows.contains(["百", "-", "missing: first said in 100"]), "\(result.stdout)")
        #expect(rows.contains(["prefix", "-", "missing: said in every announcement"]))
        #expect(rows.contains(["-", "bai2.caf", "not matched (nearest token: 百)"]))
        #expect(rows.contains(["-", "yi.caf", "not matched: the pack never says '亿' up to maxAmount 99999999.99"]))
        #expect(rows.contains(["-", "take\\u{1B}[2J\\u{A}final.mp3", "not matched"]), "a name cannot move the cursor or forge a line")
        #expect(!result.stdout.contains("\u{1B}"))

        let json = try Executable.run(["init", "raw/again", "--id", "wechat", "--from", "delivery", "--format", "json"], in: folder.path)
        let document = try Self.json(json.stdout)
        let missing = document["missing"] as? [[String: Any]] ?? []
        #expect(missing.contains { $0["token"] as? String == "百" && $0["amount"] as? String == "100" && $0["text"] as? String == "百" })
        let unmatched = document["unmatched"] as? [[String: Any]] ?? []
        #expect(unmatched.contains { $0["recording"] as? String == "bai2.caf" && $0["nearest"] as? String == "百" })
    }

    @Test func phraseTextWorksForInitWithoutRecordingsAsInSynth() throws {
        let folder = TemporaryFolder()
        let result = try Executable.run(["init", "packs/shop", "--id", "shop", "--max-amount", "999",
                                         "--phrase-text", "wechat=微信到账{amount}", "--phrase-text", "order=您有一笔新订单"], in: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        let pack = try Self.json(String(contentsOfFile: folder.file("packs/shop/pack.json"), encoding: .utf8))
        #expect((pack["phrases"] as? [String: [String]]) == ["wechat": ["wechat", "{amount}"], "order": ["order"]])
        #expect(pack["defaultPhrase"] as? String == "wechat")
        let clips = pack["clips"] as? [String: String] ?? [:]
        #expect(clips["wechat"] == "clips/wechat.caf" && clips["order"] == "clips/order.caf" && clips["prefix"] == nil && clips["万"] == nil)

        let twice = try Executable.run(["init", "packs/two", "--id", "two", "--phrase-text", "a=x{amount}", "--phrase-text", "a=y"], in: folder.path)
        #expect(twice.status == 2 && twice.stderr.contains("is given twice"))
        let both = try Executable.run(["init", "packs/both", "--id", "both", "--prefix", "微信到账", "--phrase-text", "prefix=收款"], in: folder.path)
        #expect(both.status == 2)
    }
}

// The app-side API: SHA-256, the exported manifest, planning amounts and verifying downloads.

import Foundation
import Testing
@testable import SoundpackCore

@Suite struct ClipPlannerTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 1_000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
    ])
    func sha256MatchesTheStandardVectors(_ input: String, _ digest: String) {
        #expect(PortableSHA256().sha256Hex(Data(input.utf8)) == digest)
    }

    static func manifestJSON(schemaVersion: Int = 1, bundled: [String] = ["prefix.caf", "1.caf"], url: Bool = true,
                             options: [String: String] = ["two": "er"]) -> Data {
        func clip(_ file: String, _ content: String) -> [String: Any] {
            var entry: [String: Any] = ["file": file, "bytes": content.utf8.count, "sha256": PortableSHA256().sha256Hex(Data(content.utf8)), "durationSeconds": 0.3]
            if url { entry["url"] = "https://cdn.example.com/p/wechat/1.0.0/clips/\(file)" }
            return entry
        }
        var tokens: [String: Any] = [:]
        for token in Token.allCases where token != .suffix && (token != .liang || options["two"] != "er") {
            tokens[token.rawValue] = clip("\(token.fileStem).caf", "clip \(token.rawValue)")
        }
        var pack: [String: Any] = ["version": "1.0.0", "grammar": "zh-Hans", "maxAmount": "99999999.99",
                                   "texts": ["prefix": "微信到账"], "yanked": false, "tokens": tokens]
        pack.merge(options) { $1 }
        let document: [String: Any] = [
            "kMainAppMp3FileKey": bundled,
            "soundpack": ["schemaVersion": schemaVersion, "key": "kMainAppMp3FileKey",
                          "packs": ["wechat": pack]],
        ]
        return try! JSONSerialization.data(withJSONObject: document)
    }

    @Test func readsJSONAndPropertyListExportsAlike() throws {
        let json = try SharedManifest(data: Self.manifestJSON())
        let object = try JSONSerialization.jsonObject(with: Self.manifestJSON())
        let plist = try SharedManifest(data: try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0))
        #expect(json == plist)
        #expect(json.bundledFiles == ["prefix.caf", "1.caf"])
        #expect(json.packs["wechat"]?.clips[.ten]?.file == "shi.caf")
    }

    /// The phone reads with the options the exported manifest carries, so it plans what `say` reads.
    @Test(arguments: [["two": "liang-large", "money": "kuai-mao", "tenStart": "yi-shi"], ["two": "liang", "money": "jiao-fen"], ["two": "er"]])
    func plansWhatTheToolReadsWithTheExportedOptions(_ options: [String: String]) throws {
        let manifest = try SharedManifest(data: Self.manifestJSON(options: options))
        var chosen = GrammarOptions()
        for (name, value) in options {
            let known = chosen.set(name, value)
            #expect(known)
        }
        #expect(manifest.packs["wechat"]?.grammar.options == chosen)
        let planner = try ClipPlanner(manifest: manifest, packID: "wechat")
        let announcement = Announcement(grammar: Grammar(.zhHans, options: chosen), hasSuffix: false)
        for text in ["15.45", "15.05", "0.05", "0", "22222", "100000", "12", "2200.4", "20000000.01"] {
            #expect(try planner.plan(amount: text).clips.map(\.token) == announcement.tokens(for: try Amount(parsing: text)), "\(text)")
        }
    }

    @Test func refusesAnUnknownManifestVersion() {
        #expect(throws: PlanError.unsupportedManifestVersion(2)) { try SharedManifest(data: Self.manifestJSON(schemaVersion: 2)) }
        #expect(throws: PlanError.self) { try SharedManifest(data: Data("{\"x\": 1}".utf8)) }
    }

    @Test func plansTheReadingWithSourcesAndAStableName() throws {
        let sounds = FileManager.default.temporaryDirectory.appendingPathComponent("sounds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: sounds, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: sounds) }
        try Data("clip 5".utf8).write(to: sounds.appendingPathComponent("5.caf"))        // downloaded earlier, intact
        try Data("clip 4 but damaged".utf8).write(to: sounds.appendingPathComponent("4.caf"))  // damaged: download again
        let planner = try ClipPlanner(manifest: try SharedManifest(data: Self.manifestJSON()), packID: "wechat", soundsFolder: sounds)
        let plan = try planner.plan(amount: "15.40")
        #expect(plan.clips.map(\.token) == [.prefix, .ten, .five, .point, .four, .yuan])
        #expect(plan.clips[0].source == .bundled)
        #expect(plan.clips[2].source == .librarySounds(sounds.appendingPathComponent("5.caf")))
        #expect(plan.clips[4].source == .download(URL(string: "https://cdn.example.com/p/wechat/1.0.0/clips/4.caf")!))
        #expect(plan.downloads.map(\.file) == ["shi.caf", "dian.caf", "4.caf", "yuan.caf"])
        #expect(plan.soundName == "soundpack-wechat-1.0.0-15.40.caf")
        #expect(try planner.plan(amount: "15.4").soundName == plan.soundName)
        #expect(try planner.plan(amount: "15.41").soundName != plan.soundName)
        // 1 is bundled; 11 says it twice but downloads nothing twice.
        #expect(try planner.plan(amount: "11.11").downloads.map(\.file) == ["shi.caf", "dian.caf", "yuan.caf"])
    }

    @Test func explainsWhatItCannotPlan() throws {
        let manifest = try SharedManifest(data: Self.manifestJSON(url: false))
        #expect(throws: PlanError.unknownPack("alipay")) { try ClipPlanner(manifest: manifest, packID: "alipay") }
        let planner = try ClipPlanner(manifest: manifest, packID: "wechat")
        #expect(throws: PlanError.amountUnreadable(AmountError(input: "1e3", problem: .exponent))) { try planner.plan(amount: "1e3") }
        #expect(throws: PlanError.noDownloadURL(file: "shi.caf")) { try planner.plan(amount: "10") }
        var partial = manifest
        partial.packs["wechat"]?.clips[.tenThousand] = nil
        let gap = try ClipPlanner(manifest: partial, packID: "wechat", bundledFiles: Token.allCases.map { "\($0.fileStem).caf" })
        #expect(throws: PlanError.missingClip(token: "万", amount: "20000")) { try gap.plan(amount: "20000") }
        #expect(PlanError.missingClip(token: "万", amount: "20000").description.contains("cannot say 20000"))
    }

    @Test func verificationRefusesWrongBytes() throws {
        let pack = try #require(try SharedManifest(data: Self.manifestJSON()).packs["wechat"])
        let clip = try #require(pack.clips[.five])
        let verifier = ClipVerifier()
        try verifier.verify(Data("clip 5".utf8), against: clip)
        #expect(throws: PlanError.sizeMismatch(file: "5.caf", expected: 6, actual: 5)) { try verifier.verify(Data("clip ".utf8), against: clip) }
        #expect {
            try verifier.verify(Data("clip 6".utf8), against: clip)
        } throws: { error in
            if case .hashMismatch(let file, _, _) = error as? PlanError { return file == "5.caf" }
            return false
        }
    }
}

/// The exported manifest is one Codable type: what `export` encodes is what the app decodes.
@Suite struct SharedManifestCodingTests {
    static func sample() -> SharedManifest {
        let clip = SharedPack.Clip(file: "wechat-shi.caf", bytes: 20_648, sha256: String(repeating: "a", count: 64), durationSeconds: 0.3753,
                                   url: URL(string: "https://cdn.example.com/p/wechat/1.0.0/clips/shi.caf"))
        let pack = SharedPack(id: "wechat", version: "1.2.0", grammar: Grammar(.zhHant, two: .liang), maxAmount: Amount(minorUnits: 999_999),
                              texts: ["prefix": "微信到账"], yanked: true, clips: [.ten: clip])
        return SharedManifest(key: "customKey", bundledFiles: ["wechat-shi.caf"], packs: ["wechat": pack])
    }

    @Test(arguments: SharedManifest.Encoding.allCases)
    func encodingThenDecodingGivesTheSameManifest(_ encoding: SharedManifest.Encoding) throws {
        let data = try Self.sample().encoded(as: encoding)
        #expect(try SharedManifest(data: data) == Self.sample())
    }

    @Test func theDocumentHasTheExportSchemaShape() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: try Self.sample().encoded(as: .json)) as? [String: Any])
        #expect(object["customKey"] as? [String] == ["wechat-shi.caf"])
        let soundpack = try #require(object["soundpack"] as? [String: Any])
        #expect(soundpack["schemaVersion"] as? Int == 1)
        let pack = try #require((soundpack["packs"] as? [String: Any])?["wechat"] as? [String: Any])
        #expect(pack["two"] as? String == "liang")
        #expect(pack["maxAmount"] as? String == "9999.99")
        #expect((pack["tokens"] as? [String: Any])?["十"] != nil)
    }

    @Test func anUnknownTokenOrAMissingGrammarIsRefused() throws {
        var document = try #require(try JSONSerialization.jsonObject(with: try Self.sample().encoded(as: .json)) as? [String: Any])
        var soundpack = document["soundpack"] as! [String: Any]
        var packs = soundpack["packs"] as! [String: Any]
        var pack = packs["wechat"] as! [String: Any]
        pack["grammar"] = "en"
        packs["wechat"] = pack
        soundpack["packs"] = packs
        document["soundpack"] = soundpack
        #expect(throws: PlanError.self) { try SharedManifest(data: try JSONSerialization.data(withJSONObject: document)) }
    }
}

// The zh reading options (DESIGN §4a) through the tool: say, init, validate's coverage, publish's
// manifest and bump rule, diff, and the exported manifest the phone reads.

import Foundation
import Testing
import SoundpackTestSupport

@Suite struct ReadingOptionsEndToEndTests {
    @Test func sayReadsWithEachOption() throws {
        let root = Fixtures.repositoryRoot
        let jiaoFen = try Executable.run(["say", "--grammar", "zh-Hans", "--money", "jiao-fen", "15.45", "15.05", "0.05"], in: root)
        #expect(jiaoFen.stdout == "十五元四角五分\n十五元零五分\n五分\n")
        #expect(try Executable.run(["say", "--grammar", "zh-Hans", "--money", "kuai-mao", "15.45"], in: root).stdout == "十五块四毛五\n")
        #expect(try Executable.run(["say", "--grammar", "zh-Hans", "--two", "liang-large", "22222"], in: root).stdout == "两万两千二百二十二元\n")
        #expect(try Executable.run(["say", "--grammar", "zh-Hans", "--ten-start", "yi-shi", "100000"], in: root).stdout == "一十万元\n")
        let tokens = try Executable.run(["say", "--grammar", "zh-Hant", "--money", "kuai-mao", "--format", "tokens", "20.5"], in: root)
        #expect(tokens.stdout == "2 十 块 5 毛\n")
        // A pack's options come from its pack.json; a flag beside --pack is a usage error.
        let mixed = try Executable.run(["say", "--pack", "packs/wechat", "--money", "kuai-mao", "1"], in: root)
        #expect(mixed.status == 2 && mixed.stderr.contains("cannot be combined"), "\(mixed.stderr)")
        let unknown = try Executable.run(["say", "--grammar", "zh-Hans", "--money", "pounds", "1"], in: root)
        #expect(unknown.status == 2, "\(unknown.stderr)")
    }

    @Test func initNamesTheClipsTheOptionsNeed() throws {
        let folder = TemporaryFolder()
        let result = try Executable.run(["init", "shop", "--id", "shop", "--money", "jiao-fen", "--max-amount", "99.99"], in: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("shop/pack.json")))) as? [String: Any]
        #expect(object?["grammarOptions"] as? [String: String] == ["two": "er", "money": "jiao-fen"])
        let clips = object?["clips"] as? [String: String] ?? [:]
        #expect(clips["角"] == "clips/jiao.caf" && clips["分"] == "clips/fen.caf" && clips["元"] == "clips/yuan.caf")
        #expect(clips["点"] == nil && clips["块"] == nil)
    }

    /// The demo pack read as 块/毛: it lacks 块 毛 分 until they are added; then it says, publishes
    /// and exports the option, and a version that changes the option needs a major bump.
    @Test func aPackWithAnOptionValidatesPublishesAndExportsIt() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "packs/wechat")
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        try Fixtures.editManifest(pack) { object in
            object["grammarOptions"] = ["two": "er", "money": "kuai-mao"]
            object["version"] = "1.1.0"
        }
        let missing = try Executable.run(["validate", "packs/wechat", "--no-record"], in: folder.path)
        #expect(missing.status == 1)
        for key in ["块", "毛", "分"] { #expect(missing.stdout.contains("[coverage.missing-token]") && missing.stdout.contains("'\(key)'"), "\(missing.stdout)") }
        for (key, stem) in [("块", "kuai"), ("毛", "mao"), ("分", "fen")] {
            try Fixtures.standIn(for: pack + "/clips/\(["kuai": "5", "mao": "6", "fen": "7"][stem]!).caf", to: pack + "/clips/\(stem).caf")
            try Fixtures.editManifest(pack) { object in
                var clips = object["clips"] as? [String: Any] ?? [:]
                clips[key] = "clips/\(stem).caf"
                object["clips"] = clips
            }
        }
        #expect(try Executable.run(["validate", "packs/wechat", "--no-record"], in: folder.path).status == 0)
        #expect(try Executable.run(["say", "--pack", "packs/wechat", "15.45"], in: folder.path).stdout == "微信到账十五块四毛五\n")

        let minor = try Executable.run(["publish"], in: folder.path)
        #expect(minor.status == 1)
        #expect(minor.stdout.contains("[catalog.version-bump]") && minor.stdout.contains("money=kuai-mao") && minor.stdout.contains("major"), "\(minor.stdout)")
        try Fixtures.editManifest(pack) { $0["version"] = "2.0.0" }
        let published = try Executable.run(["publish"], in: folder.path)
        #expect(published.status == 0, "\(published.stdout)\(published.stderr)")
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("dist/wechat/2.0.0/manifest.json")))) as? [String: Any]
        #expect(manifest?["money"] as? String == "kuai-mao" && manifest?["two"] as? String == "er" && manifest?["tenStart"] == nil)
        let old = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("dist/wechat/1.0.0/manifest.json")))) as? [String: Any]
        #expect(old?["money"] == nil)

        let diff = try Executable.run(["diff", "wechat@1.0.0", "wechat@2.0.0"], in: folder.path)
        #expect(diff.stdout.contains("grammar changed: zh-Hans two=er → zh-Hans two=er money=kuai-mao (needs major)"), "\(diff.stdout)")
        let export = try Executable.run(["export", "wechat@2.0.0", "--format", "json"], in: folder.path)
        #expect(export.status == 0, "\(export.stderr)")
        let exported = try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any]
        let packs = (exported?["soundpack"] as? [String: Any])?["packs"] as? [String: Any]
        #expect((packs?["wechat"] as? [String: Any])?["money"] as? String == "kuai-mao", "\(export.stdout)")
        #expect(try Executable.run(["verify"], in: folder.path).status == 0)
    }

    @Test func anUnknownOptionOrValueIsRefusedByName() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        try Fixtures.editManifest(pack) { $0["grammarOptions"] = ["money": "pounds"] }
        let value = try Executable.run(["validate", "wechat", "--no-record"], in: folder.path)
        #expect(value.status == 1 && value.stdout.contains("grammarOptions.money") && value.stdout.contains("\"kuai-mao\""), "\(value.stdout)")
        try Fixtures.editManifest(pack) { $0["grammarOptions"] = ["tens": "yi-shi"] }
        let name = try Executable.run(["validate", "wechat", "--no-record"], in: folder.path)
        #expect(name.status == 1 && name.stdout.contains("grammarOptions.tens") && name.stdout.contains("known: two, money, tenStart"), "\(name.stdout)")
    }
}

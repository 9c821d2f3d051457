// A pack's phrases (DESIGN §3) through the tool: validate and its coverage of every phrase, say and
// render with --phrase, the payload and its lint, publish's bump rule, diff, export, the report.

import Foundation
import Testing
import SoundpackTestSupport

@Suite struct PhrasesEndToEndTests {
    @Test func theMerchantPackValidatesAndSaysEachPhrase() throws {
        let root = Fixtures.repositoryRoot
        let validate = try Executable.run(["validate", "packs/merchant", "--no-record"], in: root)
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        let json = try Executable.run(["validate", "packs/merchant", "--no-record", "--format", "json"], in: root)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let pack = try #require((report["packs"] as? [[String: Any]])?.first)
        #expect(pack["defaultPhrase"] as? String == "wechat")
        #expect((pack["phrases"] as? [String: [String]])?["order"] == ["order"])
        // The worst case is searched over every phrase and names the one it found.
        let worst = try #require(pack["worstCase"] as? [String: Any])
        #expect(["wechat", "alipay", "refund"].contains(worst["phrase"] as? String ?? ""), "\(worst)")

        func say(_ arguments: [String]) throws -> ExecutionResult { try Executable.run(["say", "--pack", "packs/merchant"] + arguments, in: root) }
        #expect(try say(["--phrase", "alipay", "15.40"]).stdout == "支付宝到账十五点四元\n")
        #expect(try say(["--phrase", "order"]).stdout == "您有一笔新订单\n")
        #expect(try say(["15.40"]).stdout == "微信到账十五点四元\n")
        #expect(try say(["--phrase", "refund", "--format", "tokens", "0.05"]).stdout == "refund 0 点 0 5 元\n")
        #expect(try say(["--phrase", "order", "--format", "json"]).stdout == #"{"phrase":"order","text":"您有一笔新订单","tokens":["order"],"files":["clips/order.caf"]}"# + "\n")
        let unknown = try say(["--phrase", "gift", "1"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no phrase 'gift'") && unknown.stderr.contains("alipay, order, refund, wechat"), "\(unknown.stderr)")
        let amountToOrder = try say(["--phrase", "order", "5"])
        #expect(amountToOrder.status == 2 && amountToOrder.stderr.contains("says no amount"), "\(amountToOrder.stderr)")
        let grammarPhrase = try Executable.run(["say", "--grammar", "zh-Hans", "--phrase", "order", "1"], in: root)
        #expect(grammarPhrase.status == 2, "\(grammarPhrase.stderr)")
    }

    /// A phrase's clip gone: validate fails and names the phrase that cannot be said.
    @Test func aMissingPhraseClipNamesThePhrase() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "merchant", from: Fixtures.merchantPack)
        try FileManager.default.removeItem(atPath: pack + "/clips/refund.caf")
        let gone = try Executable.run(["validate", "merchant", "--no-record"], in: folder.path)
        #expect(gone.status == 1)
        #expect(gone.stdout.contains("[file.unreadable]") && gone.stdout.contains("phrase 'refund' cannot be said"), "\(gone.stdout)")
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            clips["refund"] = nil
            object["clips"] = clips
        }
        let unlisted = try Executable.run(["validate", "merchant", "--no-record"], in: folder.path)
        #expect(unlisted.status == 1)
        #expect(unlisted.stdout.contains("[coverage.missing-token]") && unlisted.stdout.contains("which phrase 'refund' says"), "\(unlisted.stdout)")
        // A clip no phrase says is never played.
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            clips["refund"] = "clips/wechat.caf"
            clips["spare"] = "clips/order.caf"
            object["clips"] = clips
        }
        let spare = try Executable.run(["validate", "merchant", "--no-record"], in: folder.path)
        #expect(spare.status == 0 && spare.stdout.contains("[coverage.unknown-token]") && spare.stdout.contains("'spare'"), "\(spare.stdout)")
    }

    @Test func renderNamesFilesByPhraseAndAmount() throws {
        let folder = TemporaryFolder()
        try Fixtures.copyDemoPack(into: folder, as: "merchant", from: Fixtures.merchantPack)
        let many = try Executable.run(["render", "--pack", "merchant", "--phrase", "refund", "15.40", "2", "-o", "out"], in: folder.path)
        #expect(many.status == 0, "\(many.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("out")).sorted() == ["refund-15.40.caf", "refund-2.caf"])
        let plain = try Executable.run(["render", "--pack", "merchant", "15.40", "2", "-o", "plain"], in: folder.path)
        #expect(plain.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("plain")).sorted() == ["15.40.caf", "2.caf"])
        let order = try Executable.run(["render", "--pack", "merchant", "--phrase", "order", "-o", "order.wav"], in: folder.path)
        #expect(order.status == 0 && order.stdout.contains("phrase order as 您有一笔新订单"), "\(order.stdout)\(order.stderr)")
        let orderIntoFolder = try Executable.run(["render", "--pack", "merchant", "--phrase", "order", "-o", "out"], in: folder.path)
        #expect(orderIntoFolder.status == 0 && FileManager.default.fileExists(atPath: folder.file("out/order.caf")), "\(orderIntoFolder.stderr)")
        let noAmount = try Executable.run(["render", "--pack", "merchant", "--phrase", "alipay", "-o", "a.caf"], in: folder.path)
        #expect(noAmount.status == 2 && noAmount.stderr.contains("says an amount"), "\(noAmount.stderr)")
        // The order clip alone is what render writes for the phrase.
        let wav = try Data(contentsOf: URL(fileURLWithPath: folder.file("order.wav")))
        #expect(wav.starts(with: Data("RIFF".utf8)))
    }

    /// Payloads name the phrase; lint refuses a phrase the version lacks, an amount to a phrase
    /// that says none, and a phrase that says one without it.
    @Test func payloadsNameThePhraseAndLintChecksIt() throws {
        let folder = TemporaryFolder()
        try Fixtures.copyDemoPack(into: folder, as: "packs/merchant", from: Fixtures.merchantPack)
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        let refund = try Executable.run(["payload", "15.40", "--pack", "merchant", "--phrase", "refund"], in: folder.path)
        #expect(refund.status == 0, "\(refund.stderr)")
        var payload = try #require(try JSONSerialization.jsonObject(with: Data(refund.stdout.utf8)) as? [String: Any])
        #expect(payload["phrase"] as? String == "refund" && payload["amount"] as? String == "15.40")
        #expect(((payload["aps"] as? [String: Any])?["alert"] as? [String: Any])?["body"] as? String == "退款15.40元")
        let order = try Executable.run(["payload", "--pack", "merchant", "--phrase", "order"], in: folder.path)
        #expect(order.status == 0, "\(order.stderr)")
        let orderPayload = try #require(try JSONSerialization.jsonObject(with: Data(order.stdout.utf8)) as? [String: Any])
        #expect(orderPayload["amount"] == nil && orderPayload["phrase"] as? String == "order")
        let byDefault = try #require(try JSONSerialization.jsonObject(with: Data(try Executable.run(["payload", "1", "--pack", "merchant"], in: folder.path).stdout.utf8)) as? [String: Any])
        #expect(byDefault["phrase"] as? String == "wechat")
        #expect(try Executable.run(["payload", "1", "--pack", "merchant", "--phrase", "order"], in: folder.path).status == 2)
        #expect(try Executable.run(["payload", "1", "--pack", "merchant", "--phrase", "gift"], in: folder.path).status == 1)

        func lint(_ object: [String: Any]) throws -> ExecutionResult {
            try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: folder.file("p.json")))
            return try Executable.run(["payload", "lint", "p.json"], in: folder.path)
        }
        #expect(try lint(payload).status == 0)
        payload["phrase"] = "gift"
        let unknown = try lint(payload)
        #expect(unknown.status == 1 && unknown.stdout.contains("[payload.unknown-phrase]"), "\(unknown.stdout)")
        payload["phrase"] = "order"
        let amountToOrder = try lint(payload)
        #expect(amountToOrder.status == 1 && amountToOrder.stdout.contains("says no amount"), "\(amountToOrder.stdout)")
        payload["phrase"] = "alipay"
        payload["amount"] = nil
        let noAmount = try lint(payload)
        #expect(noAmount.status == 1 && noAmount.stdout.contains("[payload.amount-unreadable]"), "\(noAmount.stdout)")
        payload["phrase"] = 3
        #expect(try lint(payload).stdout.contains("[payload.unknown-phrase]"))
    }

    /// Adding a phrase is a minor bump, changing or removing one a major one; diff lists them.
    @Test func phrasesDecideTheVersionBump() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "packs/merchant", from: Fixtures.merchantPack)
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        func publish(_ version: String, _ edit: @escaping (inout [String: Any]) -> Void) throws -> ExecutionResult {
            try Fixtures.editManifest(pack) { object in
                object["version"] = version
                edit(&object)
            }
            return try Executable.run(["publish"], in: folder.path)
        }
        func phrases(_ edit: @escaping (inout [String: [String]]) -> Void) -> (inout [String: Any]) -> Void {
            { object in
                var map = object["phrases"] as? [String: [String]] ?? [:]
                edit(&map)
                object["phrases"] = map
            }
        }
        let added = try publish("1.1.0", phrases { $0["sale"] = ["wechat", "{amount}", "order"] })
        #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
        let changedAsPatch = try publish("1.1.1", phrases { $0["refund"] = ["refund", "wechat", "{amount}"] })
        #expect(changedAsPatch.status == 1 && changedAsPatch.stdout.contains("phrases changed"), "\(changedAsPatch.stdout)\(changedAsPatch.stderr)")
        #expect(try publish("2.0.0", { _ in }).status == 0)
        let removedAsMinor = try publish("2.1.0", phrases { $0["sale"] = nil })
        #expect(removedAsMinor.status == 1 && removedAsMinor.stdout.contains("phrases removed"), "\(removedAsMinor.stdout)")
        let diff = try Executable.run(["diff", "merchant@1.0.0", "merchant@2.0.0", "--format", "json"], in: folder.path)
        let change = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
        #expect(change["phrasesAdded"] as? [String] == ["sale"] && change["phrasesChanged"] as? [String] == ["refund"], "\(diff.stdout)")
        // The wechat pack, which declares no phrases, diffs as before: no phrase lists.
        #expect(!(try Executable.run(["diff", "merchant@1.0.0", "packs/merchant"], in: folder.path).stdout.isEmpty))
    }

    /// The bump check compares phrases with the store's manifest of the newest version: when that
    /// manifest cannot be read, publish stops (exit 3) instead of computing the bump without them,
    /// which let a removed phrase through as a patch. Both when nothing read the manifest before
    /// (a dry run; a store whose index.json is gone), where the check was the only reader.
    @Test(arguments: [["--dry-run"], []])
    func anUnreadableStoredManifestStopsTheBumpCheck(_ options: [String]) throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "packs/merchant", from: Fixtures.merchantPack)
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        try Data("truncated {".utf8).write(to: URL(fileURLWithPath: folder.file("dist/merchant/1.0.0/manifest.json")))
        if options.isEmpty { try FileManager.default.removeItem(atPath: folder.file("dist/index.json")) }
        // Removing a phrase needs a major bump; this is a patch.
        try Fixtures.editManifest(pack) { object in
            var phrases = object["phrases"] as? [String: [String]] ?? [:]
            phrases["refund"] = nil
            object["phrases"] = phrases
            object["version"] = "1.0.1"
        }
        let result = try Executable.run(["publish"] + options, in: folder.path)
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr == "error: cannot publish — cannot check the version bump of merchant@1.0.1: the phrases and texts of merchant@1.0.0 it compares with are in that version's manifest in the store — dist/merchant/1.0.0/manifest.json is not a soundpack manifest: not JSON (soundpack verify checks the store)\n",
                "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("dist/merchant/1.0.1")))
    }

    /// diff reads a recorded version's texts and phrases from the store: a manifest there that
    /// cannot be read, or a store that cannot be opened, stops it (exit 3) instead of a diff that
    /// leaves the phrases out and asks for too small a bump. Two pack folders need no store.
    @Test func diffStopsWhenTheStoredPhrasesCannotBeRead() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "packs/merchant", from: Fixtures.merchantPack)
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        try Fixtures.editManifest(pack) { object in
            var phrases = object["phrases"] as? [String: [String]] ?? [:]
            phrases["refund"] = nil
            object["phrases"] = phrases
        }
        let diff = ["diff", "merchant@1.0.0", "packs/merchant"]
        let whole = try Executable.run(diff, in: folder.path)
        #expect(whole.status == 0 && whole.stdout.contains("phrases removed: refund (needs major)"), "\(whole.stdout)\(whole.stderr)")

        let noCredentials = ["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""]
        let unusable = try Executable.run(diff + ["--store", "s3://voice-packs/prod"], in: folder.path, environment: noCredentials)
        #expect(unusable.status == 3, "\(unusable.stdout)\(unusable.stderr)")
        #expect(unusable.stderr.hasPrefix("error: cannot use the store — an s3:// store needs credentials"), "\(unusable.stderr)")
        let folders = try Executable.run(["diff", "packs/merchant", "packs/merchant", "--store", "s3://voice-packs/prod"], in: folder.path, environment: noCredentials)
        #expect(folders.status == 0, "\(folders.stdout)\(folders.stderr)")

        try Data("truncated {".utf8).write(to: URL(fileURLWithPath: folder.file("dist/merchant/1.0.0/manifest.json")))
        let unreadable = try Executable.run(diff, in: folder.path)
        #expect(unreadable.status == 3, "\(unreadable.stdout)\(unreadable.stderr)")
        #expect(unreadable.stderr == "error: cannot read the texts and phrases of merchant@1.0.0 from the store — dist/merchant/1.0.0/manifest.json is not a soundpack manifest: not JSON (soundpack verify checks the store)\n",
                "\(unreadable.stderr)")
    }

    @Test func theExportAndTheReportCarryThePhrases() throws {
        let folder = TemporaryFolder()
        try Fixtures.copyDemoPack(into: folder, as: "packs/merchant", from: Fixtures.merchantPack)
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        let export = try Executable.run(["export", "merchant", "--format", "json"], in: folder.path)
        #expect(export.status == 0, "\(export.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        let pack = ((object["soundpack"] as? [String: Any])?["packs"] as? [String: Any])?["merchant"] as? [String: Any]
        #expect(pack?["defaultPhrase"] as? String == "wechat" && (pack?["phrases"] as? [String: [String]])?["alipay"] == ["alipay", "{amount}"])
        let report = try Executable.run(["report", "packs/merchant", "-o", "report.html"], in: folder.path)
        #expect(report.status == 0, "\(report.stderr)")
        let html = try String(contentsOfFile: folder.file("report.html"), encoding: .utf8)
        for phrase in ["wechat", "alipay", "refund", "order"] { #expect(html.contains("data-phrase=\"\(phrase)\""), "\(phrase)") }
        #expect(html.contains("您有一笔新订单"))
    }
}

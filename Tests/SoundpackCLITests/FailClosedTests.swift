// Places where a small mistake used to switch a check off without a word, so a team saw a green:
// a suffix written but never spoken, commands run in the wrong folder reporting on nothing, a
// signing secret one `git add .` from a leak, pack.json errors an editor cannot jump to, and
// `show` hiding what a reviewer approves.

import Foundation
import Testing
import SoundpackTestSupport

@Suite struct FailClosedTests {
    // MARK: The suffix

    @Test(arguments: [("en-IN", "Received", "on PhonePe", "1000", "Received rupees one thousand on PhonePe"),
                      ("zh-Hans", "收款", "请查收", "15.4", "收款十五点四元请查收")])
    func synthSpeaksTheSuffixItWasGiven(grammar: String, prefix: String, suffix: String, amount: String, said: String) throws {
        let folder = TemporaryFolder()
        let made = try Executable.run(["synth", "P", "--id", "x", "--grammar", grammar, "--phrase-text", "prefix=\(prefix)",
                                       "--phrase-text", "suffix=\(suffix)"], in: folder.path)
        try #require(made.status == 0, "\(made.stderr)")
        let pack = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("P/pack.json")))) as? [String: Any]
        #expect((pack?["clips"] as? [String: String])?["suffix"] != nil, "a suffix clip is spoken")
        #expect(try Executable.run(["say", amount, "--pack", "P"], in: folder.path).stdout == said + "\n")
        let validated = try Executable.run(["validate", "P", "--no-record"], in: folder.path)
        #expect(validated.status == 0 && !validated.stdout.contains("unspoken-text"), "\(validated.stdout)")
    }

    @Test func aTextWithoutItsClipIsAnError() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        try Fixtures.editManifest(pack) { manifest in
            var texts = manifest["texts"] as? [String: String] ?? [:]
            texts["suffix"] = "请查收"
            manifest["texts"] = texts
        }
        let validated = try Executable.run(["validate", "wechat", "--no-record", "--format", "github"], in: folder.path)
        #expect(validated.status == 1, "\(validated.stdout)")
        #expect(validated.stdout.contains("title=coverage.unspoken-text::[coverage.unspoken-text] texts 'suffix' ('请查收') has no clip"), "\(validated.stdout)")
        #expect(validated.stdout.contains("file=wechat/pack.json,line="), "placed on the texts entry: \(validated.stdout)")
        // A pack cannot waive it: it is an error rule.
        try Fixtures.editManifest(pack) { $0["checks"] = ["ignore": ["coverage.unspoken-text"]] }
        #expect(try Executable.run(["validate", "wechat", "--no-record"], in: folder.path).stdout.contains("cannot waive its own errors"))
    }

    // MARK: The project root, and reads of nothing

    @Test func verifyAndRebuildOnNoStoreSaySoAndCreateNothing() throws {
        let folder = TemporaryFolder()
        let verify = try Executable.run(["verify"], in: folder.path)
        #expect(verify.status == 3 && verify.stderr.contains("there is no store at dist — the folder does not exist"), "\(verify.stderr)")
        #expect(verify.stderr.contains("--store or SOUNDPACK_STORE") && verify.stdout.isEmpty)
        let rebuild = try Executable.run(["catalog", "rebuild", "--from-store"], in: folder.path)
        #expect(rebuild.status == 3 && rebuild.stderr.contains("there is no store at dist"), "\(rebuild.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing is created: no .soundpack/, dist/ or .dist.soundpack/")

        try FileManager.default.createDirectory(atPath: folder.file("dist"), withIntermediateDirectories: false)
        let empty = try Executable.run(["verify"], in: folder.path)
        #expect(empty.status == 3 && empty.stderr.contains("it holds no index.json and no published file"), "\(empty.stderr)")
        let named = try Executable.run(["verify", "--store", "elsewhere"], in: folder.path)
        #expect(named.status == 3 && named.stderr.contains("there is no store at elsewhere"), "\(named.stderr)")
    }

    @Test func verifyWithoutACatalogSaysSo() throws {
        let folder = try PublishEndToEndTests.project()
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        try FileManager.default.removeItem(atPath: folder.file(".soundpack"))
        let verify = try Executable.run(["verify"], in: folder.path)
        #expect(verify.status == 3 && verify.stderr.contains("there is no catalog at") && verify.stderr.contains("catalog rebuild --from-store"), "\(verify.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file(".soundpack")))
    }

    @Test func commandsBelowTheProjectRootUseItsCatalogStoreAndPacks() throws {
        let folder = try PublishEndToEndTests.project()
        try folder.write("Recorded by the studio.\n", to: "packs/README.md")
        let inPacks = folder.file("packs"), inPack = folder.file("packs/wechat")

        // validate with no folder: every pack under the root's packs/, README.md skipped; recorded at the root.
        let validated = try Executable.run(["validate"], in: inPacks)
        #expect(validated.status == 0 && validated.stdout.contains("../packs/wechat: passed"), "\(validated.stdout)\(validated.stderr)")
        #expect(!validated.stdout.contains("README"))
        #expect(FileManager.default.fileExists(atPath: folder.file(".soundpack/catalog.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: folder.file("packs/.soundpack")), "no second catalog in packs/")

        let published = try Executable.run(["publish"], in: inPack)
        #expect(published.status == 0 && published.stdout.contains("to ../../dist/wechat/1.0.0"), "\(published.stdout)\(published.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("dist/index.json")))
        #expect(!FileManager.default.fileExists(atPath: folder.file("packs/wechat/dist")))

        let verified = try Executable.run(["verify"], in: inPack)
        #expect(verified.status == 0 && verified.stdout.contains("../../dist: 23 files checked, no drift"), "\(verified.stdout)\(verified.stderr)")
        #expect(try Executable.run(["list"], in: inPacks).stdout.contains("wechat"))

        // An explicit flag or variable still wins, relative to the working folder.
        let named = try Executable.run(["verify", "--store", "dist"], in: inPacks)
        #expect(named.status == 3 && named.stderr.contains("there is no store at dist"), "\(named.stderr)")
    }

    @Test func theRootSearchStopsAtACeiling() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("home/.soundpack"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.file("home/work/app"), withIntermediateDirectories: true)
        let found = try Executable.run(["list"], in: folder.file("home/work/app"))
        #expect(found.stderr.contains("/home/.soundpack/catalog.sqlite"), "a stray .soundpack/ above is the root: \(found.stderr)")
        let stopped = try Executable.run(["list"], in: folder.file("home/work/app"), environment: ["SOUNDPACK_CEILING_DIRECTORIES": folder.file("home")])
        #expect(stopped.stderr.contains("/home/work/app/.soundpack/catalog.sqlite"), "not above the ceiling: \(stopped.stderr)")
    }

    @Test func validateWithNoPacksToFindIsAUsageError() throws {
        let folder = TemporaryFolder()
        let validated = try Executable.run(["validate"], in: folder.path)
        #expect(validated.status == 2 && validated.stderr.contains("no packs to validate"), "\(validated.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    // MARK: The signing secret

    @Test func keygenRefusesASecretThatGitWouldCommit() throws {
        let folder = TemporaryFolder()
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "init", "-q", folder.path]
        try git.run()
        git.waitUntilExit()
        try #require(git.terminationStatus == 0)
        try FileManager.default.createDirectory(atPath: folder.file("keys"), withIntermediateDirectories: false)

        let refused = try Executable.run(["keygen", "-o", "release.key"], in: folder.file("keys"))
        #expect(refused.status == 1 && refused.stderr.contains("git does not ignore") && refused.stderr.contains("add the line '/keys/release.key' to"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("keys/release.key")) && !FileManager.default.fileExists(atPath: folder.file("keys/release.key.pub")))

        // Through a symbolic link from outside the work tree, the key is still inside it.
        let outside = TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: outside.file("link"), withDestinationPath: folder.file("keys"))
        let linked = try Executable.run(["keygen", "-o", "link/se[c]ret.key"], in: outside.path)
        #expect(linked.status == 1 && linked.stderr.contains("add the line '/keys/se\\[c]ret.key' to"), "\(linked.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("keys/se[c]ret.key")))

        // A parent that ignores SIGCHLD (so git's exit status is reaped before keygen reads it)
        // still gets a refusal, never a key written as if git had said "ignored".
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "trap '' CHLD; exec \"$0\" keygen -o release.key", Executable.path]
        process.currentDirectoryURL = URL(fileURLWithPath: folder.file("keys"))
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1 && !FileManager.default.fileExists(atPath: folder.file("keys/release.key")))

        try folder.write("/keys/release.key\n", to: ".gitignore")
        #expect(try Executable.run(["keygen", "-o", "release.key"], in: folder.file("keys")).status == 0)
        let forced = try Executable.run(["keygen", "-o", "other.key", "--force"], in: folder.file("keys"))
        #expect(forced.status == 0 && FileManager.default.fileExists(atPath: folder.file("keys/other.key")), "\(forced.stderr)")
    }

    @Test func aSigningKeyThatSignsNothingSaysSo() throws {
        let folder = try PublishEndToEndTests.project()
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        #expect(try Executable.run(["keygen", "-o", "release.key"], in: folder.path).status == 0)
        let again = try Executable.run(["publish", "--sign-key", "release.key"], in: folder.path)
        #expect(again.status == 0)
        #expect(again.stdout.contains("0 versions signed with key ") && again.stdout.contains("wechat@1.0.0 already published unsigned"), "\(again.stdout)")
        let json = try Executable.run(["publish", "--sign-key", "release.key", "--format", "json"], in: folder.path)
        #expect(json.stderr.contains("0 versions signed") && (try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil, "stdout stays JSON")

        try PublishEndToEndTests.setVersion(folder.file("packs/wechat"), "1.0.1")
        let signed = try Executable.run(["publish", "--sign-key", "release.key"], in: folder.path)
        #expect(signed.stdout.contains("1 version signed with key ") && !signed.stdout.contains("already published"), "\(signed.stdout)")
    }

    @Test func aMissingPublicKeyFileIsAnIOErrorThatNamesKeygen() throws {
        let folder = try PublishEndToEndTests.project()
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        let verify = try Executable.run(["verify", "--public-key", "release.key.pub"], in: folder.path)
        #expect(verify.status == 3, "\(verify.stderr)")
        #expect(verify.stderr.contains("cannot read the public key release.key.pub") && verify.stderr.contains("soundpack keygen -o release.key writes release.key.pub"), "\(verify.stderr)")
        let publish = try Executable.run(["publish", "--sign-key", "nosuch.key"], in: folder.path)
        #expect(publish.status == 3 && publish.stderr.contains("soundpack keygen -o nosuch.key writes one"), "\(publish.stderr)")
        // A file that is there but is not a key is not keygen's to write: refused, without that hint.
        try folder.write(String(repeating: "A", count: 2_000), to: "big.key")
        let big = try Executable.run(["publish", "--sign-key", "big.key"], in: folder.path)
        #expect(big.status == 1 && big.stderr.contains("big.key is not a signing key written by soundpack keygen") && !big.stderr.contains("keygen -o"), "\(big.stderr)")
    }

    // MARK: Errors editors jump to

    @Test func aSyntaxErrorInPackJSONIsPlacedForEditorsAndAnnotations() throws {
        let folder = TemporaryFolder()
        try folder.write("{\n  \"id\": \"x\",\n  \"name\": \"y\"\n  \"version\": \"1.0.0\"\n}\n", to: "p/pack.json")
        let text = try Executable.run(["validate", "p", "--no-record"], in: folder.path)
        #expect(text.status == 1 && text.stdout.hasPrefix("p/pack.json:4:3: error: [manifest.invalid] not valid JSON at line 4, column 3: expected ',' or '}' after a value"), "\(text.stdout)")
        let github = try Executable.run(["validate", "p", "--no-record", "--format", "github"], in: folder.path)
        #expect(github.stdout.hasPrefix("::error file=p/pack.json,line=4,col=3,title=manifest.invalid::"), "\(github.stdout)")
        try folder.write("", to: "p/pack.json")
        #expect(try Executable.run(["validate", "p", "--no-record"], in: folder.path).stdout.hasPrefix("p/pack.json:1:1: error: [manifest.invalid] not valid JSON at line 1, column 1: the file is empty"))
    }

    // MARK: What a reviewer approves

    @Test func showDisplaysTheReadingOptionsAndThePhrases() throws {
        let folder = TemporaryFolder()
        let merchant = try Fixtures.copyDemoPack(into: folder, as: "merchant", from: Fixtures.merchantPack)
        let wechat = try Fixtures.copyDemoPack(into: folder)
        try Fixtures.editManifest(wechat) { $0["grammarOptions"] = ["two": "liang", "money": "kuai-mao"]; $0["version"] = "2.0.0" }
        try Fixtures.editManifest(wechat) { manifest in
            var clips = manifest["clips"] as? [String: String] ?? [:]
            for token in ["两", "块", "毛", "分"] { clips[token] = clips["2"] }
            manifest["clips"] = clips
        }
        #expect(try Executable.run(["validate", merchant, wechat], in: folder.path).status == 0)

        let text = try Executable.run(["show", "merchant"], in: folder.path).stdout
        #expect(text.contains("grammar     zh-Hans (two=er money=yuan tenStart=shi)"), "\(text)")
        #expect(text.contains("phrases     wechat (default): wechat 微信到账 · {amount}\n            alipay: alipay 支付宝到账 · {amount}\n"), "\(text)")
        #expect(text.contains("            order: order 您有一笔新订单\n"))
        let options = try Executable.run(["show", "wechat@2.0.0"], in: folder.path).stdout
        #expect(options.contains("grammar     zh-Hans (two=liang money=kuai-mao tenStart=shi)") && options.contains("phrases     default (default): prefix 微信到账 · {amount}"), "\(options)")

        let json = try JSONSerialization.jsonObject(with: Data(Executable.run(["show", "wechat@2.0.0", "--format", "json"], in: folder.path).stdout.utf8)) as? [String: Any]
        #expect(json?["grammarOptions"] as? [String: String] == ["two": "liang", "money": "kuai-mao", "tenStart": "shi"])
        let phrases = json?["phrases"] as? [String: Any]
        #expect(phrases?["phrases"] as? [String: [String]] == ["default": ["prefix", "{amount}"]] && phrases?["defaultPhrase"] as? String == "default")
        #expect((phrases?["texts"] as? [String: String])?["prefix"] == "微信到账")
    }

    @Test func theCatalogsPhrasesJudgeTheBumpWithoutTheStore() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "packs/merchant", from: Fixtures.merchantPack)
        #expect(try Executable.run(["validate", "packs/merchant"], in: folder.path).status == 0)
        try Fixtures.editManifest(pack) { manifest in
            var phrases = manifest["phrases"] as? [String: [String]] ?? [:]
            phrases["refund"] = nil
            manifest["phrases"] = phrases
            manifest["version"] = "1.0.1"
        }
        #expect(try Executable.run(["validate", "packs/merchant"], in: folder.path).status == 0)
        // No store at all: the catalog's phrases tell diff that a phrase was removed.
        let diff = try Executable.run(["diff", "merchant@1.0.0", "merchant@1.0.1"], in: folder.path)
        #expect(diff.stdout.contains("refund") && diff.stdout.contains("required bump: major"), "\(diff.stdout)\(diff.stderr)")

        // Published, then the store loses the manifest and the index: the catalog still knows the phrases.
        try Fixtures.editManifest(pack) { $0["version"] = "1.0.0" }
        try FileManager.default.removeItem(atPath: pack)
        try Fixtures.copyDemoPack(into: folder, as: "packs/merchant", from: Fixtures.merchantPack)
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        try FileManager.default.removeItem(atPath: folder.file("dist/merchant/1.0.0/manifest.json"))
        try FileManager.default.removeItem(atPath: folder.file("dist/index.json"))
        try Fixtures.editManifest(pack) { manifest in
            var phrases = manifest["phrases"] as? [String: [String]] ?? [:]
            phrases["refund"] = nil
            manifest["phrases"] = phrases
            manifest["version"] = "1.0.2"
        }
        let publish = try Executable.run(["publish"], in: folder.path)
        #expect(publish.status == 1 && publish.stdout.contains("[catalog.version-bump]") && publish.stdout.contains("needs a major bump"), "\(publish.stdout)\(publish.stderr)")
    }

    @Test func aDryRunOnAFreshRunnerJudgesTheBumpAgainstTheStore() throws {
        let folder = try PublishEndToEndTests.project()
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        try FileManager.default.removeItem(atPath: folder.file(".soundpack"))  // a fresh runner: no catalog
        try Fixtures.editManifest(folder.file("packs/wechat")) { $0["maxAmount"] = "99.99"; $0["version"] = "1.0.1" }
        let dryRun = try Executable.run(["publish", "--dry-run"], in: folder.path)
        #expect(dryRun.status == 1 && dryRun.stdout.contains("[catalog.version-bump]") && dryRun.stdout.contains("needs a major bump"), "\(dryRun.stdout)\(dryRun.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file(".soundpack")), "a dry run records nothing")
        let real = try Executable.run(["publish"], in: folder.path)
        #expect(real.status == 1 && real.stdout.contains("[catalog.version-bump]"), "the real run agrees: \(real.stdout)")
    }

    @Test(arguments: CatalogBackend.available)
    func aReadOfACatalogThatIsNotThereSaysSoOnEveryBackend(backend: CatalogBackend) throws {
        let folder = TemporaryFolder()
        let location = try backend.freshLocation(in: folder)  // a file not yet written, or an empty database
        for command in [["list"], ["show", "wechat"]] {
            let read = try Executable.run(command + ["--catalog", location], in: folder.path)
            #expect(read.status == 3 && read.stderr.contains("there is no catalog"), "\(backend) \(command): \(read.stderr)")
        }
        #expect(try Executable.run(["validate", Fixtures.demoPack, "--catalog", location], in: folder.path).status == 0)
        let listed = try Executable.run(["list", "--catalog", location], in: folder.path)
        #expect(listed.status == 0 && listed.stdout.contains("wechat"), "\(backend): \(listed.stderr)")
    }
}

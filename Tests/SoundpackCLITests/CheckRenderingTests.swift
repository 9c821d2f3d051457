// verify, payload lint and publish print their findings through validate's printers: the same
// rule-id namespace and the same text, JUnit, GitHub and SARIF shapes.

import Foundation
import Testing
import SoundpackKit
import SoundpackTestSupport

@Suite struct CheckRenderingTests {
    /// A published demo pack, then one changed clip and one stray file in the store.
    static func driftedStore() throws -> TemporaryFolder {
        let folder = try PublishEndToEndTests.project()
        let published = try Executable.run(["publish"], in: folder.path)
        #expect(published.status == 0, "\(published.stderr)")
        let clip = try #require(FileHandle(forWritingAtPath: folder.file("dist/wechat/1.0.0/clips/5.caf")))
        clip.seekToEndOfFile()
        clip.write(Data([1, 2]))
        try clip.close()
        try folder.write("x", to: "dist/stray.bin")
        return folder
    }

    @Test func verifyDriftIsFindingsInEveryFormat() throws {
        let folder = try Self.driftedStore()
        let text = try Executable.run(["verify"], in: folder.path)
        #expect(text.status == 1)
        #expect(text.stdout == """
            dist/stray.bin: error: [store.unexpected] in the store but in no manifest
            dist/wechat/1.0.0/clips/5.caf: error: [store.changed] \(text.stdout.split(separator: "\n")[1].split(separator: "] ")[1])
            dist: 23 files checked, 2 problems

            """)

        let github = try Executable.run(["verify", "--format", "github"], in: folder.path)
        #expect(github.status == 1)
        #expect(github.stdout.hasPrefix("::error file=dist/stray.bin,title=store.unexpected::[store.unexpected] in the store but in no manifest\n"))
        #expect(github.stdout.hasSuffix("::notice title=soundpack failed::dist: 23 files checked, 2 problems\n"))

        let sarif = try Executable.run(["verify", "--format", "sarif"], in: folder.path)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let run = try #require((document["runs"] as? [[String: Any]])?.first)
        let rules = ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]] ?? []
        #expect(rules.map { $0["id"] as? String } == RuleID.rules(of: .store).map(\.rawValue))
        let results = run["results"] as? [[String: Any]] ?? []
        #expect(results.map { $0["ruleId"] as? String } == ["store.unexpected", "store.changed"])
        for result in results {
            #expect(rules[result["ruleIndex"] as? Int ?? -1]["id"] as? String == result["ruleId"] as? String)
        }

        let junit = try Executable.run(["verify", "--format", "junit"], in: folder.path)
        #expect(junit.stdout.contains("<testsuite name=\"dist\" tests=\"6\" failures=\"2\""), "\(junit.stdout)")
        #expect(junit.stdout.contains("<testcase classname=\"soundpack.verify.store.missing\" name=\"[store.missing] dist\" time=\"0.000\"/>"))

        let json = try Executable.run(["verify", "--format", "json"], in: folder.path)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let drift = object["drift"] as? [[String: Any]] ?? []
        #expect(drift.map { $0["rule"] as? String } == ["store.unexpected", "store.changed"])
        #expect(drift.map { $0["file"] as? String } == ["stray.bin", "wechat/1.0.0/clips/5.caf"])
        #expect(drift.allSatisfy { $0["severity"] as? String == "error" && $0["message"] is String })
    }

    /// What an interrupted publish left is a note: printed, annotated as a notice, never a failure.
    @Test func leftoversAreNotesThatPass() throws {
        let folder = try PublishEndToEndTests.project()
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        try folder.write("{", to: "dist/.index.json.4194305.1.tmp")
        let text = try Executable.run(["verify"], in: folder.path)
        #expect(text.status == 0, "\(text.stdout)")
        #expect(text.stdout.hasPrefix("dist/.index.json.4194305.1.tmp: note: [store.leftover] left by an interrupted publish"))
        let github = try Executable.run(["verify", "--format", "github"], in: folder.path)
        #expect(github.status == 0)
        #expect(github.stdout.hasPrefix("::notice file=dist/.index.json.4194305.1.tmp,title=store.leftover::[store.leftover]"))
        #expect(github.stdout.hasSuffix("::notice title=soundpack passed::dist: 23 files checked, no drift\n"))
        let sarif = try Executable.run(["verify", "--format", "sarif"], in: folder.path)
        #expect(sarif.stdout.contains("\"level\" : \"note\""))
    }

    @Test func payloadLintFindingsInEveryFormat() throws {
        let folder = try PublishEndToEndTests.project()
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        try folder.write(#"{"aps":{"alert":{"body":"x"},"mutable-content":1,"interruption-level":"time-sensitive"},"type":"payment","amount":"15.40","pack":"wechat@9.9.9","paymentId":"p1"}"#, to: "push.json")
        let github = try Executable.run(["payload", "lint", "push.json", "--format", "github"], in: folder.path)
        #expect(github.status == 1)
        #expect(github.stdout == """
            ::error file=push.json,title=payload.unknown-pack::[payload.unknown-pack] \(github.stdout.split(separator: "\n")[0].split(separator: "] ", maxSplits: 1)[1])
            ::notice title=soundpack failed::push.json: failed — 1 error, 0 warnings

            """)
        let junit = try Executable.run(["payload", "lint", "push.json", "--format", "junit"], in: folder.path)
        #expect(junit.stdout.contains("<testsuites name=\"soundpack payload lint\" tests=\"\(RuleID.rules(of: .payload).count)\" failures=\"1\""), "\(junit.stdout)")
        let sarif = try Executable.run(["payload", "lint", "-", "--format", "sarif"], in: folder.path, input: "{}")
        #expect(sarif.status == 1)
        #expect(sarif.stdout.contains("\"ruleId\" : \"payload.no-body\""))
    }

    /// Each refusal of publish names its rule, in text, JSON and GitHub annotations.
    @Test func publishRefusalsHaveRules() throws {
        let folder = try PublishEndToEndTests.project()
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        try PublishEndToEndTests.setVersion(folder.file("packs/wechat"), "0.9.0")
        let github = try Executable.run(["publish", "--format", "github"], in: folder.path)
        #expect(github.status == 1)
        #expect(github.stdout == """
            ::error file=packs/wechat/pack.json,title=catalog.version-not-newer::[catalog.version-not-newer] wechat@0.9.0 is not newer than the published 1.0.0; a new version must be greater than every published one
            ::notice title=soundpack failed::packs/wechat: wechat@0.9.0 is not newer than the published 1.0.0; a new version must be greater than every published one

            """)
        let json = try Executable.run(["publish", "--format", "json"], in: folder.path)
        #expect(json.stdout.contains("\"rule\" : \"catalog.version-not-newer\""))

        // A pack that fails validation: its errors are annotated, and the refusal is the notice.
        try PublishEndToEndTests.setVersion(folder.file("packs/wechat"), "1.0.1")
        try folder.write("not audio", to: "packs/wechat/clips/5.caf")
        let broken = try Executable.run(["publish", "--format", "github"], in: folder.path)
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("::error file=packs/wechat/clips/5.caf,title=file.unreadable::[file.unreadable]"), "\(broken.stdout)")
        #expect(broken.stdout.hasSuffix("::notice title=soundpack failed::packs/wechat: validation failed with 1 error; nothing was published\n"))
    }
}

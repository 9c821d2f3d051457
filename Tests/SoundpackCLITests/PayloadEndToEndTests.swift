// `soundpack payload` writes a push the lint accepts; every lint rule fires on a payload made to break it.

import Foundation
import Testing
import SoundpackTestSupport

@Suite struct PayloadEndToEndTests {
    static func publishedProject() throws -> TemporaryFolder {
        let folder = try PublishEndToEndTests.project()
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        return folder
    }

    @Test func aGeneratedPayloadPassesTheLint() throws {
        let folder = try Self.publishedProject()
        let payload = try Executable.run(["payload", "15.40", "--pack", "wechat", "--base-url", "https://cdn.example.com/voice/"], in: folder.path)
        #expect(payload.status == 0, "\(payload.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(payload.stdout.utf8)) as? [String: Any])
        let aps = try #require(object["aps"] as? [String: Any])
        #expect((aps["alert"] as? [String: Any])?["body"] as? String == "微信到账15.40元")
        #expect(aps["mutable-content"] as? Int == 1)
        #expect(aps["interruption-level"] as? String == "time-sensitive")
        #expect(aps["sound"] as? String == "default")
        #expect(object["type"] as? String == "payment")
        #expect(object["amount"] as? String == "15.40")
        #expect(object["pack"] as? String == "wechat@1.0.0")
        #expect(object["manifest"] as? String == "https://cdn.example.com/voice/wechat/1.0.0/manifest.json")
        #expect(UUID(uuidString: object["paymentId"] as? String ?? "") != nil, "a fresh UUID by default")
        try Data(payload.stdout.utf8).write(to: URL(fileURLWithPath: folder.file("push.json")))
        let lint = try Executable.run(["payload", "lint", "push.json"], in: folder.path)
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(lint.stdout == "push.json: passed — 0 errors, 0 warnings\n")
        #expect(try Executable.run(["payload", "1e3", "--pack", "wechat"], in: folder.path).status == 1)
        #expect(try Executable.run(["payload", "100000000", "--pack", "wechat"], in: folder.path).status == 1)
        #expect(try Executable.run(["payload", "1", "--pack", "alipay"], in: folder.path).status == 1)
        let bad = try Executable.run(["payload", "1", "--pack", "wechat", "--payment-id", "a b\u{1B}[31m"], in: folder.path)
        #expect(bad.status == 2 && bad.stdout.isEmpty && !bad.stderr.contains("\u{1B}"), "\(bad.stderr)")
    }

    @Test(arguments: [
        ("payload.no-body", #"{"aps":{"alert":{"title":"t"},"mutable-content":1,"interruption-level":"time-sensitive"},"amount":"1","pack":"wechat@1.0.0","paymentId":"p-1"}"#, "error"),
        ("payload.not-mutable", #"{"aps":{"alert":{"body":"b"},"interruption-level":"time-sensitive"},"amount":"1","pack":"wechat@1.0.0","paymentId":"p-1"}"#, "error"),
        ("payload.amount-unreadable", #"{"aps":{"alert":{"body":"b"},"mutable-content":1,"interruption-level":"time-sensitive"},"amount":"1,23,4","pack":"wechat@1.0.0","paymentId":"p-1"}"#, "error"),
        ("payload.amount-unreadable", #"{"aps":{"alert":{"body":"b"},"mutable-content":1,"interruption-level":"time-sensitive"},"amount":"100000000","pack":"wechat@1.0.0","paymentId":"p-1"}"#, "error"),
        ("payload.unknown-pack", #"{"aps":{"alert":{"body":"b"},"mutable-content":1,"interruption-level":"time-sensitive"},"amount":"1","pack":"wechat@9.9.9","paymentId":"p-1"}"#, "error"),
        ("payload.no-interruption-level", #"{"aps":{"alert":{"body":"b"},"mutable-content":1},"amount":"1","pack":"wechat@1.0.0","paymentId":"p-1"}"#, "warning"),
        ("payload.not-mutable", #"{"aps":{"alert":{"body":"b"},"mutable-content":true,"interruption-level":"time-sensitive"},"amount":"1","pack":"wechat@1.0.0","paymentId":"p-1"}"#, "error"),
        ("payload.interruption-level", #"{"aps":{"alert":{"body":"b"},"mutable-content":1,"interruption-level":"urgent"},"amount":"1","pack":"wechat@1.0.0","paymentId":"p-1"}"#, "error"),
        ("payload.critical", #"{"aps":{"alert":{"body":"b"},"mutable-content":1,"interruption-level":"critical"},"amount":"1","pack":"wechat@1.0.0","paymentId":"p-1"}"#, "warning"),
        ("payload.no-payment-id", #"{"aps":{"alert":{"body":"b"},"mutable-content":1,"interruption-level":"active"},"amount":"1","pack":"wechat@1.0.0"}"#, "warning"),
        ("payload.payment-id", #"{"aps":{"alert":{"body":"b"},"mutable-content":1,"interruption-level":"active"},"amount":"1","pack":"wechat@1.0.0","paymentId":"../../etc"}"#, "error"),
        ("payload.payment-id", #"{"aps":{"alert":{"body":"b"},"mutable-content":1,"interruption-level":"active"},"amount":"1","pack":"wechat@1.0.0","paymentId":42}"#, "error"),
        ("payload.invalid", #"{"aps":{"alert":{"body":"b"},"mutable-content":1,"interruption-level":"active"},"amount":"1","amount":"9","pack":"wechat@1.0.0","paymentId":"p-1"}"#, "error"),
    ])
    func eachRuleFires(_ rule: String, _ json: String, _ severity: String) throws {
        let folder = try Self.publishedProject()
        let result = try Executable.run(["payload", "lint", "-"], in: folder.path, input: json)
        #expect(result.stdout.contains("-: \(severity): [\(rule)]"), "\(result.stdout)")
        #expect(result.status == (severity == "error" ? 1 : 0))
        let findings = result.stdout.split(separator: "\n").filter { $0.contains("[payload.") }
        #expect(findings.count == 1, "\(findings)")
    }

    /// `payload` writes only what its lint accepts; the lint knows yanked versions and missing clips.
    @Test func payloadRefusesWhatItsLintRejects() throws {
        let folder = try Self.publishedProject()
        let empty = try Executable.run(["payload", "15", "--pack", "wechat", "--body", ""], in: folder.path)
        #expect(empty.status == 1 && empty.stdout.isEmpty && empty.stderr.contains("payload.no-body"), "\(empty.stderr)")
        let long = try Executable.run(["payload", "15", "--pack", "wechat", "--title", String(repeating: "长", count: 5_000)], in: folder.path)
        #expect(long.status == 1 && long.stdout.isEmpty && long.stderr.contains("payload.too-large"), "\(long.stderr)")
        #expect(try Executable.run(["yank", "wechat@1.0.0", "--reason", "bad clip"], in: folder.path).status == 0)
        let yanked = try Executable.run(["payload", "15", "--pack", "wechat@1.0.0"], in: folder.path)
        #expect(yanked.status == 1 && yanked.stderr.contains("payload.yanked-pack"), "\(yanked.stderr)")
        let push = #"{"aps":{"alert":{"body":"b"},"mutable-content":1,"interruption-level":"active"},"amount":"1","pack":"wechat@1.0.0"}"#
        let lint = try Executable.run(["payload", "lint", "-"], in: folder.path, input: push)
        #expect(lint.status == 1 && lint.stdout.contains("[payload.yanked-pack]"))
    }

    @Test func theLintKnowsWhichClipsThePackHas() throws {
        let folder = try PublishEndToEndTests.project()
        try Fixtures.editManifest(folder.file("packs/wechat")) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            clips["亿"] = nil
            object["clips"] = clips
            object["maxAmount"] = "99999999.99"
        }
        try FileManager.default.removeItem(atPath: folder.file("packs/wechat/clips/yi.caf"))
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        let push = #"{"aps":{"alert":{"body":"b"},"mutable-content":1,"interruption-level":"active"},"amount":"15.40","pack":"wechat@1.0.0"}"#
        #expect(try Executable.run(["payload", "lint", "-"], in: folder.path, input: push).status == 0)
    }

    /// A payload naming a version index.json lists whose manifest cannot be read is an error that
    /// names it (exit 3), not payload.unknown-pack, which sent the team looking for a version that
    /// is published; a payload naming another version is linted as before.
    @Test func aListedVersionWhoseManifestCannotBeReadIsAnErrorNotAnUnknownPack() throws {
        let folder = try Self.publishedProject()
        try PublishEndToEndTests.setVersion(folder.file("packs/wechat"), "1.0.1")
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        try Data("truncated {".utf8).write(to: URL(fileURLWithPath: folder.file("dist/wechat/1.0.0/manifest.json")))
        func push(_ pack: String) -> String {
            #"{"aps":{"alert":{"body":"b"},"mutable-content":1,"interruption-level":"active"},"amount":"1","pack":"\#(pack)","paymentId":"p1"}"#
        }
        let broken = try Executable.run(["payload", "lint", "-"], in: folder.path, input: push("wechat@1.0.0"))
        #expect(broken.status == 3, "\(broken.stdout)\(broken.stderr)")
        #expect(broken.stderr == "error: cannot check the payload against wechat@1.0.0, which the store's index.json lists — dist/wechat/1.0.0/manifest.json is not a soundpack manifest: not JSON (soundpack verify checks the store)\n",
                "\(broken.stderr)")
        let other = try Executable.run(["payload", "lint", "-"], in: folder.path, input: push("wechat@1.0.1"))
        #expect(other.status == 0, "\(other.stdout)\(other.stderr)")
        let unknown = try Executable.run(["payload", "lint", "-"], in: folder.path, input: push("wechat@9.0.0"))
        #expect(unknown.status == 1 && unknown.stdout.contains("[payload.unknown-pack]"), "\(unknown.stdout)\(unknown.stderr)")
    }

    @Test func tooLargeAndMalformedPayloads() throws {
        let folder = try Self.publishedProject()
        let body = String(repeating: "很", count: 1_500)
        let large = #"{"aps":{"alert":{"body":"\#(body)"},"mutable-content":1,"interruption-level":"time-sensitive"},"amount":"1","pack":"wechat@1.0.0"}"#
        let result = try Executable.run(["payload", "lint", "-"], in: folder.path, input: large)
        #expect(result.status == 1)
        #expect(result.stdout.contains("[payload.too-large] 4"))
        let broken = try Executable.run(["payload", "lint", "-"], in: folder.path, input: "{not json")
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("[payload.invalid] not a JSON object"))
    }
}

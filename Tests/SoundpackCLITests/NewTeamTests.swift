// What a new team hit on its first day, each fixed and kept fixed: read-only commands that left a
// catalog behind, a closed pipe that printed errors and kept reading, missing files reported as
// failed checks, a container that contradicted the file name, and small gaps in the command line.

import Foundation
import Testing
import SoundpackTestSupport

@Suite struct NewTeamTests {
    @Test func readOnlyCommandsLeaveNoCatalogBehind() throws {
        let folder = TemporaryFolder()
        try folder.write(#"{"aps":{"alert":{"body":"b"},"mutable-content":1},"amount":"1","pack":"wechat@1.0.0"}"#, to: "push.json")
        for command in [["list"], ["show", "wechat"], ["verify"], ["diff", "wechat@1.0.0", "wechat@1.0.1"], ["export", "wechat"], ["payload", "lint", "push.json"]] {
            _ = try Executable.run(command, in: folder.path)
            #expect(!FileManager.default.fileExists(atPath: folder.file(".soundpack")), "\(command) created .soundpack/")
        }
    }

    @Test func payloadLintWithoutAStoreSaysSo() throws {
        let folder = TemporaryFolder()
        try folder.write(#"{"aps":{"alert":{"body":"b"},"mutable-content":1},"amount":"1","pack":"wechat@1.0.0","paymentId":"p"}"#, to: "push.json")
        let lint = try Executable.run(["payload", "lint", "push.json"], in: folder.path)
        #expect(lint.status == 3 && lint.stderr.contains("the store dist has no index.json: nothing is published there"), "\(lint.stderr)")
    }

    @Test func aClosedStandardOutputEndsTheCommandQuietlyAndStopsReading() throws {
        let folder = TemporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        // `yes` never ends: say must stop reading once head has its line.
        process.arguments = ["-c", "set -o pipefail; yes 15.40 | timeout 20 '\(Executable.path)' say - --grammar zh-Hans 2>\(folder.file("err")) | head -1; echo \"${PIPESTATUS[1]}\" > \(folder.file("status"))"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: Executable.readToEnd(output.fileHandleForReading), as: UTF8.self)
        process.waitUntilExit()
        #expect(text == "十五点四元\n")
        #expect(try String(contentsOfFile: folder.file("status"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(try String(contentsOfFile: folder.file("err"), encoding: .utf8).isEmpty)
    }

    @Test func aMissingFileIsAnIOErrorNotAFailedCheck() throws {
        let folder = try PublishEndToEndTests.project()
        let amounts = try Executable.run(["render", "--pack", "packs/wechat", "--amounts", "nosuch.txt", "-o", "out"], in: folder.path)
        #expect(amounts.status == 3 && amounts.stderr.contains("cannot read the amounts file nosuch.txt"), "\(amounts.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out")), "the output folder is made only once the amounts are read")
        let baseline = try Executable.run(["validate", "packs/wechat", "--baseline", "nosuch.json", "--no-record"], in: folder.path)
        #expect(baseline.status == 3 && baseline.stderr.contains("cannot read the baseline nosuch.json"), "\(baseline.stderr)")
        let archive = try Executable.run(["import", "nosuch.tar.gz", "dest"], in: folder.path)
        #expect(archive.status == 3 && archive.stderr.contains("cannot import nosuch.tar.gz"), "\(archive.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("dest")))
    }

    @Test func aContainerThatContradictsTheFileNameIsRefused() throws {
        let folder = try PublishEndToEndTests.project()
        let conflict = try Executable.run(["render", "--pack", "packs/wechat", "15", "-o", "a.caf", "--container", "wav"], in: folder.path)
        #expect(conflict.status == 2 && conflict.stderr.contains("--container wav conflicts with -o a.caf"), "\(conflict.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("a.caf")))
        #expect(try Executable.run(["render", "--pack", "packs/wechat", "15", "-o", "a.wav", "--container", "wav"], in: folder.path).status == 0)
    }

    @Test func aYankedNewestVersionIsNeverShownAsPlainlyCurrent() throws {
        let folder = try PublishEndToEndTests.project()
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        #expect(try Executable.run(["yank", "wechat@1.0.0", "--reason", "clip 3"], in: folder.path).status == 0)
        let list = try Executable.run(["list"], in: folder.path)
        #expect(list.stdout.contains("wechat  1.0.0 (yanked)"), "\(list.stdout)")
        let export = try Executable.run(["export", "wechat@1.0.0", "--format", "json"], in: folder.path)
        #expect(export.status == 0 && export.stderr.contains("warning: wechat@1.0.0 is yanked (clip 3)"), "\(export.stderr)")
    }

    @Test func diffSaysWhatChangedAndComparesOnePack() throws {
        let folder = try PublishEndToEndTests.project()
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        try PublishEndToEndTests.setVersion(folder.file("packs/wechat"), "1.0.1")
        #expect(try Executable.run(["publish"], in: folder.path).status == 0)
        let version = try Executable.run(["diff", "wechat@1.0.0", "wechat@1.0.1"], in: folder.path)
        #expect(version.stdout.contains("only the version changed") && version.stdout.contains("required bump: no"), "\(version.stdout)")
        try Fixtures.editManifest(folder.file("packs/wechat")) { object in
            object["texts"] = ["prefix": "支付宝到账"]
        }
        let text = try Executable.run(["diff", "wechat@1.0.1", "packs/wechat"], in: folder.path)
        #expect(text.stdout.contains("texts changed: prefix: 微信到账 → 支付宝到账 (needs patch)"), "\(text.stdout)")
        try Fixtures.copyDemoPack(into: folder, as: "packs/other")
        try Fixtures.editManifest(folder.file("packs/other")) { $0["id"] = "other" }
        let other = try Executable.run(["diff", "wechat@1.0.1", "packs/other"], in: folder.path)
        #expect(other.status == 2 && other.stderr.contains("wechat and other are different packs"), "\(other.stderr)")
    }

    @Test func showKeepsTheHistoryOfEachContentApart() throws {
        let folder = try PublishEndToEndTests.project()
        #expect(try Executable.run(["validate", "packs/wechat"], in: folder.path).status == 0)
        try Fixtures.editManifest(folder.file("packs/wechat")) { $0["texts"] = ["prefix": "云闪付到账"] }
        #expect(try Executable.run(["validate", "packs/wechat"], in: folder.path).status == 0)
        #expect(try Executable.run(["validate", "packs/wechat"], in: folder.path).status == 0)
        let show = try Executable.run(["show", "wechat@1.0.0"], in: folder.path)
        #expect(show.stdout.contains("(2 runs; 1 of other content under this version)"), "\(show.stdout)")
    }

    @Test func theCommandLineHasTheUsualShortcuts() throws {
        let folder = try PublishEndToEndTests.project()
        let help = try Executable.run(["help", "nosuch"], in: folder.path)
        #expect(help.status == 2 && help.stderr.contains("no command 'nosuch' to help with"), "\(help.stderr)")
        let close = try Executable.run(["help", "validat"], in: folder.path)
        #expect(close.status == 2 && close.stderr.contains("did you mean 'soundpack help validate'?"), "\(close.stderr)")
        let version = try Executable.run(["-V"], in: folder.path)
        #expect(version.status == 0 && version.stdout.hasPrefix("soundpack "))
        let output = try Executable.run(["validate", "packs/wechat", "--format", "json", "-o", "report.json", "--no-record"], in: folder.path)
        #expect(output.status == 0 && FileManager.default.fileExists(atPath: folder.file("report.json")), "\(output.stderr)")
    }
}

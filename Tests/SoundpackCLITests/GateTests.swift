// The gate no pack can switch off: a pack cannot waive its own errors, signatures are required
// when keys are given, payloads pass their own lint, and render refuses what iOS would not play.

import Foundation
import Testing
import SoundpackTestSupport

@Suite struct GateTests {
    typealias Project = PublishEndToEndTests

    @Test func aPackCannotIgnoreItsOwnErrors() throws {
        let folder = try Project.project()
        let pack = folder.file("packs/wechat")
        try FileManager.default.removeItem(atPath: pack + "/clips/7.caf")
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: pack + "/clips/5.caf"))
        try Fixtures.editManifest(pack) { $0["checks"] = ["ignore": ["file.unreadable", "coverage.missing-token", "audio.dc-offset"]] }
        let validate = try Project.run(["validate", "packs/wechat", "--no-record"], folder)
        #expect(validate.status == 1)
        #expect(validate.stdout.contains("file.unreadable is an error rule, and a pack cannot waive its own errors"))
        #expect(validate.stdout.contains("packs/wechat/clips/5.caf: error: [file.unreadable]"), "\(validate.stdout)")
        let publish = try Project.run(["publish"], folder)
        #expect(publish.status == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.file("dist/wechat")))
        // CI can still waive an error, visibly, with --ignore.
        #expect(try Project.run(["validate", "packs/wechat", "--no-record", "--ignore", "file.unreadable", "--ignore", "manifest.invalid"], folder).status == 0)
    }

    @Test func verifyWithAKeyRequiresEveryVersionSignedByAGivenKey() throws {
        let folder = try Project.project()
        #expect(try Project.run(["keygen", "-o", "release.key"], folder).status == 0)
        #expect(try Project.run(["keygen", "-o", "other.key"], folder).status == 0)
        #expect(try Project.run(["publish"], folder).status == 0)
        let unsigned = try Project.run(["verify", "--public-key", "release.key.pub"], folder)
        #expect(unsigned.status == 1)
        #expect(unsigned.stdout.contains("is not signed"))
        try PublishEndToEndTests.setVersion(folder.file("packs/wechat"), "1.0.1")
        #expect(try Project.run(["publish", "--sign-key", "release.key"], folder).status == 0)
        let other = try Project.run(["verify", "--public-key", "other.key.pub"], folder)
        #expect(other.status == 1)
        #expect(other.stdout.contains("not one of the 1 given"))
        // 1.0.0 is still unsigned, so the right key alone is not enough either.
        #expect(try Project.run(["verify", "--public-key", "release.key.pub"], folder).status == 1)
        #expect(try Project.run(["verify"], folder).status == 0)
    }
}

@Suite struct RenderLimitTests {
    /// A pack whose longest announcement passes 30 s: render refuses it unless --allow-long.
    @Test func anAnnouncementIOSWouldNotPlayIsRefused() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        try Fixtures.writeClip(Fixtures.tone(seconds: 2.9), to: pack + "/clips/3.caf")
        let refused = try Executable.run(["render", "--pack", pack, "33333333.33", "-o", "long.caf"], in: folder.path)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("[compose.too-long]"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("long.caf")))
        let bulk = try Executable.run(["render", "--pack", pack, "33333333.33", "15.40", "-o", "out"], in: folder.path)
        #expect(bulk.status == 1)
        #expect(FileManager.default.fileExists(atPath: folder.file("out/15.40.caf")))
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/33333333.33.caf")))
        let allowed = try Executable.run(["render", "--pack", pack, "33333333.33", "-o", "long.caf", "--allow-long"], in: folder.path)
        #expect(allowed.status == 0, "\(allowed.stderr)")
    }
}

@Suite struct BaseURLTests {
    @Test(arguments: ["cdn.example.com", "/packs", "ftp://cdn.example.com/p", "https://", "https://cdn.example.com/p?x=1"])
    func onlyAnAbsoluteHTTPURLIsABaseURL(_ url: String) throws {
        let result = try Executable.run(["export", Fixtures.demoPack, "--base-url", url], in: "/")
        // A bad option value: a usage error (exit 2), as payload's --base-url, found before the store is read.
        #expect(result.status == 2 && result.stdout.isEmpty && result.stderr.contains("not an absolute http(s) URL"), "\(url): \(result.stderr)")
    }
}

/// Published archives as other tools read them: one top-level folder, nothing after the end.
@Suite struct ArchiveLayoutTests {
    static func tool(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = Executable.readToEnd(pipe.fileHandleForReading)
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func archivesHaveOneTopFolderAndNoTrailingBytes() throws {
        let folder = try PublishEndToEndTests.project()
        #expect(try PublishEndToEndTests.run(["publish"], folder).status == 0)
        let tgz = folder.file("dist/wechat/1.0.0/wechat-1.0.0.tar.gz"), zip = folder.file("dist/wechat/1.0.0/wechat-1.0.0.zip")
        // gzip -t warns (exit 2) about trailing zero bytes after the stream.
        let gzip = try Self.tool("/bin/gzip", ["-t", tgz])
        #expect(gzip.status == 0 && gzip.output.isEmpty, "\(gzip.output)")
        let listing = try Self.tool("/bin/tar", ["-tzf", tgz]).output.split(separator: "\n")
        #expect(!listing.isEmpty && listing.allSatisfy { $0.hasPrefix("wechat-1.0.0/") }, "\(listing)")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: zip)))
        // The end-of-central-directory record, with no comment, is the last 22 bytes.
        #expect(Array(bytes.suffix(22).prefix(4)) == [0x50, 0x4B, 0x05, 0x06] && bytes.suffix(2).allSatisfy { $0 == 0 })
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/zipdetails") {
            let details = try Self.tool("/usr/bin/zipdetails", [zip]).output
            #expect(!details.contains("TRAILING") && details.contains("END CENTRAL HEADER"))
        }
    }
}

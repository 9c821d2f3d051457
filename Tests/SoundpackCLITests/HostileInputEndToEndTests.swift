// Hostile input through the built binary: one member of each class the hostile-input review found,
// each asserting the clear error, the exit code and an untouched disk.

import Foundation
import Testing
import SoundpackTestSupport
import SoundpackKit

@Suite struct HostileInputEndToEndTests {
    static let escape = "\u{1B}"

    /// No control character reaches the terminal: every byte below 0x20 but the newline, DEL and
    /// every C1 control are escaped.
    static func printable(_ text: String) -> Bool {
        !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    static func writeManifest(_ pack: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: pack + "/pack.json"))
    }

    static func demoManifestText() throws -> String {
        try String(contentsOfFile: Fixtures.demoPack + "/pack.json", encoding: .utf8)
    }

    // MARK: output injection

    @Test func aClipKeyWithANewlineCannotForgeAVerdictLine() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "packs/evil")
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            clips["x\npacks/forged: passed — forged 1.0.0, 0 errors, 0 warnings\n"] = "clips/1.caf"
            object["clips"] = clips
        }
        let result = try Executable.run(["validate", "packs/evil", "--no-record"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.stdout.contains("[manifest.invalid]") && result.stdout.contains("control character"))
        for line in result.stdout.split(separator: "\n") { #expect(line.hasPrefix("packs/evil"), "forged line: \(line)") }
        #expect(Self.printable(result.stdout))
    }

    @Test(arguments: ["\u{1B}]0;owned\u{07}\u{1B}[31mred", "C1 \u{9B}2J", "DEL \u{7F}", "tab\there"])
    func controlCharactersInTheNameAreRefusedAndNeverPrinted(_ name: String) throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        try Fixtures.editManifest(pack) { $0["name"] = name }
        for format in ["text", "github", "junit"] {
            let result = try Executable.run(["validate", pack, "--no-record", "--format", format], in: folder.path)
            #expect(result.status == 1, "\(format)")
            #expect(result.stdout.contains("name"), "\(format): \(result.stdout)")
            #expect(Self.printable(result.stdout), "\(format): \(result.stdout.debugDescription)")
        }
    }

    @Test func controlCharactersInSayInputAreQuotedVisiblyAndShort() throws {
        let hostile = "1\u{1B}[2J\u{9B}" + String(repeating: "9", count: 500)
        let result = try Executable.run(["say", "--grammar", "zh-Hans", hostile], in: "/")
        #expect(result.status == 1)
        #expect(result.stderr.contains("\\u{1B}"))
        #expect(Self.printable(result.stderr))
        #expect(result.stderr.count < 300, "the input is quoted, not echoed whole")
    }

    @Test func anArchiveEntryNameWithControlsIsEscapedInTheError() throws {
        let folder = TemporaryFolder()
        var tar = TarBuilder()
        tar.add("pack.json", Array(try Self.demoManifestText().utf8))
        tar.add("clips/\u{1B}[31m\u{9B}evil\u{7F}.caf", [1, 2, 3])
        try tar.finished().write(to: URL(fileURLWithPath: folder.file("evil.tar")))
        let result = try Executable.run(["import", "evil.tar", "packs/imported"], in: folder.path)
        #expect(result.status == 1 || result.status == 3)
        #expect(Self.printable(result.stdout + result.stderr), "\((result.stdout + result.stderr).debugDescription)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("packs/imported")))
    }

    /// `clips//5.caf` and `clips/./5.caf` are `clips/5.caf` on disk: one file named twice is
    /// refused as twice, never written over or reported with libarchive's puzzling message.
    @Test(arguments: ["clips//5.caf", "clips/./5.caf", "./clips/5.caf/"])
    func twoSpellingsOfOnePathAreOneName(_ twin: String) throws {
        let folder = TemporaryFolder()
        var tar = TarBuilder()
        tar.add("pack.json", Array(try Self.demoManifestText().utf8))
        tar.add("clips/5.caf", [1, 2, 3])
        tar.add(twin, [4, 5, 6])
        try tar.finished().write(to: URL(fileURLWithPath: folder.file("twins.tar")))
        let result = try Executable.run(["import", "twins.tar", "packs/imported"], in: folder.path)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("appears twice"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("packs/imported")))
    }

    @Test func aPayloadWithEscapesIsLintedWithoutPrintingThem() throws {
        let folder = TemporaryFolder()
        let payload = #"{"aps":{"alert":{"body":"x"},"mutable-content":1},"amount":"\u001b[2J\u009b1","pack":"p@1.0.0"}"#
        try Data(payload.utf8).write(to: URL(fileURLWithPath: folder.file("push.json")))
        let result = try Executable.run(["payload", "lint", "push.json"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.stdout.contains("payload.amount-unreadable"))
        #expect(Self.printable(result.stdout))
    }

    // MARK: ambiguous JSON

    @Test(arguments: [
        (#""id": "wechat", "id": "evil","#, "'id'"),
        (#""clips": {"5": "clips/5.caf", "5": "clips/9.caf"},"#, "'5'"),
        (#""texts": {"prefix": "a", "\u0070refix": "b"},"#, "'prefix'"),
    ])
    func aRepeatedKeyIsRefusedWithBothLines(_ insert: String, _ key: String) throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        var text = try Self.demoManifestText()
        let brace = try #require(text.firstIndex(of: "{"))
        text.insert(contentsOf: "\n  " + insert, at: text.index(after: brace))
        try Self.writeManifest(pack, text)
        let result = try Executable.run(["validate", pack, "--no-record"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.stdout.contains("[manifest.invalid]") && result.stdout.contains(key) && result.stdout.contains("appears twice"),
                "\(result.stdout)")
        #expect(result.stdout.contains("on lines 2 and"), "\(result.stdout)")
    }

    // MARK: store paths and names that cannot become files

    @Test func twoClipsOnOneStorePathAreRefusedAtValidateAndNeverPublished() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "packs/wechat")
        try FileManager.default.copyItem(atPath: pack + "/clips/5.caf", toPath: pack + "/5.caf")
        try FileManager.default.copyItem(atPath: pack + "/clips/9.caf", toPath: pack + "/clips/5b.caf")
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            clips["5"] = "5.caf"
            clips["9"] = "clips/5.caf"
            object["clips"] = clips
        }
        let validate = try Executable.run(["validate", "packs/wechat", "--no-record"], in: folder.path)
        #expect(validate.status == 1)
        #expect(validate.stdout.contains("would both be published as clips/5.caf"), "\(validate.stdout)")
        let publish = try Executable.run(["publish"], in: folder.path)
        #expect(publish.status == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.file("dist/wechat")))
    }

    @Test func aVersionTooLongForAFileNameIsRefusedAtValidate() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "packs/wechat")
        try Fixtures.editManifest(pack) { $0["version"] = "1.0.0+" + String(repeating: "a", count: 300) }
        let validate = try Executable.run(["validate", "packs/wechat", "--no-record"], in: folder.path)
        #expect(validate.status == 1)
        #expect(validate.stdout.contains("too long to name the archive"), "\(validate.stdout)")
        let publish = try Executable.run(["publish"], in: folder.path)
        #expect(publish.status == 1, "\(publish.stdout)\(publish.stderr)")
    }
}

@Suite struct InputSizeEndToEndTests {
    @Test func aHugeLineOnStandardInputIsRefusedWithoutBeingKept() throws {
        let huge = String(repeating: "9", count: 2_000_000)
        let result = try Executable.run(["say", "--grammar", "zh-Hans", "-"], in: "/", input: "15.40\n\(huge)\n\(huge)\n1")
        #expect(result.status == 1)
        #expect(result.stdout == "十五点四元\n一元\n")
        let errors = result.stderr.split(separator: "\n")
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { $0.contains("2000000 bytes, above 1024") && $0.count < 200 })
    }
}

/// Where output goes: `-` is standard output, an existing FIFO or device is written into and never
/// replaced, and output that cannot be written is exit 3.
@Suite struct OutputDestinationTests {
    /// Runs soundpack with its standard output redirected by the shell (a FileHandle handed to
    /// Process would be closed twice, once by Process and once when it is released).
    static func runWithStandardOutput(_ arguments: [String], in directory: String, to path: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", #"out="$1"; shift; exec "$@" > "$out""#, "bash", path, Executable.path] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let data = Executable.readToEnd(errors.fileHandleForReading)
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func aFullDiskOnStandardOutputIsExitThree() throws {
        let say = try Self.runWithStandardOutput(["say", "--grammar", "zh-Hans", "15.40"], in: "/", to: "/dev/full")
        #expect(say.status == 3)
        #expect(say.stderr.contains("cannot write to standard output"))
        let validate = try Self.runWithStandardOutput(["validate", Fixtures.demoPack, "--no-record", "--format", "json"], in: "/", to: "/dev/full")
        #expect(validate.status == 3)
    }

    @Test func aFIFOGivenAsOutputIsWrittenIntoNotReplaced() throws {
        let folder = TemporaryFolder()
        let fifo = folder.file("report.fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let pipe = Pipe()
        reader.standardOutput = pipe
        try reader.run()
        let result = try Executable.run(["validate", Fixtures.demoPack, "--no-record", "--format", "json", "--output", fifo], in: folder.path)
        let received = Executable.readToEnd(pipe.fileHandleForReading)
        reader.waitUntilExit()
        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(String(decoding: received, as: UTF8.self).contains("\"packs\""))
    }

    @Test func dashIsStandardOutputEverywhere() throws {
        let folder = TemporaryFolder()
        let validate = try Executable.run(["validate", Fixtures.demoPack, "--no-record", "--format", "json", "--output", "-"], in: folder.path)
        #expect(validate.status == 0 && validate.stdout.hasPrefix("{"))
        let report = try Executable.run(["report", Fixtures.demoPack, "-o", "-"], in: folder.path)
        #expect(report.status == 0 && report.stdout.hasPrefix("<!DOCTYPE html>"))
        let render = try Executable.run(["render", "--pack", Fixtures.demoPack, "15.40", "-o", "-", "--container", "wav"], in: folder.path)
        #expect(render.status == 0 && render.stdout.utf8.starts(with: Array("RIFF".utf8)))
        #expect(!FileManager.default.fileExists(atPath: folder.file("-")))
    }

    @Test func severalAmountsIntoOneFileNameAreRefused() throws {
        let folder = TemporaryFolder()
        let result = try Executable.run(["render", "--pack", Fixtures.demoPack, "5", "6", "-o", "single.caf"], in: folder.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("need a folder"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("single.caf")))
    }
}

@Suite struct SmallerHostileCasesTests {
    @Test func anArchiveOfDotIsImported() throws {
        let folder = TemporaryFolder()
        var tar = TarBuilder()
        tar.add("./", kind: .folder)
        tar.add("./pack.json", Array(try HostileInputEndToEndTests.demoManifestText().utf8))
        tar.add("./clips/", kind: .folder)
        for file in try FileManager.default.contentsOfDirectory(atPath: Fixtures.demoPack + "/clips") {
            tar.add("./clips/" + file, Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.demoPack + "/clips/" + file))))
        }
        try tar.finished().write(to: URL(fileURLWithPath: folder.file("p.tar")))
        let result = try Executable.run(["import", "p.tar", "packs/wechat"], in: folder.path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("packs/wechat/pack.json")))
    }

    @Test func aCatalogThatIsNotSQLiteIsNamed() throws {
        let folder = TemporaryFolder()
        try folder.write(String(repeating: "not a database ", count: 100), to: "catalog.sqlite")
        let result = try Executable.run(["list", "--catalog", "catalog.sqlite"], in: folder.path)
        #expect(result.status == 3)
        #expect(result.stderr.contains(folder.file("catalog.sqlite")) && result.stderr.contains("is not a soundpack catalog"))
        #expect(try String(contentsOfFile: folder.file("catalog.sqlite"), encoding: .utf8).hasPrefix("not a database"))
    }

    @Test func importsLeaveNoStagingBehind() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("packs/.wechat.importing-4194305-7"), withIntermediateDirectories: true)
        try folder.write("garbage", to: "broken.tar")
        let failed = try Executable.run(["import", "broken.tar", "packs/wechat"], in: folder.path)
        #expect(failed.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("packs")).isEmpty, "an abandoned or failed staging folder stayed")
    }
}

@Suite struct DeepPathTests {
    static let deep = Array(repeating: "a", count: 30_000).joined(separator: "/")

    /// A path argument 30,000 levels deep: a clear error and exit 3, never a crash, whatever the command.
    @Test(arguments: [
        ["list", "--catalog", deep + "/c.sqlite"], ["init", deep, "--id", "x"], ["convert", "PACK", deep + "/d"],
        ["publish", "PACK", "--store", deep], ["validate", "PACK", "--no-record", "--output", deep + "/o.json"],
        ["render", "--pack", "PACK", "5", "-o", deep + "/x.caf"], ["export", "PACK", "-o", deep + "/x.plist"],
    ])
    func aPathThirtyThousandLevelsDeepIsAnErrorNotACrash(_ arguments: [String]) throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        let result = try Executable.run(arguments.map { $0 == "PACK" ? pack : $0 }, in: folder.path)
        #expect(result.status == 2 || result.status == 3, "\(arguments[0]): \(result.status) \(result.stderr.prefix(300))")
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.count < 1_000, "\(result.stderr.prefix(300))")
    }
}

@Suite struct CatalogTextInjectionTests {
    /// A catalog written before control characters were refused (or edited by hand) still prints
    /// one row per line, with the characters escaped.
    @Test func listAndShowEscapeWhatTheCatalogHolds() throws {
        let folder = TemporaryFolder()
        #expect(try Executable.run(["validate", Fixtures.demoPack], in: folder.path).status == 0)
        let db = try SQLiteDatabase(path: folder.file(".soundpack/catalog.sqlite"))
        try db.execute("UPDATE packs SET name = 'evil' || char(10) || 'forged  1.0.0  9  zh-Hans' || char(27) || '[2J' || char(155)")
        let list = try Executable.run(["list"], in: folder.path)
        #expect(list.status == 0)
        #expect(list.stdout.split(separator: "\n").count == 2, "\(list.stdout)")
        #expect(HostileInputEndToEndTests.printable(list.stdout))
        let show = try Executable.run(["show", "wechat"], in: folder.path)
        #expect(HostileInputEndToEndTests.printable(show.stdout) && show.stdout.contains("\\u{A}forged"))
    }
}

/// A combining mark after `/` joins the two into one character: path checks must work on bytes,
/// or `../\u{065E}x` (which the system reads as `..` then `ٞx`) slips past a `..` test.
@Suite struct CombiningMarkPathTests {
    @Test(arguments: ["../\u{065E}outside.caf", "clips/../../\u{065E}outside.caf", "/\u{065E}tmp/outside.caf"])
    func aClipPathThatLeavesThePackIsRefused(_ path: String) throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "packs/wechat")
        // The file the path would reach, if it were followed.
        try FileManager.default.copyItem(atPath: pack + "/clips/5.caf", toPath: folder.file("packs/\u{065E}outside.caf"))
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            clips["5"] = path
            object["clips"] = clips
        }
        let result = try Executable.run(["validate", "packs/wechat", "--no-record"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.stdout.contains("[manifest.unsafe-path]"), "\(result.stdout)")
    }

    /// Two spellings of one folder name (`café` composed, `cafe` + U+0301) are one String but two
    /// folders on Linux: the second, a link out of the pack, is looked at although the first was
    /// found to be a folder. (Which clip is looked at first varies by run; the link's is one of 18.)
    @Test func aLinkUnderAnotherSpellingOfACheckedFolderIsRefused() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "packs/wechat")
        let (composed, decomposed) = ("caf\u{E9}", "cafe\u{301}")
        try FileManager.default.moveItem(atPath: pack + "/clips", toPath: pack + "/" + composed)
        try FileManager.default.createDirectory(atPath: folder.file("outside"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: pack + "/" + composed + "/5.caf", toPath: folder.file("outside/5.caf"))
        try FileManager.default.createSymbolicLink(atPath: pack + "/" + decomposed, withDestinationPath: folder.file("outside"))
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: String] ?? [:]
            for (key, path) in clips { clips[key] = composed + "/" + (path as NSString).lastPathComponent }
            clips["5"] = decomposed + "/5.caf"
            object["clips"] = clips
        }
        let result = try Executable.run(["validate", "packs/wechat", "--no-record"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.stdout.contains("[manifest.unsafe-path]") && result.stdout.contains("symbolic link"), "\(result.stdout)")
    }

    @Test func anArchiveEntryThatLeavesTheFolderIsRefused() throws {
        let folder = TemporaryFolder()
        var tar = TarBuilder()
        tar.add("pack.json", Array(try HostileInputEndToEndTests.demoManifestText().utf8))
        tar.add("../\u{065E}escaped.txt", Array("x".utf8))
        try tar.finished().write(to: URL(fileURLWithPath: folder.file("evil.tar")))
        try FileManager.default.createDirectory(atPath: folder.file("work"), withIntermediateDirectories: true)
        let result = try Executable.run(["import", "../evil.tar", "packs/x"], in: folder.file("work"))
        #expect(result.status == 1)
        #expect(result.stderr.contains("'..' in the path"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("work/packs/\u{065E}escaped.txt")))
        #expect(!FileManager.default.fileExists(atPath: folder.file("\u{065E}escaped.txt")))
    }
}

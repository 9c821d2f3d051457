// M4A clips (AAC, ALAC): validate reports them as a format iOS does not play, convert reads them
// through FFmpeg into a pack that validates, and FFmpeg is loaded by convert only.

import Foundation
import Testing
import SoundpackKit
import SoundpackTestSupport

@Suite struct M4AEndToEndTests {
    static let m4aFixtures = Fixtures.repositoryRoot + "/Tests/SoundpackKitTests/Fixtures/delivery-m4a"

    /// The demo pack with 点 as a 48 kHz stereo AAC m4a and 元 as an ALAC m4a.
    static func makeM4APack(in folder: TemporaryFolder, replacing dian: String? = nil) throws -> String {
        let pack = try Fixtures.copyDemoPack(into: folder, as: "raw")
        for stem in ["dian", "yuan"] {
            try FileManager.default.removeItem(atPath: "\(pack)/clips/\(stem).caf")
            try FileManager.default.copyItem(atPath: "\(m4aFixtures)/\(stem).m4a", toPath: "\(pack)/clips/\(stem).m4a")
        }
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: String] ?? [:]
            clips["点"] = "clips/dian.m4a"
            clips["元"] = "clips/yuan.m4a"
            object["clips"] = clips
        }
        return pack
    }

    @Test func validateSaysAnM4AClipIsAFormatIOSDoesNotPlayAndConvertMakesItValid() throws {
        let folder = TemporaryFolder()
        _ = try Self.makeM4APack(in: folder)
        let raw = try Executable.run(["validate", "raw", "--no-record"], in: folder.path)
        #expect(raw.status == 1)
        #expect(raw.stdout.contains("raw/clips/dian.m4a: error: [format.unsupported] AAC in MP4 (.m4a): iOS does not play it as a notification sound; convert it (soundpack convert)"), "\(raw.stdout)")
        #expect(raw.stdout.contains("raw/clips/yuan.m4a: error: [format.unsupported] ALAC (Apple Lossless) in MP4 (.m4a): iOS does not play it"), "\(raw.stdout)")
        #expect(!raw.stdout.contains("file.unreadable") && !raw.stdout.contains("not an audio file"), "\(raw.stdout)")

        let converted = try Executable.run(["convert", "raw", "packs/wechat"], in: folder.path)
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.stdout.contains("18 clips converted to 22050 Hz mono pcm16 caf"), "\(converted.stdout)")
        let validated = try Executable.run(["validate", "packs/wechat", "--no-record"], in: folder.path)
        #expect(validated.status == 0, "\(validated.stdout)")
        #expect(validated.stdout.contains("0 errors, 0 warnings"), "\(validated.stdout)")
    }

    @Test func aCorruptM4AStopsConvertNamingTheClipAndLeavesNothing() throws {
        let folder = TemporaryFolder()
        let pack = try Self.makeM4APack(in: folder)
        let whole = try Data(contentsOf: URL(fileURLWithPath: pack + "/clips/dian.m4a"))
        try whole.prefix(3_000).write(to: URL(fileURLWithPath: pack + "/clips/dian.m4a"))
        let converted = try Executable.run(["convert", "raw", "packs/wechat"], in: folder.path)
        #expect(converted.status == 1)
        #expect(converted.stderr.contains("cannot read clip 'clips/dian.m4a' for '点': not a readable MP4 file"), "\(converted.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("packs/wechat")))
    }

    #if os(Linux)
    /// The libraries the dynamic loader opened while the built binary ran `arguments`.
    static func librariesLoaded(_ arguments: [String], in folder: TemporaryFolder) throws -> (ExecutionResult, String) {
        let log = folder.file("ld-\(UUID().uuidString)")
        let run = try Executable.spawn(arguments, in: folder.path, environment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": log])
        let logs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix((log as NSString).lastPathComponent) }
        let text = try logs.map { try String(contentsOfFile: folder.file($0), encoding: .utf8) }.joined()
        return (run, text)
    }

    @Test func onlyConvertLoadsFFmpegEvenValidateOfAnM4APackDoesNot() throws {
        let folder = TemporaryFolder()
        _ = try Self.makeM4APack(in: folder)
        let (validated, validateLog) = try Self.librariesLoaded(["validate", "raw", "--no-record"], in: folder)
        #expect(validated.status == 1)
        #expect(validateLog.contains("libsndfile"), "the loader's log is read")
        #expect(!validateLog.contains("libavformat") && !validateLog.contains("libavcodec"))
        let (converted, convertLog) = try Self.librariesLoaded(["convert", "raw", "packs/wechat"], in: folder)
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(convertLog.contains("file=libavformat.so.") && convertLog.contains("file=libavcodec.so."))
    }

    @Test func anFFmpegLibraryThatCannotBeLoadedIsAnEnvironmentErrorThatSaysWhatToInstall() throws {
        let folder = TemporaryFolder()
        _ = try Self.makeM4APack(in: folder)
        // An empty file first on the library path stands for a missing or broken libavutil.
        let libraries = folder.file("lib")
        try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
        let loaded = try Self.librariesLoaded(["convert", "raw", "packs/wechat"], in: folder).1
        // `file=libavutil.so.57 [0];  dynamically loaded by …`
        let soname = try #require(loaded.components(separatedBy: .whitespaces).lazy.filter { $0.hasPrefix("file=libavutil.so.") }
            .map { String($0.dropFirst("file=".count)) }.first)
        try #require(FileManager.default.createFile(atPath: "\(libraries)/\(soname)", contents: Data()))
        try FileManager.default.removeItem(atPath: folder.file("packs"))
        let run = try Executable.spawn(["convert", "raw", "packs/wechat"], in: folder.path, environment: ["LD_LIBRARY_PATH": libraries])
        let package = "libavutil" + soname.dropFirst("libavutil.so.".count)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("cannot read clip 'clips/dian.m4a' for '点'"), "\(run.stderr)")
        #expect(run.stderr.contains("\(package) cannot be loaded") && run.stderr.contains("(apt-get install \(package))"), "\(run.stderr)")
        // Everything else still runs.
        #expect(try Executable.spawn(["validate", "raw", "--no-record"], in: folder.path, environment: ["LD_LIBRARY_PATH": libraries]).status == 1)
    }
    #endif
}

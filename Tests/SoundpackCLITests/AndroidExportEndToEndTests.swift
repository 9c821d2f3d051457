// `export --platform android`: a folder a player with no grammar code announces from exactly as
// soundpack does. Its table reads as `say`, its clips join to the samples `render` writes.

import Foundation
import Testing
import SoundpackCore
import SoundpackKit
import SoundpackTestSupport

@Suite struct AndroidExportEndToEndTests {
    static let root = Fixtures.repositoryRoot

    struct Document: Decodable {
        struct Clip: Decodable { var file: String; var frames: Int; var bytes: Int; var sha256: String }
        struct PCM: Decodable { var sampleRate: Int; var channels: Int; var bitsPerSample: Int }
        var format: Int
        var minPlayerVersion: Int
        var id: String
        var maxAmount: String
        var pcm: PCM
        var phrases: [String: [String]]
        var defaultPhrase: String
        var clips: [String: Clip]
        var reading: ReadingTable
    }

    /// The 16-bit samples of a WAV file's `data` chunk, found by walking its chunks.
    static func samples(ofWAV bytes: [UInt8]) throws -> [Int16] {
        #expect(bytes.count >= 12 && Array(bytes[0..<4]) == Array("RIFF".utf8) && Array(bytes[8..<12]) == Array("WAVE".utf8))
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if id == "data" {
                let body = bytes[(offset + 8)..<min(bytes.count, offset + 8 + size)]
                return stride(from: body.startIndex, to: body.endIndex - 1, by: 2).map { Int16(bitPattern: UInt16(body[$0]) | UInt16(body[$0 + 1]) << 8) }
            }
            offset += 8 + size + (size & 1)
        }
        Issue.record("no data chunk")
        return []
    }

    static func export(_ pack: String, into folder: TemporaryFolder) throws -> (path: String, document: Document) {
        let output = folder.file("android-\((pack as NSString).lastPathComponent)")
        let result = try Executable.run(["export", pack, "--platform", "android", "-o", output], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONDecoder().decode(Document.self, from: Data(contentsOf: URL(fileURLWithPath: output + "/soundpack.json")))
        return (output, document)
    }

    @Test(arguments: ["packs/wechat", "packs/en-us", "packs/hi-in", "packs/merchant"])
    func theTableReadsAsSayAndTheClipsJoinAsRender(_ pack: String) throws {
        let folder = TemporaryFolder()
        let (output, document) = try Self.export(pack, into: folder)
        #expect(document.format == 1 && document.minPlayerVersion == 1)
        try document.reading.check()
        var clips: [String: [Int16]] = [:]
        for (key, clip) in document.clips {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output + "/" + clip.file)))
            #expect(bytes.count == clip.bytes && PortableSHA256().sha256Hex(Data(bytes)) == clip.sha256, "\(clip.file)")
            let samples = try Self.samples(ofWAV: bytes)
            #expect(samples.count == clip.frames * document.pcm.channels, "\(clip.file)")
            clips[key] = samples
        }
        let maximum = try Amount(parsing: document.maxAmount)
        let amounts = ["0", "0.01", "1", "2", "10", "15.40", "100", "1001", "10010", "100000", "1234567.89"]
            .map { try? Amount(parsing: $0) }.compactMap { $0 }.filter { $0 <= maximum } + [maximum]
        let pieces = try #require(document.phrases[document.defaultPhrase])
        for amount in amounts {
            let said = try Executable.run(["say", "--pack", pack, "--format", "tokens", amount.description], in: Self.root)
            #expect(said.status == 0, "\(said.stderr)")
            let reading = try #require(document.reading.tokens(for: amount), "\(pack) \(amount)")
            let planned = pieces.flatMap { $0 == "{amount}" ? reading : [$0] }
            #expect(planned.joined(separator: " ") == said.stdout.trimmingCharacters(in: .newlines), "\(pack) \(amount)")
            let rendered = folder.file("r-\(amount).wav")
            let render = try Executable.run(["render", "--pack", pack, amount.description, "-o", rendered], in: Self.root)
            #expect(render.status == 0, "\(render.stderr)")
            let joined = planned.flatMap { clips[$0] ?? [] }
            #expect(joined == (try Self.samples(ofWAV: [UInt8](Data(contentsOf: URL(fileURLWithPath: rendered))))), "\(pack) \(amount): the joined clips are the rendered samples")
        }
    }

    @Test func everyNameIsAnAndroidResourceNameUniqueAcrossPacks() throws {
        let folder = TemporaryFolder()
        var names = Set<String>()
        for pack in ["packs/wechat", "packs/en-us", "packs/hi-in", "packs/merchant"] {
            let (_, document) = try Self.export(pack, into: folder)
            for clip in document.clips.values {
                let name = (clip.file as NSString).lastPathComponent
                #expect(name.wholeMatch(of: /[a-z][a-z0-9_]*\.wav/) != nil, "\(name)")
                #expect(names.insert(name).inserted, "\(name) is another pack's too")
            }
        }
    }

    @Test func whatTheExportCannotDoIsRefusedAndNothingIsWritten() throws {
        let folder = TemporaryFolder()
        let two = try Executable.run(["export", "packs/wechat", "packs/en-us", "--platform", "android", "-o", folder.file("x")], in: Self.root)
        #expect(two.status == 2 && two.stderr.contains("takes one pack"), "\(two.stderr)")
        let format = try Executable.run(["export", "packs/wechat", "--platform", "android", "--format", "json", "-o", folder.file("x")], in: Self.root)
        #expect(format.status == 2 && format.stderr.contains("--format applies to the iOS export only"), "\(format.stderr)")
        let noOutput = try Executable.run(["export", "packs/wechat", "--platform", "android"], in: Self.root)
        #expect(noOutput.status == 2 && noOutput.stderr.contains("needs -o DIR"), "\(noOutput.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("x")))

        // An existing folder is left as it was.
        try FileManager.default.createDirectory(atPath: folder.file("taken"), withIntermediateDirectories: false)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder.file("taken/keep.txt")))
        let taken = try Executable.run(["export", "packs/wechat", "--platform", "android", "-o", folder.file("taken")], in: Self.root)
        #expect(taken.status == 1 && taken.stderr.contains("already exists"), "\(taken.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("taken")) == ["keep.txt"])

        // Clips that are not one PCM format are refused with the reason; nothing is left behind.
        let pack = try Fixtures.copyDemoPack(into: folder)
        try Fixtures.writeClip(Fixtures.tone(seconds: 0.3, sampleRate: 16_000), to: pack + "/clips/5.caf", sampleRate: 16_000)
        let mixed = try Executable.run(["export", pack, "--platform", "android", "-o", folder.file("mixed")], in: Self.root)
        #expect(mixed.status == 1, "\(mixed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("mixed")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.hasPrefix(".mixed") }, "no staging folder is left")
    }

    @Test(arguments: GrammarID.allCases)
    func sayFormatTableIsTheGrammarsTable(_ id: GrammarID) throws {
        let result = try Executable.run(["say", "--grammar", id.rawValue, "--format", "table"], in: "/")
        #expect(result.status == 0, "\(result.stderr)")
        let table = try JSONDecoder().decode(ReadingTable.self, from: Data(result.stdout.utf8))
        #expect(table == Grammar(id).readingTable)
        let withAmount = try Executable.run(["say", "1", "--grammar", id.rawValue, "--format", "table"], in: "/")
        #expect(withAmount.status == 2, "\(withAmount.stderr)")
    }
}

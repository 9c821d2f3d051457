// Probing clips: facts of generated files, IMA4-in-CAF decoded like ffmpeg, hostile files refused.

import Foundation
@testable import SoundpackAudio
import SoundpackCore
@testable import SoundpackKit
import SoundpackTestSupport
import Testing

@Suite struct AudioProbeTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
        return Array(try Data(contentsOf: url))
    }

    /// Every sample of a decoder, as 16-bit integers.
    static func decodeAll(_ bytes: [UInt8]) throws -> (AudioFormat, [Int16]) {
        let probe = AudioProbe()
        let reader = ChunkReader(try probe.open(bytes: bytes), limits: probe.limits)
        var samples: [Int16] = []
        while let (chunk, peak) = try reader.next() {
            // The peak handed on with each chunk is its largest |sample|, exactly.
            #expect(peak == chunk.map(abs).max())
            samples.append(contentsOf: chunk.map { Int16(clamping: Int(($0 * 32768).rounded())) })
        }
        return (reader.format, samples)
    }

    static func littleEndianInt16(_ bytes: [UInt8]) -> [Int16] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    @Test(arguments: [("ima4-mono", 1), ("ima4-stereo", 2)])
    func ima4InCAFDecodesToTheSamplesFFmpegGives(_ name: String, _ channels: Int) throws {
        let (format, samples) = try Self.decodeAll(try Self.fixture("\(name).caf"))
        let reference = Self.littleEndianInt16(try Self.fixture("\(name).s16le"))
        #expect(format.container == .caf)
        #expect(format.codec == .ima4)
        #expect(format.channels == channels)
        #expect(samples.count == reference.count)
        #expect(samples == reference)
    }

    /// An odd number of 8-bit samples in AIFF: libsndfile pads the sound chunk with a zero byte
    /// and counts it as a frame, a full-scale click in µ-law or A-law. The writer ends on silence.
    @Test(arguments: [AudioFileWriter.Encoding.ulaw, .alaw])
    func oddLengthCompandedAIFFEndsSilent(_ encoding: AudioFileWriter.Encoding) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aiff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("odd.aiff").path
        try AudioFileWriter.write([0, 0, 0], sampleRate: 8000, channels: 1, container: .aiff, encoding: encoding, to: path)
        let (_, samples) = try Self.decodeAll(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(samples.count == 4)
        #expect(samples.allSatisfy { abs(Int($0)) < 64 }, "decoded \(samples)")
    }

    /// Apple's files carry a 'pakt' chunk whose valid-frame count drops the padding of the last packet.
    @Test func ima4HonoursThePacketTableFrameCount() throws {
        var bytes = try Self.fixture("ima4-mono.caf")
        let full = Self.littleEndianInt16(try Self.fixture("ima4-mono.s16le"))
        let valid = Int64(full.count - 37)
        var pakt: [UInt8] = Array("pakt".utf8) + Self.bigEndian(Int64(24), 8)
        pakt += Self.bigEndian(Int64(full.count / 64), 8) + Self.bigEndian(valid, 8) + Self.bigEndian(0, 4) + Self.bigEndian(27, 4)
        bytes.insert(contentsOf: pakt, at: 8)  // right after the file header
        let (format, samples) = try Self.decodeAll(bytes)
        #expect(format.frames == valid)
        #expect(samples == Array(full.prefix(Int(valid))))
    }

    static func bigEndian(_ value: Int64, _ width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    @Test(arguments: [
        (Container.caf, AudioFileWriter.Encoding.pcm16, Codec.lpcm), (.wav, .pcm16, .lpcm), (.aiff, .pcm16, .lpcm),
        (.caf, .ulaw, .ulaw), (.wav, .alaw, .alaw), (.caf, .float32, .lpcm), (.flac, .pcm16, .flac),
    ])
    func reportsTheFactsOfWrittenFiles(_ container: Container, _ encoding: AudioFileWriter.Encoding, _ codec: Codec) throws {
        let folder = TemporaryFolder()
        let path = folder.file("clip.\(container.rawValue)")
        let samples = Fixtures.tone(seconds: 0.5, sampleRate: 16_000, channels: 2, leadingSilence: 0.1, trailingSilence: 0.2)
        try Fixtures.writeClip(samples, to: path, sampleRate: 16_000, channels: 2, container: container, encoding: encoding)
        let facts = try AudioProbe().probe(path: path)
        #expect(facts.container == container)
        #expect(facts.codec == codec)
        #expect(facts.sampleRate == 16_000)
        #expect(facts.channels == 2)
        #expect(facts.frames == 12_800)
        #expect(abs(facts.durationSeconds - 0.8) < 1e-9)
        #expect(abs(facts.leadingSilenceMs - 100) < 1.5)
        #expect(abs(facts.trailingSilenceMs - 200) < 1.5)
        #expect(abs((facts.peakDbfs ?? 0) - -6.02) < 0.5)  // µLaw and aLaw quantise coarsely
        #expect(facts.sha256.count == 64)
        #expect(!facts.silent)
    }

    static func refusal(_ bytes: [UInt8], file: String = "clip.caf") throws -> String? {
        let folder = TemporaryFolder()
        let path = folder.file(file)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            _ = try AudioProbe().probe(path: path)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func refusesEmptyTextAndTruncatedFiles() throws {
        #expect(try Self.refusal([])?.contains("empty") == true)
        let text = Array(String(repeating: "this is not audio, only words. ", count: 660).utf8)
        #expect(text.count > 20_000)
        #expect(try Self.refusal(text)?.contains("not an audio file") == true)

        let folder = TemporaryFolder()
        let wav = folder.file("tone.wav")
        try Fixtures.writeClip(Fixtures.tone(seconds: 1), to: wav, container: .wav)
        let whole = Array(try Data(contentsOf: URL(fileURLWithPath: wav)))
        #expect(try Self.refusal(Array(whole.prefix(whole.count / 2)), file: "half.wav")?.contains("truncated") == true)
        #expect(try Self.refusal(Array(whole.prefix(30)), file: "header.wav") != nil)

        let caf = try Self.fixture("ima4-mono.caf")
        #expect(try Self.refusal(Array(caf.prefix(caf.count - 100))) != nil)
    }

    @Test func refusesHeadersThatLie() throws {
        // A CAF ima4 packet table claiming a billion frames.
        var bytes = try Self.fixture("ima4-mono.caf")
        var pakt: [UInt8] = Array("pakt".utf8) + Self.bigEndian(24, 8)
        pakt += Self.bigEndian(1, 8) + Self.bigEndian(1_000_000_000, 8) + Self.bigEndian(0, 4) + Self.bigEndian(0, 4)
        bytes.insert(contentsOf: pakt, at: 8)
        #expect(try Self.refusal(bytes) != nil)

        // A CAF whose desc chunk declares a size beyond the file.
        var desc = try Self.fixture("ima4-mono.caf")
        desc.replaceSubrange(12..<20, with: Self.bigEndian(1 << 40, 8))
        #expect(try Self.refusal(desc)?.contains("truncated") == true)

        // A WAV with 3 channels and one at 96 kHz are outside the caps.
        let folder = TemporaryFolder()
        try Fixtures.writeClip(Fixtures.tone(seconds: 0.1, channels: 3), to: folder.file("3ch.wav"), channels: 3, container: .wav)
        #expect(try AudioProbeTests.probeError(folder.file("3ch.wav"))?.contains("channels") == true)
        try Fixtures.writeClip(Fixtures.tone(seconds: 0.1, sampleRate: 96_000), to: folder.file("96k.wav"), sampleRate: 96_000, container: .wav)
        #expect(try AudioProbeTests.probeError(folder.file("96k.wav"))?.contains("96000") == true)
        try Fixtures.writeClip(Fixtures.tone(seconds: 31, sampleRate: 8_000), to: folder.file("long.wav"), sampleRate: 8_000, container: .wav)
        #expect(try AudioProbeTests.probeError(folder.file("long.wav"))?.contains("30 s") == true)
    }

    static func probeError(_ path: String) throws -> String? {
        do { _ = try AudioProbe().probe(path: path); return nil } catch { return error.message }
    }

    @Test func refusesHugeFilesBeforeReadingThem() throws {
        let folder = TemporaryFolder()
        let path = folder.file("huge.wav")
        #expect(FileManager.default.createFile(atPath: path, contents: Array("RIFF".utf8).withUnsafeBytes { Data($0) }))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 17 * 1024 * 1024)  // sparse: nothing is really written
        try handle.close()
        #expect(try Self.probeError(path)?.contains("MiB") == true)
        #expect(try Self.probeError(folder.path)?.contains("regular file") == true)
        #expect(try Self.probeError(folder.file("missing.caf"))?.contains("cannot open") == true)
        // A FIFO planted as a clip is refused at once, without waiting for a writer.
        #expect(mkfifo(folder.file("fifo.caf"), 0o644) == 0)
        #expect(try Self.probeError(folder.file("fifo.caf"))?.contains("regular file") == true)
    }

    /// Thousands of damaged variants of valid files: each is read or refused, never a crash.
    @Test func survivesDamagedFiles() throws {
        let folder = TemporaryFolder()
        var sources: [[UInt8]] = [try Self.fixture("ima4-stereo.caf")]
        for container in [Container.wav, .aiff, .caf] {
            let path = folder.file("tone.\(container.rawValue)")
            try Fixtures.writeClip(Fixtures.tone(seconds: 0.05), to: path, container: container)
            sources.append(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        var rng = SystemRandomNumberGenerator()
        let probe = AudioProbe()
        var refused = 0, read = 0
        for round in 0..<1_200 {
            var bytes = sources[round % sources.count]
            switch round % 3 {
            case 0:  // flip bytes in the header region
                for _ in 0..<4 { bytes[Int.random(in: 0..<min(128, bytes.count), using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            case 1:  // cut anywhere
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng)))
            default:  // overwrite a run anywhere
                let start = Int.random(in: 0..<bytes.count, using: &rng)
                for i in start..<min(bytes.count, start + 16) { bytes[i] = UInt8.random(in: 0...255, using: &rng) }
            }
            do {
                let reader = ChunkReader(try probe.open(bytes: bytes), limits: probe.limits)
                while try reader.next() != nil {}
                read += 1
            } catch {
                refused += 1
            }
        }
        #expect(read + refused == 1_200)
        #expect(refused > 0)
    }
}

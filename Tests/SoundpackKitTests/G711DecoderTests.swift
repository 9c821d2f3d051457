// The G.711 table decoder against libsndfile, the reader it stands in for: every byte value, mono
// and stereo, the layouts it takes (a pad byte, half a frame), the ones it leaves to
// libsndfile, and the files `convert` writes.

import Foundation
import Testing
import SoundpackCore
import SoundpackTestSupport
@testable import SoundpackAudio

@Suite struct G711DecoderTests {
    /// A CAF file: 'desc' (`id`, `channels`), the `between` chunks, 'data' holding `audio` (its
    /// size -1 when `openEnded`), then `after`.
    static func caf(_ id: String, channels: Int = 1, rate: Double = 8_000, flags: UInt32 = 2, between: [String] = ["free"],
                    audio: [UInt8], openEnded: Bool = false, after: [UInt8] = []) -> [UInt8] {
        func be(_ value: UInt64, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var bytes = Array("caff".utf8) + be(1, 2) + be(0, 2)
        bytes += Array("desc".utf8) + be(32, 8) + be(rate.bitPattern, 8) + Array(id.utf8) + be(UInt64(flags), 4)
            + be(UInt64(channels), 4) + be(1, 4) + be(UInt64(channels), 4) + be(8, 4)
        for type in between { bytes += Array(type.utf8) + be(8, 8) + [UInt8](repeating: 0, count: 8) }
        bytes += Array("data".utf8) + be(openEnded ? UInt64.max : UInt64(audio.count + 4), 8) + be(0, 4) + audio
        return bytes + after
    }

    /// Every byte value once, then in reverse (an even count, so stereo frames are whole).
    static let everyByte = (0...255).map(UInt8.init) + (0...255).reversed().map(UInt8.init)

    /// Both readers' format and samples of `bytes`; the table's is nil when it leaves the file to libsndfile.
    static func decodeBoth(_ bytes: [UInt8]) throws -> (table: (AudioFormat, [Float])?, libsndfile: (AudioFormat, [Float])) {
        func drain(_ decoder: AudioDecoder) throws -> (AudioFormat, [Float]) {
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: 96 * decoder.format.channels)
            defer { buffer.deallocate() }
            var samples: [Float] = []
            while case let read = try decoder.read(into: buffer), read > 0 { samples += buffer.prefix(read * decoder.format.channels) }
            return (decoder.format, samples)
        }
        let table = try G711Decoder(bytes: bytes, caf: CAFFile(bytes)).map(drain)
        return (table, try drain(SndFileDecoder(bytes: bytes, container: .caf)))
    }

    @Test(arguments: ["ulaw", "alaw"], [1, 2])
    func everyByteDecodesAsLibsndfileDecodesIt(id: String, channels: Int) throws {
        let (table, libsndfile) = try Self.decodeBoth(Self.caf(id, channels: channels, audio: Self.everyByte))
        let (format, samples) = try #require(table)
        #expect(format == libsndfile.0)
        #expect(format.codec == (id == "ulaw" ? .ulaw : .alaw) && format.frames == Int64(Self.everyByte.count / channels))
        #expect(samples == libsndfile.1)
        #expect(samples.count == Self.everyByte.count && Set(samples).count == (id == "ulaw" ? 255 : 256))  // µ-law has two zeros
    }

    @Test func theLayoutsItTakesAreReadAsLibsndfileReadsThem() throws {
        let odd = Array(Self.everyByte.prefix(301))
        for bytes in [Self.caf("ulaw", audio: odd, after: [0]),                  // libsndfile's pad byte after odd data
                      Self.caf("alaw", channels: 2, audio: odd, after: [0]),     // half a frame at the end
                      Self.caf("ulaw", between: [], audio: odd),
                      Self.caf("alaw", rate: 22_050, between: ["free", "free"], audio: odd)] {
            let (table, libsndfile) = try Self.decodeBoth(bytes)
            let (format, samples) = try #require(table)
            #expect(format == libsndfile.0)
            #expect(samples == libsndfile.1)
        }
    }

    @Test func otherLayoutsAreLeftToLibsndfile() throws {
        let audio = Array(Self.everyByte.prefix(300))
        for bytes in [Self.caf("ulaw", between: ["chan"], audio: audio),
                      Self.caf("ulaw", audio: audio, openEnded: true),  // size -1, which libsndfile 1.2 calls malformed
                      Self.caf("ulaw", audio: audio, after: [0, 0]),
                      Self.caf("ulaw", audio: audio, after: Array("info".utf8) + [0, 0, 0, 0, 0, 0, 0, 0]),
                      Self.caf("ulaw", rate: 8_000.5, audio: audio),
                      Self.caf("ulaw", flags: 3, audio: audio),
                      Self.caf("lpcm", audio: audio)] {
            #expect(try G711Decoder(bytes: bytes, caf: CAFFile(bytes)) == nil)
        }
    }

    @Test(arguments: [AudioFileWriter.Encoding.ulaw, .alaw])
    func whatConvertWritesIsDecodedByTable(encoding: AudioFileWriter.Encoding) throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/clip.caf"
        for count in [4_697, 4_698] {  // odd data, with libsndfile's pad byte; even, without
            let samples = (0..<count).map { Float(0.6 * sin(Double($0) * 0.05)) }
            try AudioFileWriter.write(samples, sampleRate: 22_050, channels: 1, container: .caf, encoding: encoding, to: path)
            let (table, libsndfile) = try Self.decodeBoth(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            let (format, decoded) = try #require(table)
            #expect(format == libsndfile.0 && format.frames == Int64(count))
            #expect(decoded == libsndfile.1)
        }
    }
}

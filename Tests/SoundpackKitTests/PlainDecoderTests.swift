// The plain-sample decoder against libsndfile, the reader it stands in for: every byte value of
// µ-law and A-law, 16-bit PCM of both byte orders, mono and stereo, in CAF and WAV; the layouts it
// takes (a pad byte, half a frame), the ones it leaves to libsndfile, and the files `convert` writes.

import Foundation
import Testing
import SoundpackCore
import SoundpackTestSupport
@testable import SoundpackAudio

@Suite struct PlainDecoderTests {
    static func be(_ value: UInt64, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    /// A CAF file: 'desc' (`id`, `bits`, `channels`), the `between` chunks, 'data' holding
    /// `audio` (its size -1 when `openEnded`), then `after`.
    static func caf(_ id: String, bits: Int = 8, channels: Int = 1, rate: Double = 8_000, flags: UInt32 = 2, between: [String] = ["free"],
                    audio: [UInt8], openEnded: Bool = false, after: [UInt8] = []) -> [UInt8] {
        var bytes = Array("caff".utf8) + be(1, 2) + be(0, 2)
        bytes += Array("desc".utf8) + be(32, 8) + be(rate.bitPattern, 8) + Array(id.utf8) + be(UInt64(flags), 4)
            + be(UInt64(channels * bits / 8), 4) + be(1, 4) + be(UInt64(channels), 4) + be(UInt64(bits), 4)
        for type in between { bytes += Array(type.utf8) + be(8, 8) + [UInt8](repeating: 0, count: 8) }
        bytes += Array("data".utf8) + be(openEnded ? UInt64.max : UInt64(audio.count + 4), 8) + be(0, 4) + audio
        return bytes + after
    }

    /// A WAV file: format `tag` (1 PCM, 6 A-law, 7 µ-law; G.711 with its 18-byte 'fmt ' and 'fact'),
    /// 'data' holding `audio`, then `after`; `riff` adjusts the RIFF size.
    static func wav(tag: Int, channels: Int = 1, rate: Int = 8_000, audio: [UInt8], after: [UInt8] = [], riff: Int = 0) -> [UInt8] {
        let width = tag == 1 ? 2 : 1
        var body = Array("WAVEfmt ".utf8) + le(tag == 1 ? 16 : 18, 4) + le(tag, 2) + le(channels, 2) + le(rate, 4)
            + le(rate * channels * width, 4) + le(channels * width, 2) + le(8 * width, 2)
        if tag != 1 { body += le(0, 2) + Array("fact".utf8) + le(4, 4) + le(audio.count / channels, 4) }
        body += Array("data".utf8) + le(audio.count, 4) + audio + after
        return Array("RIFF".utf8) + le(body.count + riff, 4) + body
    }

    /// Every byte value once, then in reverse (an even count: whole stereo frames, whole 16-bit samples).
    static let everyByte = (0...255).map(UInt8.init) + (0...255).reversed().map(UInt8.init)

    /// Both readers' format and samples of `bytes`; ours is nil when it leaves the file to libsndfile.
    static func decodeBoth(_ bytes: [UInt8]) throws -> (plain: (AudioFormat, [Float])?, libsndfile: (AudioFormat, [Float])) {
        func drain(_ decoder: AudioDecoder) throws -> (AudioFormat, [Float]) {
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: 96 * decoder.format.channels)
            defer { buffer.deallocate() }
            var samples: [Float] = []
            while case let read = try decoder.read(into: buffer), read > 0 { samples += buffer.prefix(read * decoder.format.channels) }
            return (decoder.format, samples)
        }
        let container = try #require(ContainerSniffer.container(of: bytes))
        let plain = container == .caf ? PlainDecoder.caf(bytes, try CAFFile(bytes)) : PlainDecoder.wav(bytes)
        return (try plain.map(drain), try drain(SndFileDecoder(bytes: bytes, container: container)))
    }

    static func expectSame(_ bytes: [UInt8], codec: Codec? = nil, _ location: SourceLocation = #_sourceLocation) throws {
        let (plain, libsndfile) = try decodeBoth(bytes)
        let (format, samples) = try #require(plain, sourceLocation: location)
        #expect(format == libsndfile.0, sourceLocation: location)
        #expect(samples == libsndfile.1, sourceLocation: location)
        if let codec { #expect(format.codec == codec, sourceLocation: location) }
    }

    @Test(arguments: [1, 2])
    func everyByteDecodesAsLibsndfileDecodesIt(channels: Int) throws {
        try Self.expectSame(Self.caf("ulaw", channels: channels, audio: Self.everyByte), codec: .ulaw)
        try Self.expectSame(Self.caf("alaw", channels: channels, audio: Self.everyByte), codec: .alaw)
        try Self.expectSame(Self.caf("lpcm", bits: 16, channels: channels, audio: Self.everyByte), codec: .lpcm)
        try Self.expectSame(Self.caf("lpcm", bits: 16, channels: channels, flags: 0, audio: Self.everyByte), codec: .lpcm)
        try Self.expectSame(Self.wav(tag: 7, channels: channels, audio: Self.everyByte), codec: .ulaw)
        try Self.expectSame(Self.wav(tag: 6, channels: channels, audio: Self.everyByte), codec: .alaw)
        try Self.expectSame(Self.wav(tag: 1, channels: channels, audio: Self.everyByte), codec: .lpcm)
        let values = try #require(Self.decodeBoth(Self.caf("alaw", channels: channels, audio: Self.everyByte)).plain?.1)
        #expect(Set(values).count == 256)  // (µ-law has two zeros)
    }

    @Test func theLayoutsItTakesAreReadAsLibsndfileReadsThem() throws {
        let odd = Array(Self.everyByte.prefix(301))
        for bytes in [Self.caf("ulaw", audio: odd, after: [0]),                  // libsndfile's pad byte after odd data
                      Self.caf("alaw", channels: 2, audio: odd, after: [0]),     // half a frame at the end
                      Self.caf("lpcm", bits: 16, audio: odd, after: [0]),        // half a sample
                      Self.caf("ulaw", between: [], audio: odd),
                      Self.caf("alaw", rate: 22_050, between: ["free", "free"], audio: odd),
                      Self.wav(tag: 7, audio: odd, after: [0]),
                      Self.wav(tag: 6, channels: 2, rate: 44_100, audio: odd, after: [0]),
                      Self.wav(tag: 1, channels: 2, rate: 48_000, audio: odd, after: [0])] {
            try Self.expectSame(bytes)
        }
    }

    @Test func otherLayoutsAreLeftToLibsndfile() throws {
        let audio = Array(Self.everyByte.prefix(300))
        var oddByteRate = Self.wav(tag: 1, audio: audio)
        oddByteRate[28] ^= 1
        for bytes in [Self.caf("ulaw", between: ["chan"], audio: audio),
                      Self.caf("ulaw", audio: audio, openEnded: true),  // size -1, which libsndfile 1.2 calls malformed
                      Self.caf("ulaw", audio: audio, after: [0, 0]),
                      Self.caf("ulaw", audio: audio, after: Array("info".utf8) + [0, 0, 0, 0, 0, 0, 0, 0]),
                      Self.caf("ulaw", rate: 8_000.5, audio: audio),
                      Self.caf("ulaw", flags: 3, audio: audio),
                      Self.caf("lpcm", bits: 24, audio: audio),
                      Self.wav(tag: 1, audio: audio, after: [0, 0]),
                      Self.wav(tag: 1, audio: audio, riff: 2),
                      Self.wav(tag: 1, audio: audio, after: Array("LIST".utf8) + [0, 0, 0, 0]),
                      Self.wav(tag: 3, audio: audio),
                      Self.wav(tag: 7, audio: Array("OggS".utf8) + audio),          // libsndfile refuses these two
                      Self.wav(tag: 7, audio: Array("wvp".utf8), after: Array("k".utf8)),
                      Self.caf("ulaw", between: Array(repeating: "free", count: 8_000), audio: audio),  // past its header cache
                      oddByteRate] {
            let plain = ContainerSniffer.container(of: bytes) == .caf ? PlainDecoder.caf(bytes, try CAFFile(bytes)) : PlainDecoder.wav(bytes)
            #expect(plain == nil)
        }
    }

    @Test(arguments: [AudioFileWriter.Encoding.ulaw, .alaw, .pcm16], [Container.caf, .wav])
    func whatConvertWritesIsDecodedHere(encoding: AudioFileWriter.Encoding, container: Container) throws {
        let folder = TemporaryFolder()
        let path = folder.path + "/clip." + (container == .caf ? "caf" : "wav")
        for (count, channels) in [(4_697, 1), (4_698, 1), (2_001, 2)] {  // odd data, with libsndfile's pad byte; even; stereo
            let samples = (0..<count * channels).map { Float(0.6 * sin(Double($0) * 0.05)) }
            try AudioFileWriter.write(samples, sampleRate: 22_050, channels: channels, container: container, encoding: encoding, to: path)
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            try Self.expectSame(bytes)
            #expect(try Self.decodeBoth(bytes).plain?.0.frames == Int64(count))
        }
    }
}

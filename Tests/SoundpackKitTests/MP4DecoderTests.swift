// AAC and ALAC in M4A: known by the sniffer without FFmpeg, decoded through it as ffmpeg does, and
// broken files refused with a message, never a trap.

import Foundation
@testable import SoundpackAudio
import SoundpackCore
@testable import SoundpackKit
import SoundpackTestSupport
import Testing

@Suite struct MP4DecoderTests {
    /// What ffprobe and the ffmpeg CLI said of each fixture when scripts/make-test-fixtures.sh made it.
    struct Reference: Decodable, Sendable {
        var file: String
        var codec: String
        var sampleRate: Int
        var channels: Int
        /// The track's length in its own header (the AAC encoder's padding cut by the edit list).
        var trackFrames: Int
        /// The frames the ffmpeg CLI decodes.
        var decodedFrames: Int
    }

    static let references: [Reference] = {
        let bytes = (try? AudioProbeTests.fixture("m4a-ffmpeg.json")) ?? []
        return (try? JSONDecoder().decode([Reference].self, from: Data(bytes))) ?? []
    }()

    static func decoder() -> AudioProbe {
        var probe = AudioProbe()
        probe.decodesMP4 = true
        return probe
    }

    @Test func theReferenceFiguresWereRecorded() {
        #expect(Self.references.map(\.file) == ["dian.m4a", "yuan.m4a"])
    }

    @Test(arguments: references)
    func decodesToTheRateChannelsAndLengthFFmpegGives(_ reference: Reference) throws {
        let bytes = try AudioProbeTests.fixture("delivery-m4a/\(reference.file)")
        let folder = TemporaryFolder()
        try Data(bytes).write(to: URL(fileURLWithPath: folder.file(reference.file)))
        let audio = try Self.decoder().decode(path: folder.file(reference.file))
        #expect(audio.format.container == .mp4)
        #expect(audio.format.codec.rawValue == reference.codec)
        #expect(audio.sampleRate == reference.sampleRate)
        #expect(audio.channels == reference.channels)
        #expect(audio.frames == reference.decodedFrames)
        #expect(audio.samples.count == reference.decodedFrames * reference.channels)
        // The header's length is declared before decoding (and capped); AAC ends on a whole packet.
        #expect(abs(Int(audio.format.frames) - reference.trackFrames) <= 1)
        #expect(audio.frames - reference.trackFrames < 1_024)
    }

    @Test func alacIsLosslessTheDemoClipsSamplesComeBackExactly() throws {
        let original = try AudioProbe().decode(path: Fixtures.demoPack + "/clips/yuan.caf")
        let folder = TemporaryFolder()
        try Data(try AudioProbeTests.fixture("delivery-m4a/yuan.m4a")).write(to: URL(fileURLWithPath: folder.file("yuan.m4a")))
        let decoded = try Self.decoder().decode(path: folder.file("yuan.m4a"))
        #expect(decoded.format.codec == .alac && decoded.format.bitsPerSample == 16)
        #expect(decoded.samples == original.samples)
    }

    @Test func withoutDecodingMP4TheProbeNamesWhatTheFileHolds() throws {
        for (name, held) in [("dian.m4a", "AAC in MP4 (.m4a)"), ("yuan.m4a", "ALAC (Apple Lossless) in MP4 (.m4a)")] {
            let bytes = try AudioProbeTests.fixture("delivery-m4a/\(name)")
            #expect(ContainerSniffer.container(of: bytes) == .mp4)
            let error = #expect(throws: AudioError.self) { try AudioProbe().probe(bytes: bytes) }
            #expect(error?.kind == .unsupportedFormat(held))
            #expect(error?.message == "\(held): iOS does not play it as a notification sound; convert it (soundpack convert)")
        }
    }

    @Test func anImageInTheSameBoxFormatIsNoAudioFile() {
        // HEIC and AVIF start with an ftyp box too; their brands are not audio ones.
        for brand in ["heic", "avif"] {
            let bytes: [UInt8] = [0, 0, 0, 16] + Array("ftyp\(brand)".utf8) + [0, 0, 0, 0]
            #expect(ContainerSniffer.container(of: bytes) == nil)
        }
    }

    @Test func truncatedAndCorruptFilesAreRefusedWithAReason() throws {
        let aac = try AudioProbeTests.fixture("delivery-m4a/dian.m4a")
        let alac = try AudioProbeTests.fixture("delivery-m4a/yuan.m4a")
        let mdat = try #require(alac.indices.dropLast(4).first { String(decoding: alac[$0..<($0 + 4)], as: UTF8.self) == "mdat" })
        var scribbled = alac
        for index in (mdat + 20)..<min(mdat + 3_000, alac.count) { scribbled[index] = 0xFF }
        var generator = SystemRandomNumberGenerator()
        var noisy = aac
        for index in 100..<(aac.count - 1_200) { noisy[index] = UInt8.random(in: 0...255, using: &generator) }
        let cases: [(String, [UInt8], String)] = [
            ("cut before its index", Array(aac.prefix(3_000)), "not a readable MP4 file"),
            ("ALAC packets overwritten", scribbled, "decoding failed"),
            ("ftyp alone", Array(aac.prefix(28)), "not a readable MP4 file"),
        ]
        for (what, bytes, message) in cases {
            let error = #expect(throws: AudioError.self, "\(what)") { try Self.decoder().probe(bytes: bytes) }
            #expect(error?.message.hasPrefix(message) == true, "\(what): \(error?.message ?? "")")
            #expect(error?.kind == .unreadable)
        }
        // Random bytes in the boxes: refused or read, but never a trap.
        _ = try? Self.decoder().probe(bytes: noisy)
    }

    @Test func aTrackLongerThanTheCapIsRefusedFromItsHeaderBeforeDecoding() throws {
        var limits = AudioLimits()
        limits.maxSeconds = 0
        var probe = Self.decoder()
        probe.limits = limits
        let error = #expect(throws: AudioError.self) { try probe.probe(bytes: try AudioProbeTests.fixture("delivery-m4a/dian.m4a")) }
        #expect(error?.message == "declares 0 s of audio; clips must hold under 0 s", "\(error?.message ?? "")")
    }
}

extension MP4DecoderTests.Reference: CustomTestStringConvertible {
    var testDescription: String { file }
}

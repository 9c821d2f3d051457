// The IMA4 writer, checked by its consumers: our decoder, ffmpeg (adpcm_ima_qt, which resumes a
// packet from its running state as Apple's decoder does) and libsndfile (which restarts every
// packet from its header) decode what it writes to the same samples; and it stays close to the
// PCM it came from.

import Foundation
import Testing
import SoundpackCore
import SoundpackTestSupport
@testable import SoundpackKit

@Suite struct IMA4EncoderTests {
    static let ffmpeg = "/usr/bin/ffmpeg"

    /// Signals that stress the coder: speech, a sweep, noise, silence, full-scale steps.
    static func signals(channels: Int) throws -> [(name: String, samples: [Float])] {
        var generator = SystemRandomNumberGenerator()
        let speech = try AudioProbe().decode(path: Fixtures.demoPack + "/clips/prefix.caf").samples
        let frames = 9_000
        func interleave(_ make: (Int, Int) -> Float) -> [Float] {
            (0..<frames * channels).map { make($0 / channels, $0 % channels) }
        }
        return [
            ("speech", channels == 1 ? speech : speech.flatMap { [$0, -$0 * 0.5] }),
            ("sweep", interleave { frame, channel in Float(0.8 * sin(Double(frame * frame) * 0.00002 + Double(channel))) }),
            ("noise", interleave { _, _ in Float.random(in: -0.5...0.5, using: &generator) }),
            ("silence", interleave { _, _ in 0 }),
            ("steps", interleave { frame, channel in (frame / 300 + channel) % 2 == 0 ? 1 : -1 }),
            ("short", Array(interleave { frame, _ in Float(frame % 7) / 10 }.prefix(37 * channels))),
        ]
    }

    static func decode(_ path: String) throws -> (AudioFormat, [Int16]) {
        let decoded = try AudioProbe().decode(path: path)
        return (decoded.format, decoded.samples.map { Int16(clamping: Int(($0 * 32768).rounded())) })
    }

    /// ffmpeg's decoding of `path`, as 16-bit samples; nil without ffmpeg (a failure when the
    /// test command asks for every tool).
    static func ffmpegDecode(_ path: String, folder: TemporaryFolder) throws -> [Int16]? {
        let raw = folder.file("ffmpeg-\(UUID().uuidString).s16le")
        guard let run = try Tool.run(ffmpeg, ["-v", "error", "-nostdin", "-i", path, "-f", "s16le", "-acodec", "pcm_s16le", raw]) else {
            #expect(!CatalogBackend.serversRequired, "ffmpeg is not installed (scripts/bootstrap.sh --dev)")
            return nil
        }
        #expect(run.status == 0, "\(run.stderr)")
        return AudioProbeTests.littleEndianInt16(Array(try Data(contentsOf: URL(fileURLWithPath: raw))))
    }

    @Test(arguments: [1, 2])
    func ourDecoderFFmpegAndLibsndfileDecodeTheSameSamples(channels: Int) throws {
        let folder = TemporaryFolder()
        for (name, samples) in try Self.signals(channels: channels) {
            let caf = folder.file("\(name)-\(channels).caf"), aiff = folder.file("\(name)-\(channels).aiff")
            try AudioFileWriter.write(samples, sampleRate: 22_050, channels: channels, container: .caf, encoding: .ima4, to: caf)
            try AudioFileWriter.write(samples, sampleRate: 22_050, channels: channels, container: .aiff, encoding: .ima4, to: aiff)
            let frames = samples.count / channels
            let (format, ours) = try Self.decode(caf)
            #expect(format.codec == .ima4 && format.container == .caf && format.channels == channels)
            // The packet table: exactly the frames written, the last packet's padding not played.
            #expect(ours.count == frames * channels, "\(name)")
            // libsndfile reads the AIFF-C (it reads no IMA4 CAF), whole packets: the same samples first.
            let (aiffFormat, libsndfile) = try Self.decode(aiff)
            #expect(aiffFormat.codec == .ima4)
            #expect(Array(libsndfile.prefix(ours.count)) == ours, "\(name), \(channels) channels: libsndfile differs")
            if let viaFFmpeg = try Self.ffmpegDecode(caf, folder: folder) {
                #expect(Array(viaFFmpeg.prefix(ours.count)) == ours, "\(name), \(channels) channels: ffmpeg differs from ours (CAF)")
            }
            if let viaFFmpeg = try Self.ffmpegDecode(aiff, folder: folder) {
                #expect(Array(viaFFmpeg.prefix(ours.count)) == ours, "\(name), \(channels) channels: ffmpeg differs from ours (AIFF-C)")
            }
        }
    }

    @Test func theCodedSoundStaysCloseToThePCM() throws {
        let folder = TemporaryFolder()
        for (name, samples) in try Self.signals(channels: 1) where name == "speech" || name == "sweep" {
            let path = folder.file("\(name).caf")
            try AudioFileWriter.write(samples, sampleRate: 22_050, channels: 1, container: .caf, encoding: .ima4, to: path)
            let decoded = try AudioProbe().decode(path: path).samples
            var signal = 0.0, noise = 0.0
            for (a, b) in zip(samples, decoded) {
                signal += Double(a) * Double(a)
                noise += Double(a - b) * Double(a - b)
            }
            let snr = 10 * log10(signal / max(noise, 1e-12))
            // 4-bit ADPCM on these signals: well above 20 dB (speech here: about 30).
            #expect(snr > 20, "\(name): \(snr) dB")
        }
    }

    @Test func aQuarterOfTheBytesOfPCM() throws {
        let folder = TemporaryFolder()
        let samples = try Self.signals(channels: 1)[0].samples
        try AudioFileWriter.write(samples, sampleRate: 22_050, channels: 1, container: .caf, encoding: .pcm16, to: folder.file("pcm.caf"))
        try AudioFileWriter.write(samples, sampleRate: 22_050, channels: 1, container: .caf, encoding: .ima4, to: folder.file("ima4.caf"))
        let pcm = try FileManager.default.attributesOfItem(atPath: folder.file("pcm.caf"))[.size] as! Int
        let ima4 = try FileManager.default.attributesOfItem(atPath: folder.file("ima4.caf"))[.size] as! Int
        #expect(Double(ima4) / Double(pcm) < 0.28, "\(ima4) of \(pcm) bytes")
    }

    @Test func wavCannotHoldIMA4() throws {
        let folder = TemporaryFolder()
        #expect(throws: AudioError.self) {
            try AudioFileWriter.write([0, 0.5], sampleRate: 22_050, channels: 1, container: .wav, encoding: .ima4, to: folder.file("x.wav"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.wav")))
    }
}

// A sound file's samples as libsndfile decodes them, read straight from the file: the tests'
// own reader, independent of the stand-ins (whose AVAudioFile reads through SoundpackKit) and of
// the example, so a check of what the example wrote proves something about the file itself.

import CSndFile
import Foundation
import Testing

/// The 16-bit samples of one file, interleaved, with its rate and channel count.
struct LibSndFileSamples: Equatable, CustomStringConvertible {
    var sampleRate: Int
    var channels: Int
    var samples: [Int16]

    /// Reads the whole file at `path`; fails the test (naming libsndfile's message) when it cannot.
    init(path: String) throws {
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            throw LibSndFileError(message: "cannot open \(path): \(String(cString: sf_strerror(nil)))")
        }
        defer { sf_close(handle) }
        var samples = [Int16](repeating: 0, count: Int(info.frames) * Int(info.channels))
        let read = samples.withUnsafeMutableBufferPointer { sf_readf_short(handle, $0.baseAddress, info.frames) }
        guard read == info.frames else { throw LibSndFileError(message: "\(path): read \(read) of \(info.frames) frames") }
        self.sampleRate = Int(info.samplerate)
        self.channels = Int(info.channels)
        self.samples = samples
    }

    init(sampleRate: Int, channels: Int, samples: [Int16]) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.samples = samples
    }

    /// The clips end to end: one rate and channel count, every sample in order.
    static func concatenation(of paths: [String]) throws -> LibSndFileSamples {
        let clips = try paths.map(LibSndFileSamples.init(path:))
        let first = try #require(clips.first)
        #expect(clips.allSatisfy { $0.sampleRate == first.sampleRate && $0.channels == first.channels }, "the clips differ in format: \(clips)")
        return LibSndFileSamples(sampleRate: first.sampleRate, channels: first.channels, samples: clips.flatMap(\.samples))
    }

    /// How far these samples are from `reference` of the same length, in dB (signal power over
    /// the power of the difference; infinite when they are equal).
    func signalToNoise(against reference: LibSndFileSamples) -> Double {
        var signal = 0.0, noise = 0.0
        for (a, b) in zip(samples, reference.samples) {
            signal += Double(b) * Double(b)
            noise += (Double(a) - Double(b)) * (Double(a) - Double(b))
        }
        return 10 * log10(signal / noise)
    }

    var description: String { "\(samples.count / max(channels, 1)) frames, \(sampleRate) Hz, \(channels) ch" }
}

struct LibSndFileError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

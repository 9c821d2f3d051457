// The own K-weighted momentary meter against libebur128, the reference: the same figure within
// 0.01 LU for the demo pack's clips and for tones, noise and bursts at every rate iOS plays.

import Foundation
@testable import SoundpackAudio
@testable import SoundpackKit
import SoundpackTestSupport
import Testing

@Suite struct LoudnessMeterTests {
    static func measure(_ samples: [Float], channels: Int, rate: Int, own: Bool) throws -> Double {
        if own {
            var meter = KWeightedLanes(channels: channels, sampleRate: rate)
            for start in stride(from: 0, to: samples.count, by: 4_096 * channels) {
                samples[start..<min(samples.count, start + 4_096 * channels)].withUnsafeBufferPointer { meter.add($0) }
            }
            meter.finish()
            return meter.momentaryMax[0]
        }
        let meter = try EBUR128Meter(channels: channels, sampleRate: rate)
        for start in stride(from: 0, to: samples.count, by: 4_096 * channels) {
            samples[start..<min(samples.count, start + 4_096 * channels)].withUnsafeBufferPointer { meter.add($0) }
        }
        meter.finish()
        return meter.momentaryMax
    }

    @Test func agreesWithLibebur128OnTheDemoPack() throws {
        let folder = URL(fileURLWithPath: Fixtures.demoPack).appendingPathComponent("clips")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            let audio = try AudioProbe().decode(path: folder.appendingPathComponent(name).path)
            let own = try Self.measure(audio.samples, channels: audio.channels, rate: audio.sampleRate, own: true)
            let reference = try Self.measure(audio.samples, channels: audio.channels, rate: audio.sampleRate, own: false)
            #expect(abs(own - reference) < 0.01, "\(name): \(own) vs libebur128 \(reference)")
        }
    }

    @Test(arguments: [8_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000])
    func agreesWithLibebur128OnSignals(_ rate: Int) throws {
        var generator = SystemRandomNumberGenerator()
        for channels in [1, 2] {
            let seconds = [0.05, 0.3, 0.77, 1.9]
            for duration in seconds {
                let frames = Int(duration * Double(rate))
                var tone = [Float](), noise = [Float](), burst = [Float]()
                for i in 0..<frames {
                    let t = Double(i) / Double(rate)
                    for c in 0..<channels {
                        tone.append(Float(0.4 * sin(2 * .pi * (c == 0 ? 997 : 440) * t)))
                        noise.append(Float.random(in: -0.3...0.3, using: &generator))
                        burst.append(i % (rate / 7) < rate / 50 ? Float(0.9 * sin(2 * .pi * 3_000 * t)) : 0.001)
                    }
                }
                for (kind, signal) in [("tone", tone), ("noise", noise), ("burst", burst)] {
                    let own = try Self.measure(signal, channels: channels, rate: rate, own: true)
                    let reference = try Self.measure(signal, channels: channels, rate: rate, own: false)
                    #expect(abs(own - reference) < 0.01, "\(kind) \(duration) s, \(channels) ch at \(rate) Hz: \(own) vs \(reference)")
                }
            }
        }
    }

    @Test func silenceHasNoLoudnessAndOddRatesUseLibebur128() throws {
        #expect(try Self.measure([Float](repeating: 0, count: 10_000), channels: 1, rate: 22_050, own: true) == -.infinity)
        let meter = try LoudnessMeter(channels: 1, sampleRate: 11_025)
        [Float](repeating: 0.5, count: 5_000).withUnsafeBufferPointer { meter.add($0) }
        meter.finish()
        #expect(meter.momentaryMax.isFinite)
    }
}

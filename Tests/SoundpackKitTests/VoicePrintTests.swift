// The voice print audio.duplicate compares: level-free, rate-free, and telling one recording from
// two, measured on known signals.

import Foundation
import Testing
@testable import SoundpackAudio

@Suite struct VoicePrintTests {
    /// A chirp with a few harmonics, gated on and off: a signal whose spectrum moves in time, as speech does.
    static func voiced(seconds: Double, rate: Int, from low: Double = 200, to high: Double = 900, gain: Float = 0.4) -> [Float] {
        let count = Int(seconds * Double(rate))
        var phase = 0.0
        return (0..<count).map { index in
            let t = Double(index) / Double(count)
            phase += 2 * Double.pi * (low + (high - low) * t) / Double(rate)
            let envelope = Float(sin(Double.pi * t))
            return gain * envelope * Float(sin(phase) + 0.5 * sin(2 * phase) + 0.25 * sin(3 * phase)) / 1.75
        }
    }

    static func print(_ samples: [Float], rate: Int, channels: Int = 1) -> VoicePrint? {
        var meter = VoicePrintMeter(channels: channels, sampleRate: rate)
        samples.withUnsafeBufferPointer { meter.consume($0) }
        return meter.finish()
    }

    @Test func aRecordingIsItselfAtAnyLevelAndRate() throws {
        let original = Self.voiced(seconds: 0.6, rate: 22_050)
        let a = try #require(Self.print(original, rate: 22_050))
        #expect(a.similarity(to: a) > 0.9999 && a.largestDifferenceDb(from: a) == 0)
        let quieter = try #require(Self.print(original.map { $0 * 0.25 }, rate: 22_050))
        #expect(a.similarity(to: quieter) > 0.999 && a.largestDifferenceDb(from: quieter) < 0.5)
        let other = try #require(Self.print(Self.voiced(seconds: 0.6, rate: 48_000), rate: 48_000))
        // At another rate it is still one recording by audio.duplicate's defaults (0.95, 5 dB).
        #expect(a.similarity(to: other) > 0.98 && a.largestDifferenceDb(from: other) < 5, "similarity \(a.similarity(to: other)), \(a.largestDifferenceDb(from: other)) dB")
        let stereo = try #require(Self.print(original.flatMap { [$0, $0] }, rate: 22_050, channels: 2))
        #expect(a.similarity(to: stereo) > 0.9999)
    }

    @Test func anotherSoundIsNot() throws {
        let a = try #require(Self.print(Self.voiced(seconds: 0.6, rate: 22_050), rate: 22_050))
        let falling = try #require(Self.print(Self.voiced(seconds: 0.6, rate: 22_050, from: 900, to: 200), rate: 22_050))
        #expect(a.similarity(to: falling) < 0.9 || a.largestDifferenceDb(from: falling) > 5)
        // Twice as long: not one recording, whatever its spectrum.
        let long = try #require(Self.print(Self.voiced(seconds: 1.3, rate: 22_050), rate: 22_050))
        #expect(a.similarity(to: long) == 0)
    }

    @Test func silenceAndATickHaveNoPrint() {
        #expect(Self.print([Float](repeating: 0, count: 22_050), rate: 22_050) == nil)
        #expect(Self.print(Self.voiced(seconds: 0.02, rate: 22_050), rate: 22_050) == nil)
        #expect(Self.print([], rate: 8_000) == nil)
    }

    /// The FFT puts a tone's energy in the band that holds its frequency.
    @Test func aToneFallsInItsBand() throws {
        let rate = 8_000
        let tone = (0..<4_000).map { Float(0.5 * sin(2 * Double.pi * 1_000 * Double($0) / Double(rate))) }
        let print = try #require(Self.print(tone, rate: rate))
        let frame = Array(print.values[(print.frames / 2) * VoicePrint.bands ..< (print.frames / 2 + 1) * VoicePrint.bands])
        let loudest = try #require(frame.indices.max { frame[$0] < frame[$1] })
        func mel(_ hz: Double) -> Double { 2_595 * log10(1 + hz / 700) }
        let expected = Int((mel(1_000) - mel(VoicePrint.lowHz)) / ((mel(VoicePrint.highHz) - mel(VoicePrint.lowHz)) / Double(VoicePrint.bands)))
        #expect(loudest == expected)
    }
}

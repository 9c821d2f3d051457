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

/// The print's arithmetic against its definitions: the FFT's band energies against a plain DFT,
/// the logarithms against log10, YIN's difference against its sums in Double, and chunked input
/// against whole.
@Suite struct VoicePrintArithmeticTests {
    static func noise(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state >> 11) % 2_000_001 - 1_000_000) / 1_000_000
        }
    }

    /// Five frames (two pairs and one alone, which goes in as both halves of its FFT) of noise:
    /// each band's energy as a direct DFT of the Hann-windowed frame sums it. The bands of a clip
    /// at 8 kHz or above, and of clips below it (other bins, the lowest further up).
    @Test(arguments: [8_000, 6_000, 3_000])
    func bandEnergiesAreTheDFTs(rate: Int) {
        let size = VoicePrintMeter.size, hop = VoicePrintMeter.hop, frames = 5
        let signal = Self.noise(size + hop * (frames - 1), seed: 7)
        let bins = VoicePrintMeter.bands(rate: Double(rate))
        var energies = [Float](repeating: 0, count: frames * bins.count)
        VoiceFFT.shared.bandEnergies(of: signal, frames: frames, hop: hop, binsOfBand: bins, into: &energies)
        for frame in 0..<frames {
            let windowed = (0..<size).map { Double(signal[frame * hop + $0]) * (0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
            for (band, range) in bins.enumerated() {
                let expected = range.reduce(0.0) { total, bin in
                    var (re, im) = (0.0, 0.0)
                    for (n, x) in windowed.enumerated() {
                        let angle = -2 * Double.pi * Double(bin * n) / Double(size)
                        re += x * cos(angle); im += x * sin(angle)
                    }
                    return total + re * re + im * im
                }
                let got = Double(energies[frame * bins.count + band])
                #expect(abs(got - expected) <= expected * 1e-4 + 1e-6, "frame \(frame) band \(band): \(got) vs \(expected)")
            }
        }
    }

    /// The probe feeds a clip in chunks: the print is the same however the clip is cut, at rates
    /// a whole number of steps from 8 kHz and at rates between.
    @Test(arguments: [16_000, 22_050, 48_000])
    func chunksMakeTheSamePrint(rate: Int) throws {
        let samples = VoicePrintTests.voiced(seconds: 0.6, rate: rate)
        let whole = try #require(VoicePrintTests.print(samples, rate: rate))
        var meter = VoicePrintMeter(channels: 1, sampleRate: rate)
        samples.withUnsafeBufferPointer { buffer in
            for start in stride(from: 0, to: buffer.count, by: 997) {
                meter.consume(UnsafeBufferPointer(rebasing: buffer[start..<min(start + 997, buffer.count)]))
            }
        }
        let chunked = try #require(meter.finish())
        #expect(chunked.frames == whole.frames)
        #expect(zip(chunked.values, whole.values).allSatisfy { abs($0 - $1) < 1e-4 }, "\(chunked.similarity(to: whole))")
    }

    /// The print's logarithms, eight at a time, against the library's log10 from 1e-12 to 1e6,
    /// with a count that leaves a tail.
    @Test func logarithmsAreLog10() {
        let values = (0..<1_003).map { Float(pow(10, -12 + 18 * Double($0) / 1_002)) }
        var logs = values
        VoicePrintMeter.logarithms(&logs, adding: 1e-13)
        for (value, log) in zip(values, logs) {
            #expect(abs(log - log10(value + 1e-13)) < 2e-6, "\(value): \(log)")
        }
    }

    @Test func yinDifferencesAreTheSums() {
        let frame = Self.noise(160, seed: 11)
        frame.withUnsafeBufferPointer { frame in
            for lag in 1...58 {
                let difference = VoicePrintMeter.yinDifference(frame, width: 103, lag: lag)
                // The sum by its definition, in Double: the loop's rounding only.
                let exact = (0..<min(103, 160 - lag)).reduce(0.0) { $0 + pow(Double(frame[$1] - frame[$1 + lag]), 2) }
                #expect(abs(Double(difference) - exact) <= exact * 1e-5)
            }
        }
    }
}

// Loudness figures against ffmpeg's ebur128 filter, recorded in a fixture (not run at test time).

import Foundation
@testable import SoundpackAudio
@testable import SoundpackKit
import SoundpackTestSupport
import Testing

@Suite struct LoudnessTests {
    struct Reference: Decodable, Sendable {
        var file: String
        var momentaryMaxLufs: Double
        var truePeakDbtp: Double
    }

    static let references: [Reference] = {
        guard let url = Bundle.module.url(forResource: "Fixtures/loudness-ffmpeg", withExtension: "json"),
              let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode([Reference].self, from: data)) ?? []
    }()

    @Test func theFixtureCoversShortLongMonoAndStereoClips() {
        #expect(Self.references.count >= 20)
    }

    @Test(arguments: references)
    func matchesFFmpegWithinHalfALU(_ reference: Reference) throws {
        let facts = try AudioProbe().probe(path: Fixtures.repositoryRoot + "/" + reference.file)
        let loudness = try #require(facts.momentaryMaxLufs)
        let truePeak = try #require(facts.truePeakDbtp)
        #expect(abs(loudness - reference.momentaryMaxLufs) <= 0.5, "\(reference.file): \(loudness) vs ffmpeg \(reference.momentaryMaxLufs)")
        #expect(abs(truePeak - reference.truePeakDbtp) <= 0.5, "\(reference.file): \(truePeak) vs ffmpeg \(reference.truePeakDbtp)")
    }

    @Test func levelFiguresFollowTheSignal() throws {
        let folder = TemporaryFolder()
        let quiet = folder.file("quiet.wav"), loud = folder.file("loud.wav"), dc = folder.file("dc.wav"), clipped = folder.file("clipped.wav")
        try Fixtures.writeClip(Fixtures.tone(seconds: 0.5, amplitude: 0.1), to: quiet, container: .wav)
        try Fixtures.writeClip(Fixtures.tone(seconds: 0.5, amplitude: 0.5), to: loud, container: .wav)
        try Fixtures.writeClip(Fixtures.tone(seconds: 0.5, amplitude: 0.3, offset: 0.02), to: dc, container: .wav)
        try Fixtures.writeClip(Fixtures.tone(seconds: 0.5, amplitude: 1.6), to: clipped, container: .wav)
        let probe = AudioProbe()
        let q = try probe.probe(path: quiet), l = try probe.probe(path: loud)
        // Five times the amplitude is 13.98 dB louder, whatever the meter's absolute calibration.
        #expect(abs(((l.momentaryMaxLufs ?? 0) - (q.momentaryMaxLufs ?? 0)) - 13.98) < 0.1)
        #expect(abs(q.dcOffsetPercent) < 0.05)
        #expect(q.clippedRuns == 0)
        let shifted = try probe.probe(path: dc)
        #expect(abs(shifted.dcOffsetPercent - 2 * 0.5 / 0.52) < 0.3)  // 2 % over the tone, diluted by its silent edges
        #expect(try probe.probe(path: clipped).clippedRuns > 100)
        #expect(try probe.probe(path: clipped).truePeakDbtp ?? -10 > -0.5)
    }

    /// Skipping quiet neighbourhoods never changes the result, and inter-sample overs are found.
    @Test func truePeakPruningIsExact() {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<40 {
            let channels = round % 2 + 1
            var samples: [Float] = []
            for i in 0..<(3_000 * channels) {
                let envelope: Float = (i / 700) % 2 == 0 ? 0.02 : Float.random(in: 0.2...0.99, using: &rng)
                samples.append(envelope * Float.random(in: -1...1, using: &rng))
            }
            // The Swift scan and, where the processor has AVX2, the C one, both pruned.
            var pruned = TruePeakMeter(channels: channels), wide = TruePeakMeter(channels: channels)
            var full = TruePeakMeter(channels: channels)
            pruned.wide = false
            full.exhaustive = true
            // Chunks of random lengths: shorter than the filter (copied whole), and longer
            // (mono scanned in place past the seam).
            var chunk = 0
            while chunk < samples.count {
                let frames = round % 4 == 0 ? Int.random(in: 1...12, using: &rng) : Int.random(in: 1...700, using: &rng)
                let slice = Array(samples[chunk..<min(samples.count, chunk + frames * channels)])
                slice.withUnsafeBufferPointer { pruned.add($0); wide.add($0); full.add($0) }
                chunk += frames * channels
            }
            pruned.finish()
            wide.finish()
            full.finish()
            #expect(pruned.peak == full.peak)
            #expect(wide.peak == full.peak)
        }
        // A sine at a quarter of the sample rate, sampled 45° off its crests: samples peak at
        // 0.707 of the true amplitude, which lies between them.
        let sine = (0..<4_000).map { Float(sin(Double.pi / 2 * Double($0) + Double.pi / 4)) * 0.9 }
        var meter = TruePeakMeter(channels: 1)
        sine.withUnsafeBufferPointer { meter.add($0) }
        meter.finish()
        #expect(abs(meter.peak - 0.9) < 0.02)
        #expect(sine.map(abs).max() ?? 0 < 0.65)
    }
}

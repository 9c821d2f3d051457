// The K-weighting's layouts against the one it replaced: `KWeightedLanes` with one clip (mono, or
// stereo in two lanes) and with up to four mono clips side by side, in the Swift two-lane loop and
// in the AVX2 four-lane one, gives the figures of the former one-channel-at-a-time loop to the
// last bit, on random clips at every rate, cut into random chunks, with quiet stretches that make
// the trailing silence stop and resume.

import Foundation
@testable import SoundpackAudio
@testable import SoundpackKit
import SoundpackTestSupport
import Testing

@Suite struct KWeightingLayoutTests {
    static let rates = [8_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000]

    /// A clip of `frames` frames: tones, noise and near-silence in random stretches.
    static func clip(frames: Int, channels: Int, using rng: inout some RandomNumberGenerator) -> [Float] {
        var samples: [Float] = []
        samples.reserveCapacity(frames * channels)
        var frame = 0
        while frame < frames {
            let length = min(frames - frame, Int.random(in: 1...6_000, using: &rng))
            let kind = Int.random(in: 0..<4, using: &rng)
            let amplitude = Float.random(in: 0.001...0.99, using: &rng)
            let step = Double.random(in: 0.001...1.5, using: &rng)
            for i in 0..<length {
                for c in 0..<channels {
                    switch kind {
                    case 0: samples.append(amplitude * Float(sin(step * Double(i) + Double(c))))
                    case 1: samples.append(Float.random(in: -amplitude...amplitude, using: &rng))
                    case 2: samples.append(0)
                    default: samples.append(Float.random(in: -1e-7...1e-7, using: &rng))
                    }
                }
            }
            frame += length
        }
        return samples
    }

    /// Random chunk lengths (frames) covering `frames`.
    static func chunks(_ frames: Int, using rng: inout some RandomNumberGenerator) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        while start < frames {
            let end = min(frames, start + Int.random(in: 1...5_000, using: &rng))
            ranges.append(start..<end)
            start = end
        }
        return ranges
    }

    static func former(_ samples: [Float], channels: Int, rate: Int, chunks: [Range<Int>]) -> Double {
        let meter = FormerKWeightedMeter(channels: channels, sampleRate: rate)
        for range in chunks { samples[(range.lowerBound * channels)..<(range.upperBound * channels)].withUnsafeBufferPointer { meter.add($0) } }
        meter.finish()
        return meter.momentaryMax
    }

    /// The loops `KWeightedLanes` can run here: the Swift pairs everywhere, the AVX2 one where the
    /// processor has it (for mono clips; a stereo clip's two lanes always run in the Swift pair).
    static let loops = WideLoops.available ? [false, true] : [false]

    /// One clip fed chunk by chunk (`add`, `finish`), as `LoudnessMeter` feeds it.
    @Test(arguments: loops) func oneClipIsMeasuredAsBeforeToTheLastBit(wide: Bool) {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<120 {
            let channels = round % 2 + 1, rate = Self.rates[round % Self.rates.count]
            let frames = Int.random(in: 1...(rate * 2), using: &rng)
            let samples = Self.clip(frames: frames, channels: channels, using: &rng)
            let chunks = Self.chunks(frames, using: &rng)
            var meter = KWeightedLanes(channels: channels, sampleRate: rate, wide: wide)
            for range in chunks { samples[(range.lowerBound * channels)..<(range.upperBound * channels)].withUnsafeBufferPointer { meter.add($0) } }
            meter.finish()
            let before = Self.former(samples, channels: channels, rate: rate, chunks: chunks)
            let now = meter.momentaryMax[0]
            #expect(now.bitPattern == before.bitPattern, "\(channels) ch, \(frames) frames at \(rate) Hz: \(now) vs \(before)")
        }
    }

    @Test(arguments: loops) func clipsSideBySideAreMeasuredAsEachAloneToTheLastBit(wide: Bool) {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<80 {
            let rate = Self.rates[round % Self.rates.count], count = round % KWeightedLanes.width + 1
            // Lengths from a few frames to several seconds, often close to each other.
            let first = Int.random(in: 1...(rate * 3), using: &rng)
            let lengths = [first] + (1..<count).map { _ in
                round % 2 == 0 ? max(1, first + Int.random(in: -500...500, using: &rng)) : Int.random(in: 1...(rate * 3), using: &rng)
            }
            let clips = lengths.map { Self.clip(frames: $0, channels: 1, using: &rng) }
            let chunks = lengths.map { Self.chunks($0, using: &rng) }
            var lanes = KWeightedLanes(clips: count, sampleRate: rate, wide: wide)
            var served = [Int](repeating: 0, count: count)
            let buffers = clips.map { clip in
                let copy = UnsafeMutableBufferPointer<Float>.allocate(capacity: clip.count)
                _ = copy.initialize(from: clip)
                return UnsafeBufferPointer(copy)
            }
            defer { buffers.forEach { $0.deallocate() } }
            lanes.measure { (lane: Int) -> UnsafeBufferPointer<Float>? in
                guard served[lane] < chunks[lane].count else { return nil }
                served[lane] += 1
                return UnsafeBufferPointer(rebasing: buffers[lane][chunks[lane][served[lane] - 1]])
            }
            let before = (0..<count).map { Self.former(clips[$0], channels: 1, rate: rate, chunks: chunks[$0]) }
            let now = lanes.momentaryMax
            #expect(now.map(\.bitPattern) == before.map(\.bitPattern), "\(lengths) frames at \(rate) Hz: \(now) vs \(before)")
        }
    }

    /// The probe's one pass over a chunk gives the peak and the sum the two passes gave.
    @Test func theFusedScanGivesThePeakAndTheSumOfTheSeparateOnes() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let samples = (0..<Int.random(in: 0...5_000, using: &rng)).map { _ in Float.random(in: -1...1, using: &rng) }
            samples.withUnsafeBufferPointer { x in
                let fused = SampleScan.largestMagnitudeAndSumIfFinite(x)
                #expect(fused?.largest == SampleScan.largestMagnitude(x))
                #expect(fused?.sum.bitPattern == SampleScan.sum(x).bitPattern)
            }
        }
        for bad in [Float.nan, .infinity, -.infinity] {
            var samples = [Float](repeating: 0.5, count: 100)
            samples[Int.random(in: 0..<100, using: &rng)] = bad
            #expect(samples.withUnsafeBufferPointer { SampleScan.largestMagnitudeAndSumIfFinite($0) } == nil)
        }
    }

    /// `AudioProbe.probe(together:)` gives each clip the facts `probe(bytes:)` gives it alone:
    /// mono clips of one rate side by side; other rates, stereo, 11,025 Hz (libebur128) and a
    /// broken clip alone.
    @Test func probingTogetherChangesNoFact() throws {
        var rng = SystemRandomNumberGenerator()
        let folder = TemporaryFolder()
        var files: [(probe: AudioProbe, bytes: [UInt8])] = []
        for (n, rate) in [16_000, 22_050, 22_050, 48_000, 22_050, 11_025, 11_025, 22_050, 22_050].enumerated() {
            let channels = n == 4 ? 2 : 1
            let path = folder.file("\(n).wav")
            let frames = Int.random(in: 2_000...30_000, using: &rng)
            try Fixtures.writeClip(Self.clip(frames: frames, channels: channels, using: &rng), to: path, sampleRate: rate, channels: channels, container: .wav)
            let probe = AudioProbe(silenceThresholdDbfs: [-50, -60][n % 2], clippingRunSamples: 2 + n)
            files.append((probe, try AudioProbe.readCapped(path: path, cap: probe.limits.maxFileBytes)))
        }
        files.append((AudioProbe(), Array("RIFF, but no more".utf8)))
        let alone = files.map { file in Result { () throws(AudioError) in try file.probe.probe(bytes: file.bytes) } }
        // Every pair in both orders, then random groups of three to six (more than the lanes hold).
        var groups = files.indices.flatMap { i in files.indices.filter { $0 != i }.map { [i, $0] } }
        groups += (0..<60).map { _ in Array(files.indices.shuffled(using: &rng).prefix(Int.random(in: 3...6, using: &rng))) }
        for group in groups {
            let together = AudioProbe.probe(together: group.map { files[$0] })
            #expect(together.count == group.count)
            for (result, n) in zip(together, group) {
                switch (result, alone[n]) {
                case (.success(let facts), .success(let expected)): #expect(facts == expected, "clip \(n) in \(group)")
                case (.failure(let error), .failure(let expected)): #expect(error.message == expected.message)
                default: Issue.record("clip \(n) in \(group): \(result) vs \(alone[n])")
                }
            }
        }
    }
}

/// The K-weighted meter as it was before the layouts above, kept as their reference (its
/// coefficients come from `KWeighting`, where they moved unchanged, and its trailing-silence step
/// from `GatingBlocks.tailStep`).
final class FormerKWeightedMeter {
    private let channels: Int
    private let blockFrames: Int
    /// The two stages folded into one 4th-order filter, as libebur128 runs it.
    private let b: (Double, Double, Double, Double, Double)
    private let a: (Double, Double, Double, Double)
    /// Filter memory: 4 values per channel.
    private var state: [Double]
    /// Energy (sum over channels of squared filtered samples) of the last four blocks; the
    /// 400 ms of silence before the clip make the first three zero.
    private var blocks: (Double, Double, Double, Double) = (0, 0, 0, 0)
    private var current: Double = 0
    private var framesInBlock = 0
    private(set) var momentaryMax = -Double.infinity

    init(channels: Int, sampleRate: Int) {
        self.channels = channels
        blockFrames = sampleRate / 10
        // The coefficients moved unchanged into `KWeighting`; the loop below is the former one.
        let weighting = KWeighting(sampleRate: sampleRate)
        b = weighting.b
        a = weighting.a
        state = [Double](repeating: 0, count: 4 * channels)
    }

    func add(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress else { return }
        let frames = samples.count / channels
        var frame = 0
        while frame < frames {
            let n = min(frames - frame, blockFrames - framesInBlock)
            current += filter(base + frame * channels, frames: n)
            frame += n
            framesInBlock += n
            if framesInBlock == blockFrames { closeBlock() }
        }
    }

    /// Filters `frames` interleaved frames; returns the energy they add.
    private func filter(_ input: UnsafePointer<Float>, frames: Int) -> Double {
        var energy = 0.0
        state.withUnsafeMutableBufferPointer { memory in
            for c in 0..<channels {
                var (v1, v2, v3, v4) = (memory[4 * c], memory[4 * c + 1], memory[4 * c + 2], memory[4 * c + 3])
                var sum = 0.0
                var i = c
                for _ in 0..<frames {
                    // The older states first: only the last multiply-subtract waits for v1, the
                    // value just computed, so successive samples overlap in the pipeline.
                    let older = Double(input[i]) - a.3 * v4 - a.2 * v3 - a.1 * v2
                    let v0 = older - a.0 * v1
                    let y = b.0 * v0 + b.1 * v1 + b.2 * v2 + b.3 * v3 + b.4 * v4
                    sum += y * y
                    (v4, v3, v2, v1) = (v3, v2, v1, v0)
                    i += channels
                }
                // Flush denormals, as libebur128 does, so a decaying filter costs nothing.
                func flush(_ x: Double) -> Double { abs(x) < Double.leastNormalMagnitude ? 0 : x }
                (memory[4 * c], memory[4 * c + 1], memory[4 * c + 2], memory[4 * c + 3]) = (flush(v1), flush(v2), flush(v3), flush(v4))
                energy += sum
            }
        }
        return energy
    }

    private func closeBlock() {
        blocks = (blocks.1, blocks.2, blocks.3, current)
        current = 0
        framesInBlock = 0
        let mean = (blocks.0 + blocks.1 + blocks.2 + blocks.3) / Double(4 * blockFrames)
        if mean > 0 {
            let loudness = -0.691 + 10 * log10(mean)
            if loudness.isFinite { momentaryMax = max(momentaryMax, loudness) }
        }
    }

    /// The trailing 400 ms of silence: filtered while the filter still rings (with a quiet
    /// signal it decays in a few milliseconds), then the remaining blocks are known to add
    /// nothing and only the window means are taken.
    func finish() {
        var remaining = 4 * blockFrames
        // In steps of the lanes' length (a policy, not a layout: the step decides where the filter
        // is found quiet, and with it the last bits).
        let step = GatingBlocks.tailStep
        let chunk = [Float](repeating: 0, count: step * channels)
        while remaining > 0 {
            let n = min(step, remaining, blockFrames - framesInBlock)
            // Rung out: what is left adds less than a millionth of the loudest block's energy.
            let loudest = max(blocks.0, blocks.1, blocks.2, blocks.3, current) / Double(blockFrames)
            let quiet = state.allSatisfy { $0 * $0 <= 1e-12 * loudest }
            if !quiet {
                current += chunk.withUnsafeBufferPointer { filter($0.baseAddress!, frames: n) }
            }
            framesInBlock += n
            remaining -= n
            if framesInBlock == blockFrames { closeBlock() }
        }
    }
}


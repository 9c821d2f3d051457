// EBU R 128 momentary loudness: an own K-weighted meter for mono and stereo clips (the figures of
// libebur128, which stays the reference in the tests and measures every other layout), and
// libebur128 itself; the only file that imports CEBUR128.

import CEBUR128
import Foundation

/// Measures a clip's momentary-max loudness while its chunks stream past.
///
/// Mono and stereo go through `KWeightedMeter`, which filters each sample once with the BS.1770
/// K-weighting (libebur128's coefficients), keeps the energy of each 100 ms block, and stops
/// filtering the trailing silence once the filter has rung out. Other layouts use libebur128.
final class LoudnessMeter {
    private let own: KWeightedMeter?
    private let reference: EBUR128Meter?

    init(channels: Int, sampleRate: Int) throws(AudioError) {
        if (1...2).contains(channels), sampleRate % 10 == 0 {
            own = KWeightedMeter(channels: channels, sampleRate: sampleRate)
            reference = nil
        } else {
            own = nil
            reference = try EBUR128Meter(channels: channels, sampleRate: sampleRate)
        }
    }

    var momentaryMax: Double { own?.momentaryMax ?? reference?.momentaryMax ?? -.infinity }

    func add(_ samples: UnsafeBufferPointer<Float>) {
        if let own { own.add(samples) } else { reference?.add(samples) }
    }

    func finish() {
        if let own { own.finish() } else { reference?.finish() }
    }
}

/// BS.1770 K-weighting and momentary loudness for one or two channels (weight 1 each), windows of
/// 400 ms taken every 100 ms, with 400 ms of silence before and after the clip — the figures
/// libebur128 gives in EBUR128_MODE_M for the same feed. Needs a sample rate divisible by 10, so
/// that four 100 ms blocks are exactly one window.
final class KWeightedMeter {
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
        let rate = Double(sampleRate)
        // Stage 1, the high shelf (libebur128's constants).
        var f0 = 1681.974450955533, q = 0.7071752369554196
        let gain = 3.999843853973347
        var k = tan(Double.pi * f0 / rate)
        let vh = pow(10.0, gain / 20.0), vb = pow(vh, 0.4996667741545416)
        var a0 = 1.0 + k / q + k * k
        let pb = [(vh + vb * k / q + k * k) / a0, 2.0 * (k * k - vh) / a0, (vh - vb * k / q + k * k) / a0]
        let pa = [1.0, 2.0 * (k * k - 1.0) / a0, (1.0 - k / q + k * k) / a0]
        // Stage 2, the RLB high pass.
        f0 = 38.13547087602444
        q = 0.5003270373238773
        k = tan(Double.pi * f0 / rate)
        a0 = 1.0 + k / q + k * k
        let rb = [1.0, -2.0, 1.0]
        let ra = [1.0, 2.0 * (k * k - 1.0) / a0, (1.0 - k / q + k * k) / a0]
        func convolve(_ x: [Double], _ y: [Double]) -> [Double] {
            var out = [Double](repeating: 0, count: 5)
            for i in 0..<3 { for j in 0..<3 { out[i + j] += x[i] * y[j] } }
            return out
        }
        let bb = convolve(pb, rb), aa = convolve(pa, ra)
        b = (bb[0], bb[1], bb[2], bb[3], bb[4])
        a = (aa[1], aa[2], aa[3], aa[4])
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
        let chunk = [Float](repeating: 0, count: 64 * channels)
        while remaining > 0 {
            let n = min(64, remaining, blockFrames - framesInBlock)
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

/// libebur128's momentary meter, fed block by block.
///
/// Momentary loudness is the K-weighted level of a 400 ms window, taken every 100 ms. Clips are
/// shorter than that, so the clip is measured as if 400 ms of silence stood before and after it:
/// every window that overlaps the clip counts, and a 300 ms clip still gets a finite figure.
/// `ffmpeg -af "adelay=400:all=1,apad=pad_dur=0.4,ebur128"` measures the same windows.
final class EBUR128Meter {
    private let state: UnsafeMutablePointer<ebur128_state>
    private let channels: Int
    private let stepFrames: Int
    private var framesUntilStep: Int
    private(set) var momentaryMax = -Double.infinity

    init(channels: Int, sampleRate: Int) throws(AudioError) {
        let mode = Int32(EBUR128_MODE_M.rawValue)
        guard let state = ebur128_init(UInt32(channels), UInt(sampleRate), mode) else {
            throw AudioError("cannot measure loudness of \(channels) channels at \(sampleRate) Hz")
        }
        self.state = state
        self.channels = channels
        stepFrames = max(1, Int((Double(sampleRate) / 10).rounded()))
        framesUntilStep = stepFrames
    }

    deinit {
        var pointer: UnsafeMutablePointer<ebur128_state>? = state
        ebur128_destroy(&pointer)
    }

    /// Adds interleaved samples, evaluating the momentary window at every 100 ms boundary.
    func add(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress else { return }
        var offset = 0
        var frames = samples.count / channels
        while frames > 0 {
            let n = min(frames, framesUntilStep)
            ebur128_add_frames_float(state, base + offset * channels, n)
            offset += n
            frames -= n
            framesUntilStep -= n
            if framesUntilStep == 0 {
                var value = -Double.infinity
                if ebur128_loudness_momentary(state, &value) == EBUR128_SUCCESS.rawValue, value.isFinite {
                    momentaryMax = max(momentaryMax, value)
                }
                framesUntilStep = stepFrames
            }
        }
    }

    /// Feeds the trailing 400 ms of silence so the last windows over the clip are measured.
    func finish() {
        let silence = [Float](repeating: 0, count: stepFrames * 4 * channels)
        silence.withUnsafeBufferPointer { add($0) }
    }
}

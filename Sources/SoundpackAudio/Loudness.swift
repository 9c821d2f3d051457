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
package final class LoudnessMeter {
    private let own: KWeightedMeter?
    private let reference: EBUR128Meter?

    package init(channels: Int, sampleRate: Int) throws(AudioError) {
        if (1...2).contains(channels), sampleRate % 10 == 0 {
            own = KWeightedMeter(channels: channels, sampleRate: sampleRate)
            reference = nil
        } else {
            own = nil
            reference = try EBUR128Meter(channels: channels, sampleRate: sampleRate)
        }
    }

    package var momentaryMax: Double { own?.momentaryMax ?? reference?.momentaryMax ?? -.infinity }

    package func add(_ samples: UnsafeBufferPointer<Float>) {
        if let own { own.add(samples) } else { reference?.add(samples) }
    }

    package func finish() {
        if let own { own.finish() } else { reference?.finish() }
    }
}

/// BS.1770 K-weighting (libebur128's coefficients) for one sample rate: the two stages folded into
/// one 4th-order filter, as libebur128 runs it.
struct KWeighting {
    typealias Coefficients<V> = (b: (V, V, V, V, V), a: (V, V, V, V))
    /// Filter memory, v1…v4, of two lanes.
    typealias Lanes = (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, SIMD2<Double>)
    let b: (Double, Double, Double, Double, Double)
    let a: (Double, Double, Double, Double)

    init(sampleRate: Int) {
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
    }

    /// These coefficients in both lanes. (The compiler must see them made from one number each:
    /// with lanes it cannot prove equal it shuffles the recursion between lanes and loses the
    /// gain, which is why a pair shares one sample rate.)
    @inline(__always)
    var lanes: Coefficients<SIMD2<Double>> {
        (b: (SIMD2(repeating: b.0), SIMD2(repeating: b.1), SIMD2(repeating: b.2), SIMD2(repeating: b.3), SIMD2(repeating: b.4)),
         a: (SIMD2(repeating: a.0), SIMD2(repeating: a.1), SIMD2(repeating: a.2), SIMD2(repeating: a.3)))
    }

    /// Filters `frames` frames, one channel in each lane, with `load(frame)` giving a frame's
    /// input; `state` holds v1…v4 and `sum` gathers the squared outputs. Each lane runs the
    /// operations of a one-channel loop in the same order, so it rounds as that loop would; a
    /// lane with nothing to filter costs nothing, as the time goes to the recursion's latency.
    @inline(__always)
    static func run(_ coefficients: Coefficients<SIMD2<Double>>, frames: Int, state v: inout Lanes,
                    sum: inout SIMD2<Double>, load: (Int) -> SIMD2<Double>) {
        let (a0, a1, a2, a3) = coefficients.a
        let (b0, b1, b2, b3, b4) = coefficients.b
        var (v1, v2, v3, v4) = v
        var total = sum
        for frame in 0..<frames {
            let x = load(frame)
            // The older states first: only the last multiply-subtract waits for v1, the value
            // just computed, so successive samples overlap in the pipeline.
            let older = x - a3 * v4 - a2 * v3 - a1 * v2
            let v0 = older - a0 * v1
            let y = b0 * v0 + b1 * v1 + b2 * v2 + b3 * v3 + b4 * v4
            total += y * y
            (v4, v3, v2, v1) = (v3, v2, v1, v0)
        }
        v = (v1, v2, v3, v4)
        sum = total
    }

    /// Flushes denormals, as libebur128 does, so a decaying filter costs nothing.
    static func flush(_ v: (Double, Double, Double, Double)) -> (Double, Double, Double, Double) {
        func flush(_ x: Double) -> Double { abs(x) < Double.leastNormalMagnitude ? 0 : x }
        return (flush(v.0), flush(v.1), flush(v.2), flush(v.3))
    }
}

/// The energy of 100 ms blocks and the loudest 400 ms window over them, with 400 ms of silence
/// before the clip (the first three blocks zero): libebur128's EBUR128_MODE_M bookkeeping.
struct MomentaryBlocks {
    /// The trailing silence is filtered in steps of at most this many frames.
    static let tailStep = 64

    let blockFrames: Int
    /// Energy (sum over channels of squared filtered samples) of the last four blocks.
    private var blocks: (Double, Double, Double, Double) = (0, 0, 0, 0)
    /// The energy so far of the block being filled.
    var current: Double = 0
    private var framesInBlock = 0
    private(set) var momentaryMax = -Double.infinity

    init(sampleRate: Int) { blockFrames = sampleRate / 10 }

    /// Frames until the block being filled is complete.
    var framesToBoundary: Int { blockFrames - framesInBlock }
    /// The 400 ms of silence after the clip.
    var tailFrames: Int { 4 * blockFrames }

    /// Counts `frames` more frames, whose energy is already in `current`, closing the block when
    /// it is full.
    mutating func advance(_ frames: Int) {
        framesInBlock += frames
        guard framesInBlock == blockFrames else { return }
        blocks = (blocks.1, blocks.2, blocks.3, current)
        current = 0
        framesInBlock = 0
        let mean = (blocks.0 + blocks.1 + blocks.2 + blocks.3) / Double(4 * blockFrames)
        if mean > 0 {
            let loudness = -0.691 + 10 * log10(mean)
            if loudness.isFinite { momentaryMax = max(momentaryMax, loudness) }
        }
    }

    /// Whether a filter with this state has rung out: what is left adds less than a millionth of
    /// the loudest block's energy (with a quiet signal that takes a few milliseconds). A quiet
    /// filter is not fed; the blocks left only take their means.
    func isQuiet(_ v: (Double, Double, Double, Double)) -> Bool {
        let limit = 1e-12 * max(blocks.0, blocks.1, blocks.2, blocks.3, current) / Double(blockFrames)
        return v.0 * v.0 <= limit && v.1 * v.1 <= limit && v.2 * v.2 <= limit && v.3 * v.3 <= limit
    }
}

/// BS.1770 K-weighting and momentary loudness for one or two channels (weight 1 each), windows of
/// 400 ms taken every 100 ms, with 400 ms of silence before and after the clip — the figures
/// libebur128 gives in EBUR128_MODE_M for the same feed. Needs a sample rate divisible by 10, so
/// that four 100 ms blocks are exactly one window.
final class KWeightedMeter {
    private let channels: Int
    private let weighting: KWeighting
    /// Filter memory: v1…v4 of each channel.
    private var state: [(Double, Double, Double, Double)]
    private var blocks: MomentaryBlocks
    var momentaryMax: Double { blocks.momentaryMax }

    init(channels: Int, sampleRate: Int) {
        self.channels = channels
        weighting = KWeighting(sampleRate: sampleRate)
        state = Array(repeating: (0, 0, 0, 0), count: channels)
        blocks = MomentaryBlocks(sampleRate: sampleRate)
    }

    func add(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress else { return }
        let frames = samples.count / channels
        var frame = 0
        while frame < frames {
            let n = min(frames - frame, blocks.framesToBoundary)
            blocks.current += filter(base + frame * channels, frames: n)
            frame += n
            blocks.advance(n)
        }
    }

    /// Filters `frames` interleaved frames (nil: silence); returns the energy they add. Both
    /// channels of a stereo clip run in the lanes of one SIMD2; a mono clip uses the first.
    private func filter(_ input: UnsafePointer<Float>?, frames: Int) -> Double {
        let (l, r) = (state[0], channels == 2 ? state[1] : (0, 0, 0, 0))
        var v = (SIMD2(l.0, r.0), SIMD2(l.1, r.1), SIMD2(l.2, r.2), SIMD2(l.3, r.3))
        var sum = SIMD2<Double>()
        let coefficients = weighting.lanes
        switch (input, channels) {
        case (let input?, 2):
            KWeighting.run(coefficients, frames: frames, state: &v, sum: &sum) { SIMD2(Double(input[2 &* $0]), Double(input[2 &* $0 &+ 1])) }
        case (let input?, _):
            KWeighting.run(coefficients, frames: frames, state: &v, sum: &sum) { SIMD2(Double(input[$0]), 0) }
        case (nil, _):
            KWeighting.run(coefficients, frames: frames, state: &v, sum: &sum) { _ in SIMD2() }
        }
        for lane in 0..<channels { state[lane] = KWeighting.flush((v.0[lane], v.1[lane], v.2[lane], v.3[lane])) }
        return channels == 2 ? sum[0] + sum[1] : sum[0]
    }

    /// The trailing 400 ms of silence: filtered while the filter still rings, then the remaining
    /// blocks are known to add nothing and only the window means are taken.
    func finish() {
        var remaining = blocks.tailFrames
        while remaining > 0 {
            // Quiet stays quiet until a block closes: the steps up to there are skipped at once.
            let quiet = state.allSatisfy { blocks.isQuiet($0) }
            let n = min(quiet ? remaining : MomentaryBlocks.tailStep, remaining, blocks.framesToBoundary)
            if !quiet { blocks.current += filter(nil, frames: n) }
            remaining -= n
            blocks.advance(n)
        }
    }
}

/// Up to four mono clips of one sample rate measured side by side. The K-weighting recursion waits
/// on the sample before, so one clip leaves the arithmetic units idle and several fill them: two
/// in the SIMD2 lanes of `KWeighting.run`, four in one 256-bit vector where the processor has AVX2
/// (`WideLoops.kWeighting`). Each lane runs the operations `KWeightedMeter` runs for its
/// clip alone, in the same order, with the energy summed over the same stretches and the state
/// flushed at the same points, so every figure is the same to the last bit.
package struct KWeightedLanes {
    package static let width = 4

    /// Where a lane is: in its clip, in the trailing silence after it, or finished.
    private enum Phase { case clip, tail(remaining: Int), done }

    private struct Lane {
        var blocks: MomentaryBlocks
        var phase = Phase.clip
        var chunk = UnsafeBufferPointer<Float>(start: nil, count: 0)
        var offset = 0
        /// The stretch `KWeightedMeter` would filter in one call: its length and what is left.
        var length = 0
        var left = 0
        /// The stretch is trailing silence after the filter rang out: counted, not filtered.
        var skipping = false
        var isDone: Bool { if case .done = phase { true } else { false } }
        var filtering: Bool { !skipping && !isDone }
    }

    private var lanes: [Lane]
    private let weighting: KWeighting
    /// Lane by lane, as the wide loop takes them (allocated once): v1 of the four lanes, then v2,
    /// v3 and v4; the energy of each lane's stretch so far; where each reads its next frames.
    private var state = [Double](repeating: 0, count: 4 * KWeightedLanes.width)
    private var sums = [Double](repeating: 0, count: KWeightedLanes.width)
    private var inputs = [UnsafePointer<Float>?](repeating: nil, count: KWeightedLanes.width)
    private let b: [Double], a: [Double]
    /// The four lanes run in the AVX2 loop, or two by two in the Swift one (tests run both).
    private let useWide: Bool
    /// What a lane in its trailing silence reads: zeros, allocated once and never freed.
    private nonisolated(unsafe) static let silence: UnsafePointer<Float> = {
        let zeros = UnsafeMutablePointer<Float>.allocate(capacity: MomentaryBlocks.tailStep)
        zeros.initialize(repeating: 0, count: MomentaryBlocks.tailStep)
        return UnsafePointer(zeros)
    }()

    var momentaryMax: [Double] { lanes.map(\.blocks.momentaryMax) }

    /// `clips` (1…4) clips at one sample rate, which must be divisible by 10.
    init(clips: Int, sampleRate: Int, wide: Bool = WideLoops.available) {
        precondition((1...Self.width).contains(clips), "one to four clips side by side")
        weighting = KWeighting(sampleRate: sampleRate)
        lanes = Array(repeating: Lane(blocks: MomentaryBlocks(sampleRate: sampleRate)), count: clips)
        useWide = wide
        b = [weighting.b.0, weighting.b.1, weighting.b.2, weighting.b.3, weighting.b.4]
        a = [weighting.a.0, weighting.a.1, weighting.a.2, weighting.a.3]
    }

    private func laneState(_ i: Int) -> (Double, Double, Double, Double) {
        (state[i], state[Self.width + i], state[2 * Self.width + i], state[3 * Self.width + i])
    }

    private mutating func setLaneState(_ i: Int, _ v: (Double, Double, Double, Double)) {
        (state[i], state[Self.width + i], state[2 * Self.width + i], state[3 * Self.width + i]) = v
    }

    /// Measures every clip and its trailing silence. `next(lane)` hands over that lane's next
    /// chunk of mono samples (read until the next call for the lane), nil at the clip's end.
    mutating func measure<E: Error>(_ next: (Int) throws(E) -> UnsafeBufferPointer<Float>?) throws(E) {
        while true {
            for i in lanes.indices where lanes[i].left == 0 && !lanes[i].isDone { try begin(i, next) }
            var step = Int.max
            for lane in lanes where !lane.isDone { step = min(step, lane.left) }
            if step == .max { return }
            if lanes.contains(where: \.filtering) { run(step) }
            for i in lanes.indices where !lanes[i].isDone {
                lanes[i].left -= step
                if case .clip = lanes[i].phase { lanes[i].offset += step }
                if lanes[i].left == 0 { end(i) }
            }
        }
    }

    /// Starts lane `i`'s next stretch: the rest of its chunk up to the block boundary, or the next
    /// step of its trailing silence; or marks it done.
    private mutating func begin<E: Error>(_ i: Int, _ next: (Int) throws(E) -> UnsafeBufferPointer<Float>?) throws(E) {
        if case .clip = lanes[i].phase {
            while lanes[i].offset == lanes[i].chunk.count {
                guard let chunk = try next(i) else { break }
                (lanes[i].chunk, lanes[i].offset) = (chunk, 0)
            }
            if lanes[i].offset < lanes[i].chunk.count {
                lanes[i].length = min(lanes[i].chunk.count - lanes[i].offset, lanes[i].blocks.framesToBoundary)
                lanes[i].left = lanes[i].length
                return
            }
            lanes[i].phase = .tail(remaining: lanes[i].blocks.tailFrames)
        }
        guard case .tail(let remaining) = lanes[i].phase, remaining > 0 else {
            lanes[i].phase = .done
            return
        }
        // A quiet filter stays quiet until a block closes (nothing else moves what it is measured
        // against), so the steps of 64 frames it would skip up to there are skipped in one.
        lanes[i].skipping = lanes[i].blocks.isQuiet(laneState(i))
        lanes[i].length = min(lanes[i].skipping ? remaining : MomentaryBlocks.tailStep, remaining, lanes[i].blocks.framesToBoundary)
        lanes[i].left = lanes[i].length
    }

    /// Ends lane `i`'s stretch as `KWeightedMeter` ends a call: the energy into the block, the
    /// state flushed of denormals.
    private mutating func end(_ i: Int) {
        if lanes[i].filtering {
            lanes[i].blocks.current += sums[i]
            setLaneState(i, KWeighting.flush(laneState(i)))
        }
        sums[i] = 0
        if case .tail(let remaining) = lanes[i].phase { lanes[i].phase = .tail(remaining: remaining - lanes[i].length) }
        lanes[i].skipping = false
        lanes[i].blocks.advance(lanes[i].length)
    }

    /// Filters `frames` frames in every filtering lane; the others keep their state and sum.
    private mutating func run(_ frames: Int) {
        // A lane filtering its trailing silence reads zeros (such a stretch, and so every step
        // while it lasts, is at most 64 frames). A lane that is not filtering, or has no clip,
        // reads another's input, and what it computes is not kept.
        var filtering = 0
        for i in lanes.indices where lanes[i].filtering {
            filtering |= 1 << i
            if case .clip = lanes[i].phase {
                inputs[i] = lanes[i].chunk.baseAddress! + lanes[i].offset
            } else {
                precondition(frames <= MomentaryBlocks.tailStep, "a step of trailing silence longer than its zeros")
                inputs[i] = Self.silence
            }
        }
        let any = inputs[filtering.trailingZeroBitCount]
        for i in 0..<Self.width where filtering & (1 << i) == 0 { inputs[i] = any }
        if useWide {
            WideLoops.kWeighting(b: b, a: a, inputs: inputs, frames: frames, state: &state, sums: &sums, lanes: filtering)
        } else {
            for first in stride(from: 0, to: lanes.count, by: 2) where (filtering >> first) & 3 != 0 {
                runPair(first, filtering: (filtering >> first) & 1 != 0, filtering >> first & 2 != 0, frames: frames)
            }
        }
    }

    /// Lanes `first` and `first + 1` in `KWeighting.run`'s SIMD2.
    private mutating func runPair(_ first: Int, filtering: Bool, _ filteringNext: Bool, frames: Int) {
        let (p, q) = (laneState(first), laneState(first + 1))
        var v = (SIMD2(p.0, q.0), SIMD2(p.1, q.1), SIMD2(p.2, q.2), SIMD2(p.3, q.3))
        var sum = SIMD2(sums[first], sums[first + 1])
        let (x, y) = (inputs[first]!, inputs[first + 1]!)
        KWeighting.run(weighting.lanes, frames: frames, state: &v, sum: &sum) { SIMD2(Double(x[$0]), Double(y[$0])) }
        if filtering { setLaneState(first, (v.0[0], v.1[0], v.2[0], v.3[0])); sums[first] = sum[0] }
        if filteringNext { setLaneState(first + 1, (v.0[1], v.1[1], v.2[1], v.3[1])); sums[first + 1] = sum[1] }
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

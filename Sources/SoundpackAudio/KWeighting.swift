// BS.1770 K-weighting: libebur128's coefficients for a sample rate, the recursion over two lanes
// in Swift, and `KWeightingBank`, four lanes of it side by side (AVX2 twin: CSoundpackKernels/kweighting.c).

import Foundation

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

/// Four K-weighting filters of one sample rate side by side, each lane a channel: their memory,
/// the energy each has gathered, and where each reads. The recursion waits on the sample before,
/// so one lane leaves the arithmetic units idle and several fill them: two in the SIMD2 lanes of
/// `KWeighting.run`, four in one 256-bit vector where the processor has AVX2
/// (`WideLoops.kWeighting`). Every lane rounds as a one-channel loop would.
struct KWeightingBank {
    static let width = 4

    private let weighting: KWeighting
    private let b: [Double], a: [Double]
    /// Run the four lanes in the AVX2 loop, or two by two in the Swift one (tests run both).
    private let useWide: Bool
    /// Lane by lane, as the wide loop takes them (allocated once): v1 of the four lanes, then v2,
    /// v3 and v4; the energy gathered by each lane since `takeEnergy`.
    private var state = [Double](repeating: 0, count: 4 * KWeightingBank.width)
    private var sums = [Double](repeating: 0, count: KWeightingBank.width)
    /// Where each lane reads its next frames (set before `run`).
    var inputs = [UnsafePointer<Float>?](repeating: nil, count: KWeightingBank.width)

    init(sampleRate: Int, wide: Bool) {
        weighting = KWeighting(sampleRate: sampleRate)
        useWide = wide
        b = [weighting.b.0, weighting.b.1, weighting.b.2, weighting.b.3, weighting.b.4]
        a = [weighting.a.0, weighting.a.1, weighting.a.2, weighting.a.3]
    }

    /// v1…v4 of lane `i`.
    func state(_ i: Int) -> (Double, Double, Double, Double) {
        (state[i], state[Self.width + i], state[2 * Self.width + i], state[3 * Self.width + i])
    }

    private mutating func setState(_ i: Int, _ v: (Double, Double, Double, Double)) {
        (state[i], state[Self.width + i], state[2 * Self.width + i], state[3 * Self.width + i]) = v
    }

    /// The energy lane `i` gathered since the last call, its state then flushed of denormals
    /// (`keep`), or both dropped.
    mutating func takeEnergy(_ i: Int, keep: Bool) -> Double {
        defer { sums[i] = 0 }
        guard keep else { return 0 }
        setState(i, KWeighting.flush(state(i)))
        return sums[i]
    }

    /// Filters `frames` frames in the lanes whose bit is set in `filtering`, each reading
    /// `inputs[lane]` every `stride` samples; the other lanes keep their state and energy.
    mutating func run(_ frames: Int, filtering: Int, stride: Int) {
        // A lane that is not filtering reads another's input, and what it computes is not kept.
        let any = inputs[filtering.trailingZeroBitCount]
        for i in 0..<Self.width where filtering & (1 << i) == 0 { inputs[i] = any }
        if useWide && stride == 1 {
            WideLoops.kWeighting(b: b, a: a, inputs: inputs, frames: frames, state: &state, sums: &sums, lanes: filtering)
            return
        }
        for first in Swift.stride(from: 0, to: Self.width, by: 2) where (filtering >> first) & 3 != 0 {
            runPair(first, filtering: (filtering >> first) & 1 != 0, (filtering >> first) & 2 != 0, frames: frames, stride: stride)
        }
    }

    /// Lanes `first` and `first + 1` in `KWeighting.run`'s SIMD2: mono clips side by side, or
    /// the two channels of a stereo clip (interleaved, `stride` 2).
    private mutating func runPair(_ first: Int, filtering: Bool, _ filteringNext: Bool, frames: Int, stride: Int) {
        let (p, q) = (state(first), state(first + 1))
        var v = (SIMD2(p.0, q.0), SIMD2(p.1, q.1), SIMD2(p.2, q.2), SIMD2(p.3, q.3))
        var sum = SIMD2(sums[first], sums[first + 1])
        let (x, y) = (inputs[first]!, inputs[first + 1]!)
        if stride == 2 {
            KWeighting.run(weighting.lanes, frames: frames, state: &v, sum: &sum) { SIMD2(Double(x[2 &* $0]), Double(y[2 &* $0])) }
        } else {
            KWeighting.run(weighting.lanes, frames: frames, state: &v, sum: &sum) { SIMD2(Double(x[$0]), Double(y[$0])) }
        }
        if filtering { setState(first, (v.0[0], v.1[0], v.2[0], v.3[0])); sums[first] = sum[0] }
        if filteringNext { setState(first + 1, (v.0[1], v.1[1], v.2[1], v.3[1])); sums[first + 1] = sum[1] }
    }
}

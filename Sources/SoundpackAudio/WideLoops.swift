// The AVX2 loops of our own C (Sources/CSoundpackKernels), the one place that imports it: whether
// this processor runs them, and calls that take Swift's buffers.

import CSoundpackKernels

enum WideLoops {
    /// The processor and its OS run AVX2 (checked once). Elsewhere the Swift loops run, which
    /// compute every value the same way.
    static let available = soundpack_has_avx2() != 0

    /// `KWeighting.run` for four lanes at once; see `soundpack_kweighting4_avx2`. Only the lanes
    /// whose bit is set in `lanes` get their state and sum written back.
    static func kWeighting(b: [Double], a: [Double], inputs: [UnsafePointer<Float>?], frames: Int,
                           state: inout [Double], sums: inout [Double], lanes: Int) {
        precondition(b.count == 5 && a.count == 4 && inputs.count == 4 && state.count == 16 && sums.count == 4 && available)
        soundpack_kweighting4_avx2(b, a, inputs, frames, &state, &sums, Int32(lanes))
    }

    /// `TruePeakMeter`'s scan of `x` (the 11 samples before, then the new ones); see
    /// `soundpack_true_peak_avx2`. Returns the larger of `peak` and every value interpolated.
    static func truePeak(_ x: UnsafeBufferPointer<Float>, peak: Float, phases: [Float], gain: Float, centre: Float, outer: Float) -> Float {
        precondition(phases.count == 48 && available)
        guard let base = x.baseAddress else { return peak }
        return phases.withUnsafeBufferPointer { soundpack_true_peak_avx2(base, x.count, peak, $0.baseAddress, gain, centre, outer) }
    }
}

// The passes over a chunk that the probe and the meters share: largest magnitude, sum, and
// whether every sample is finite.

/// Loops over a chunk of samples that the meters share, eight lanes at a time.
enum SampleScan {
    /// The largest |sample|.
    static func largestMagnitude(_ x: UnsafeBufferPointer<Float>) -> Float {
        scan(x, refusingNonFinite: false, summing: false)?.largest ?? 0
    }

    /// The largest |sample| and the sum of the samples (as `sum` adds them), or nil when a
    /// sample is not finite: one pass for the chunks a probe reads.
    static func largestMagnitudeAndSumIfFinite(_ x: UnsafeBufferPointer<Float>) -> (largest: Float, sum: Double)? {
        scan(x, refusingNonFinite: true, summing: true)
    }

    /// The sum of the samples, in eight Float lanes per run of 1024, added up in Double.
    static func sum(_ x: UnsafeBufferPointer<Float>) -> Double {
        scan(x, refusingNonFinite: false, summing: true)?.sum ?? 0
    }

    /// All of the above in one loop; the flags are constants at each call, so a check or a sum is
    /// only compiled into the loops that ask for it. A NaN or an infinity makes the running
    /// `v * 0` NaN, which no comparison in the maximum would notice.
    @inline(__always)
    private static func scan(_ x: UnsafeBufferPointer<Float>, refusingNonFinite: Bool, summing: Bool) -> (largest: Float, sum: Double)? {
        var top = SIMD8<Float>(repeating: 0), bottom = SIMD8<Float>(repeating: 0), zero = SIMD8<Float>(repeating: 0)
        var total = 0.0
        var i = 0
        if let base = x.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i + 8 <= x.count {
                let end = min(i + 1_024, x.count - x.count % 8)
                var lanes = SIMD8<Float>(repeating: 0)
                while i < end {
                    let v = raw.loadUnaligned(fromByteOffset: i * MemoryLayout<Float>.stride, as: SIMD8<Float>.self)
                    top.replace(with: v, where: v .> top)
                    bottom.replace(with: v, where: v .< bottom)
                    if refusingNonFinite { zero += v * 0 }
                    if summing { lanes += v }
                    i += 8
                }
                if summing { total += Double(lanes.sum()) }
            }
        }
        // Lane reductions written out: SIMD8's max() and min() were calls here.
        var largest: Float = 0
        for lane in 0..<8 {
            if refusingNonFinite && zero[lane] != 0 { return nil }
            largest = max(largest, top[lane], -bottom[lane])
        }
        while i < x.count {
            if refusingNonFinite && !x[i].isFinite { return nil }
            largest = max(largest, abs(x[i]))
            if summing { total += Double(x[i]) }
            i += 1
        }
        return (largest, total)
    }
}

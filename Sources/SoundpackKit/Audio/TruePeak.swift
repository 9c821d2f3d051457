// True peak (ITU-R BS.1770-4 Annex 2): the highest level between samples, found by 4×
// oversampling with the recommendation's 48-tap interpolation filter. Only neighbourhoods that
// could beat the peak found so far are interpolated; the result is the same as interpolating
// every sample, at a fraction of the cost on speech.

struct TruePeakMeter {
    /// The filter's four phases, 12 taps each, newest sample last.
    static let phases: [[Float]] = [
        [0.0017089843750, 0.0109863281250, -0.0196533203125, 0.0332031250000, -0.0594482421875, 0.1373291015625,
         0.9721679687500, -0.1022949218750, 0.0476074218750, -0.0266113281250, 0.0148925781250, -0.0083007812500],
        [-0.0291748046875, 0.0292968750000, -0.0517578125000, 0.0891113281250, -0.1665039062500, 0.4650878906250,
         0.7797851562500, -0.2003173828125, 0.1015625000000, -0.0582275390625, 0.0330810546875, -0.0189208984375],
        [-0.0189208984375, 0.0330810546875, -0.0582275390625, 0.1015625000000, -0.2003173828125, 0.7797851562500,
         0.4650878906250, -0.1665039062500, 0.0891113281250, -0.0517578125000, 0.0292968750000, -0.0291748046875],
        [-0.0083007812500, 0.0148925781250, -0.0266113281250, 0.0476074218750, -0.1022949218750, 0.9721679687500,
         0.1373291015625, -0.0594482421875, 0.0332031250000, -0.0196533203125, 0.0109863281250, 0.0017089843750],
    ]
    static let taps = 12
    /// The same taps by position: lane p of entry k is phase p's tap k, so one multiply-add per tap
    /// gives the four interpolated values between two samples (the same sums, in the same order).
    static let lanes: [SIMD4<Float>] = (0..<taps).map { k in SIMD4(phases[0][k], phases[1][k], phases[2][k], phases[3][k]) }
    /// No interpolated value exceeds this multiple of the largest input in its 12-sample window.
    static let gainBound: Float = phases.map { $0.reduce(0) { $0 + abs($1) } }.max() ?? 2

    let channels: Int
    /// Per channel: the last `taps - 1` samples of the previous chunk, then the current chunk.
    private var history: [[Float]]
    /// The channel being scanned: its history, then this chunk's samples (reused between chunks).
    private var line: [Float] = []
    private(set) var peak: Float = 0
    /// Interpolate everything (for checking that pruning changes nothing).
    var exhaustive = false

    init(channels: Int) {
        self.channels = max(channels, 1)
        history = Array(repeating: Array(repeating: 0, count: Self.taps - 1), count: max(channels, 1))
    }

    /// Adds a chunk of interleaved samples; `samplePeak`, when the caller measured it, is the
    /// chunk's largest |sample| (saves a pass over it).
    mutating func add(_ samples: UnsafeBufferPointer<Float>, samplePeak: Float? = nil) {
        let frames = samples.count / channels
        guard frames > 0 else { return }
        peak = max(peak, samplePeak ?? SampleScan.largestMagnitude(samples))
        for channel in 0..<channels {
            line.removeAll(keepingCapacity: true)
            line.append(contentsOf: history[channel])
            if channels == 1 {
                line.append(contentsOf: samples)
            } else {
                for frame in 0..<frames { line.append(samples[frame * channels + channel]) }
            }
            scan()
            history[channel].withUnsafeMutableBufferPointer { kept in
                line.withUnsafeBufferPointer { kept.baseAddress!.update(from: $0.baseAddress! + $0.count - (Self.taps - 1), count: Self.taps - 1) }
            }
        }
    }

    /// Feeds `taps - 1` zeros so the last samples' neighbourhoods are interpolated too.
    mutating func finish() {
        let zeros = [Float](repeating: 0, count: (Self.taps - 1) * channels)
        zeros.withUnsafeBufferPointer { add($0) }
    }

    /// Interpolates the windows ending at each new sample of `line`, skipping blocks whose
    /// largest magnitude times `gainBound` cannot beat the peak so far.
    private mutating func scan() {
        let first = Self.taps - 1
        let block = 32
        var peak = self.peak
        let exhaustive = self.exhaustive
        line.withUnsafeBufferPointer { x in
            var start = first
            while start < x.count {
                let end = min(start + block, x.count)
                let local = SampleScan.largestMagnitude(UnsafeBufferPointer(rebasing: x[(start - first)..<end]))
                if exhaustive || local * Self.gainBound > peak {
                    peak = max(peak, Self.interpolatedPeak(x, from: start, to: end))
                }
                start = end
            }
        }
        self.peak = peak
    }

    /// The largest magnitude of the four interpolated values after each sample in `start..<end`.
    private static func interpolatedPeak(_ x: UnsafeBufferPointer<Float>, from start: Int, to end: Int) -> Float {
        lanes.withUnsafeBufferPointer { c in
            let (c0, c1, c2, c3, c4, c5) = (c[0], c[1], c[2], c[3], c[4], c[5])
            let (c6, c7, c8, c9, c10, c11) = (c[6], c[7], c[8], c[9], c[10], c[11])
            var top = SIMD4<Float>(repeating: 0), bottom = SIMD4<Float>(repeating: 0)
            for n in start..<end {
                let b = n - (taps - 1)
                var y = c0 * x[b]
                y += c1 * x[b + 1]; y += c2 * x[b + 2]; y += c3 * x[b + 3]; y += c4 * x[b + 4]
                y += c5 * x[b + 5]; y += c6 * x[b + 6]; y += c7 * x[b + 7]; y += c8 * x[b + 8]
                y += c9 * x[b + 9]; y += c10 * x[b + 10]; y += c11 * x[b + 11]
                // replace(where:) rather than pointwiseMax, which was not inlined here.
                top.replace(with: y, where: y .> top)
                bottom.replace(with: y, where: y .< bottom)
            }
            return max(top.max(), -bottom.min())
        }
    }
}

/// Loops over a chunk of samples that the meters share, eight lanes at a time.
enum SampleScan {
    /// The largest |sample|.
    static func largestMagnitude(_ x: UnsafeBufferPointer<Float>) -> Float {
        scan(x, refusingNonFinite: false) ?? 0
    }

    /// The largest |sample|, or nil when a sample is not finite.
    static func largestMagnitudeIfFinite(_ x: UnsafeBufferPointer<Float>) -> Float? {
        scan(x, refusingNonFinite: true)
    }

    /// Both of the above in one loop; the flag is a constant at each call, so the check is only
    /// compiled into the loop that asks for it. A NaN or an infinity makes the running `v * 0`
    /// NaN, which no comparison in the maximum would notice.
    @inline(__always)
    private static func scan(_ x: UnsafeBufferPointer<Float>, refusingNonFinite: Bool) -> Float? {
        var top = SIMD8<Float>(repeating: 0), bottom = SIMD8<Float>(repeating: 0), zero = SIMD8<Float>(repeating: 0)
        var i = 0
        if let base = x.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i + 8 <= x.count {
                let v = raw.loadUnaligned(fromByteOffset: i * MemoryLayout<Float>.stride, as: SIMD8<Float>.self)
                top.replace(with: v, where: v .> top)
                bottom.replace(with: v, where: v .< bottom)
                if refusingNonFinite { zero += v * 0 }
                i += 8
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
            i += 1
        }
        return largest
    }

    /// The sum of the samples, in eight Float lanes per run of 1024, added up in Double.
    static func sum(_ x: UnsafeBufferPointer<Float>) -> Double {
        guard let base = x.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var total = 0.0
        var i = 0
        while i + 8 <= x.count {
            let end = min(i + 1_024, x.count - x.count % 8)
            var lanes = SIMD8<Float>(repeating: 0)
            while i < end {
                lanes += raw.loadUnaligned(fromByteOffset: i * MemoryLayout<Float>.stride, as: SIMD8<Float>.self)
                i += 8
            }
            total += Double(lanes.sum())
        }
        while i < x.count { total += Double(x[i]); i += 1 }
        return total
    }
}

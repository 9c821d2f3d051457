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
    /// The phases one after another, as the AVX2 loop takes them.
    static let taps48: [Float] = phases.flatMap { $0 }
    /// The same taps by position: lane p of entry k is phase p's tap k, so one multiply-add per tap
    /// gives the four interpolated values between two samples (the same sums, in the same order).
    static let lanes: [SIMD4<Float>] = (0..<taps).map { k in SIMD4(phases[0][k], phases[1][k], phases[2][k], phases[3][k]) }

    let channels: Int
    /// Per channel: the last `taps - 1` samples of the previous chunk.
    private var history: [[Float]]
    /// The channel being scanned: its history, then this chunk's samples (reused between chunks).
    private var line: [Float] = []
    private(set) var peak: Float = 0
    /// Interpolate everything (for checking that pruning changes nothing).
    var exhaustive = false
    /// Scan with the AVX2 loop (`WideLoops.truePeak`) where the processor has it; tests turn it
    /// off to check the Swift loop, which computes every value the same way.
    var wide = WideLoops.available

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
        let kept = Self.taps - 1
        if channels == 1 && frames >= kept {
            // Mono is scanned where it lies: only the seam, the history and the chunk's first
            // samples, is copied.
            line.removeAll(keepingCapacity: true)
            line.append(contentsOf: history[0])
            line.append(contentsOf: samples.prefix(kept))
            line.withUnsafeBufferPointer { scan($0) }
            scan(samples)
            history[0].withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: samples.baseAddress! + frames - kept, count: kept) }
            return
        }
        for channel in 0..<channels {
            line.removeAll(keepingCapacity: true)
            line.append(contentsOf: history[channel])
            if channels == 1 {
                line.append(contentsOf: samples)
            } else {
                for frame in 0..<frames { line.append(samples[frame * channels + channel]) }
            }
            line.withUnsafeBufferPointer { scan($0) }
            history[channel].withUnsafeMutableBufferPointer { last in
                line.withUnsafeBufferPointer { last.baseAddress!.update(from: $0.baseAddress! + $0.count - kept, count: kept) }
            }
        }
    }

    /// Feeds `taps - 1` zeros so the last samples' neighbourhoods are interpolated too.
    mutating func finish() {
        let zeros = [Float](repeating: 0, count: (Self.taps - 1) * channels)
        zeros.withUnsafeBufferPointer { add($0) }
    }

    /// Taps 4…7 of every phase (those under the samples nearest the interpolated points) and the
    /// rest: the most either group of one phase adds up to in magnitude.
    static let centreBound: Float = phases.map { $0[4...7].reduce(0) { $0 + abs($1) } }.max() ?? 2
    static let outerBound: Float = phases.map { $0.reduce(0) { $0 + abs($1) } - $0[4...7].reduce(0) { $0 + abs($1) } }.max() ?? 2

    /// No interpolated value exceeds this multiple of the largest |sample| in its 12-sample window.
    static let gainBound: Float = phases.map { $0.reduce(0) { $0 + abs($1) } }.max() ?? 2

    /// Interpolates the windows ending at each sample of `x` after its first `taps - 1` (which
    /// come before them), skipping what cannot beat the peak so far: blocks of 32 whose largest
    /// |sample| times `gainBound` does not, then within a block runs of eight by a closer bound.
    /// An interpolated value is at most `centreBound` × the largest |sample| under taps 4…7 +
    /// `outerBound` × the largest under the others; over eight values from `n` the first lie in
    /// `n - 7 ..< n + 4` and the others in the block's window. The bounds are widened by 1e-4
    /// for rounding, so the peak is the one interpolating everything gives (`exhaustive`, which
    /// the tests compare). Where the processor has AVX2 the C loop does the same.
    private mutating func scan(_ x: UnsafeBufferPointer<Float>) {
        let first = Self.taps - 1
        let block = 32
        if wide && !exhaustive {
            self.peak = WideLoops.truePeak(x, peak: self.peak, phases: Self.taps48, gain: Self.gainBound * 1.0001,
                                           centre: Self.centreBound * 1.0001, outer: Self.outerBound * 1.0001)
            return
        }
        var peak = self.peak
        var start = first
        while start < x.count {
            let end = min(start + block, x.count)
            if exhaustive {
                peak = max(peak, Self.interpolatedPeak(x, from: start, to: end))
            } else {
                let local = SampleScan.largestMagnitude(UnsafeBufferPointer(rebasing: x[(start - first)..<end]))
                if local * Self.gainBound * 1.0001 > peak {
                    peak = Self.prunedPeak(x, from: start, to: end, window: local, peak: peak)
                }
            }
            start = end
        }
        self.peak = peak
    }

    /// `max(peak, interpolatedPeak(x, from: start, to: end))`, interpolating only the runs of
    /// eight whose bound beats `peak` (`window`: the largest |sample| from `start - 11` to `end`).
    private static func prunedPeak(_ x: UnsafeBufferPointer<Float>, from start: Int, to end: Int, window: Float, peak: Float) -> Float {
        var peak = peak
        let raw = UnsafeRawPointer(x.baseAddress!)
        let centre = centreBound * 1.0001, outer = outerBound * 1.0001 * window
        var n = start
        while n + 8 <= end {
            // The largest |x[n - 7 ..< n + 4]|, from two overlapping loads with the sign bits
            // cleared (every sample is finite here).
            let early = raw.loadUnaligned(fromByteOffset: (n - 7) * MemoryLayout<Float>.stride, as: SIMD8<UInt32>.self) & 0x7FFF_FFFF
            let late = raw.loadUnaligned(fromByteOffset: (n - 4) * MemoryLayout<Float>.stride, as: SIMD8<UInt32>.self) & 0x7FFF_FFFF
            var near = unsafeBitCast(early, to: SIMD8<Float>.self)
            let other = unsafeBitCast(late, to: SIMD8<Float>.self)
            near.replace(with: other, where: other .> near)
            var half = near.lowHalf
            half.replace(with: near.highHalf, where: near.highHalf .> half)
            if centre * max(half[0], half[1], half[2], half[3]) + outer > peak {
                peak = max(peak, runPeak(raw, at: n))
            }
            n += 8
        }
        if n < end { peak = max(peak, interpolatedPeak(x, from: n, to: end)) }
        return peak
    }

    /// Phase p's taps as splats, `taps` entries per phase: the multipliers of `runPeak`.
    static let splats: [SIMD8<Float>] = phases.flatMap { $0.map { SIMD8(repeating: $0) } }

    /// `interpolatedPeak(x, from: n, to: n + 8)` with the run laid the other way: one phase at
    /// a time over the eight samples, so each tap is one load of eight neighbours times a
    /// constant instead of eight broadcasts. Every value is the same sum, in the same order.
    @inline(__always)
    private static func runPeak(_ x: UnsafeRawPointer, at n: Int) -> Float {
        splats.withUnsafeBufferPointer { c in
            let base = (n - (taps - 1)) * MemoryLayout<Float>.stride
            func window(_ k: Int) -> SIMD8<Float> {
                x.loadUnaligned(fromByteOffset: base + k * MemoryLayout<Float>.stride, as: SIMD8<Float>.self)
            }
            var largest = SIMD8<UInt32>(repeating: 0)
            for phase in 0..<4 {
                let t = phase * taps
                var y = c[t] * window(0)
                y += c[t + 1] * window(1); y += c[t + 2] * window(2); y += c[t + 3] * window(3)
                y += c[t + 4] * window(4); y += c[t + 5] * window(5); y += c[t + 6] * window(6)
                y += c[t + 7] * window(7); y += c[t + 8] * window(8); y += c[t + 9] * window(9)
                y += c[t + 10] * window(10); y += c[t + 11] * window(11)
                // Magnitudes compared as integers: for non-negative floats the order is the same.
                let magnitude = unsafeBitCast(y, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF
                largest.replace(with: magnitude, where: magnitude .> largest)
            }
            var half = largest.lowHalf
            half.replace(with: largest.highHalf, where: largest.highHalf .> half)
            return Float(bitPattern: max(half[0], half[1], half[2], half[3]))
        }
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
            return max(top[0], top[1], top[2], top[3], -bottom[0], -bottom[1], -bottom[2], -bottom[3])
        }
    }
}

// A clip's sound in brief, measured in the probe's one decode pass: the spectral envelope of what
// is said, frame by frame, with the silence around it trimmed and the level taken out. Two files of
// one recording (a copy, re-encoded, re-levelled) have nearly the same print; two words do not.

import Foundation

/// Log band energies of a clip's sound, per 32 ms frame at a 16 ms hop, from the first frame
/// within 40 dB of the loudest to the last; the mean is subtracted, so a clip played louder or
/// softer has the same print.
package struct VoicePrint: Sendable, Equatable {
    /// Bands per frame (one SIMD16 in `correlation`), spaced evenly in mel from `lowHz` to `highHz` (the telephone band, which
    /// every sample rate a pack may use holds).
    package static let bands = 16
    package static let lowHz = 150.0, highHz = 3_800.0

    /// Frames, each `bands` values (log10 of band energy, mean removed), in time order.
    package var values: [Float]
    /// What the voice sounds like, over the frames within 15 dB of the loudest.
    package var voice = VoiceFeatures()
    package var frames: Int { values.count / Self.bands }

    /// How alike two prints are, from -1 to 1: the correlation of their values with the second
    /// stretched or squeezed in time to the first's frames. 0 when their lengths differ by more
    /// than a fifth (and two frames): not one recording.
    package func similarity(to other: VoicePrint) -> Double {
        let (a, b) = (frames, other.frames)
        guard a > 0, b > 0, Double(max(a, b)) <= Double(min(a, b)) * 1.2 + 2 else { return 0 }
        return correlation(with: other)
    }

    /// Where two prints differ most, in dB: over the frames of this print within 15 dB of its
    /// loudest, the largest mean distance of a frame's bands from the other's at the same point.
    /// One recording, copied or re-encoded, stays within a few dB everywhere; two words alike in
    /// most of their length (43 and 45 in Hindi) part by 7 dB or more where they differ.
    package func largestDifferenceDb(from other: VoicePrint) -> Double {
        let (a, b) = (frames, other.frames), bands = Self.bands
        guard a > 0, b > 0 else { return .infinity }
        let loudness = (0..<a).map { frame in values[frame * bands ..< (frame + 1) * bands].max() ?? 0 }
        let loudest = loudness.max() ?? 0
        var largest = 0.0
        for frame in 0..<a where loudness[frame] > loudest - 1.5 {
            let (low, high, weight) = Self.point(frame, of: a, in: b)
            var distance = 0.0
            for band in 0..<bands {
                let y = other.values[low * bands + band] * (1 - weight) + other.values[high * bands + band] * weight
                distance += Double(abs(values[frame * bands + band] - y))
            }
            largest = max(largest, 10 * distance / Double(bands))
        }
        return largest
    }

    /// Frame `frame` of `count` frames, at the same point of `other` frames: between two of them.
    private static func point(_ frame: Int, of count: Int, in other: Int) -> (low: Int, high: Int, weight: Float) {
        let position = count == 1 ? 0 : Double(frame) * Double(other - 1) / Double(count - 1)
        let low = Int(position)
        return (low, min(low + 1, other - 1), Float(position - Double(low)))
    }

    /// The correlation over every band of every frame, a frame's 16 bands side by side; the sums
    /// are carried in Float for 32 frames at a time, then in Double.
    private func correlation(with other: VoicePrint) -> Double {
        let (a, b) = (frames, other.frames)
        typealias Bands = SIMD16<Float>
        precondition(Self.bands == Bands.scalarCount, "a frame's bands are one SIMD16")
        guard a >= 3, b > 0 else { return 0 }
        var totals = (x: 0.0, y: 0.0, xx: 0.0, yy: 0.0, xy: 0.0)
        values.withUnsafeBytes { x in
            other.values.withUnsafeBytes { y in
                let stride = MemoryLayout<Bands>.size
                for block in Swift.stride(from: 0, to: a, by: 32) {
                    var (sx, sy, sxx, syy, sxy) = (Bands(), Bands(), Bands(), Bands(), Bands())
                    for frame in block..<min(block + 32, a) {
                        // The matching point in `other`, between two of its frames.
                        let (low, high, weight) = Self.point(frame, of: a, in: b)
                        let xs = x.loadUnaligned(fromByteOffset: frame * stride, as: Bands.self)
                        let ys = y.loadUnaligned(fromByteOffset: low * stride, as: Bands.self) * (1 - weight)
                            + y.loadUnaligned(fromByteOffset: high * stride, as: Bands.self) * weight
                        sx += xs; sy += ys; sxx += xs * xs; syy += ys * ys; sxy += xs * ys
                    }
                    totals.x += Double(sx.sum()); totals.y += Double(sy.sum())
                    totals.xx += Double(sxx.sum()); totals.yy += Double(syy.sum()); totals.xy += Double(sxy.sum())
                }
            }
        }
        let n = Double(a * Self.bands)
        let covariance = totals.xy - totals.x * totals.y / n
        let spread = ((totals.xx - totals.x * totals.x / n) * (totals.yy - totals.y * totals.y / n)).squareRoot()
        return spread > 0 ? max(-1, min(1, covariance / spread)) : 0
    }
}

/// A voice's figures in one clip: who speaks, rather than what is said.
package struct VoiceFeatures: Sendable, Equatable {
    /// The median fundamental frequency of the voiced loud frames (YIN); nil with fewer than three.
    package var pitchHz: Double?
}

/// Builds a clip's `VoicePrint`: `consume` only resamples each chunk to mono 8 kHz (cheap, in the
/// probe's decode pass); `finish` cuts 256-sample Hann-windowed frames at a 128-sample hop, one FFT
/// each, and measures the voice.
struct VoicePrintMeter {
    static let size = 256, hop = 128
    /// The rate frames are cut at: every clip's print has the same frames per second.
    private static let rate: Float = 8_000
    private let channels: Int
    /// Input samples per 8 kHz sample (1 for a clip at 8 kHz or below, whose samples are taken as they are).
    private let step: Double
    /// The last input sample consumed, and where the next 8 kHz sample falls from the next chunk's first.
    private var previous: Float = 0, next = 0.0
    private let binsOfBand: [Range<Int>]
    /// The clip at 8 kHz, mono.
    private var signal: [Float] = []

    /// `frames`: how many the header declares (a hint to size the signal, at most 60 s of it).
    init(channels: Int, sampleRate: Int, frames: Int64 = 0) {
        self.channels = max(channels, 1)
        step = max(1, Double(sampleRate) / Double(Self.rate))
        signal.reserveCapacity(Int(min(Double(max(frames, 0)) / step, Double(Self.rate) * 60)) + 2)
        binsOfBand = sampleRate >= Int(Self.rate) ? Self.fullRateBands : Self.bands(rate: Double(max(sampleRate, 1)))
    }

    /// The bands of every clip at 8 kHz or above (nearly all), computed once.
    private static let fullRateBands = bands(rate: Double(rate))

    /// Each band's FFT bins (of 0 ..< size/2): consecutive, as mel rises with the frequency; empty
    /// for a band too narrow to hold a bin at a low rate.
    static func bands(rate: Double) -> [Range<Int>] {
        func mel(_ hz: Double) -> Double { 2_595 * log10(1 + hz / 700) }
        let high = min(VoicePrint.highHz, rate / 2 * 0.95)
        let low = mel(VoicePrint.lowHz), width = (mel(high) - low) / Double(VoicePrint.bands)
        let bandOfBin = (0..<size / 2).map { bin -> Int in
            let hz = Double(bin) * rate / Double(size)
            guard hz >= VoicePrint.lowHz, hz < high else { return -1 }
            return min(VoicePrint.bands - 1, Int((mel(hz) - low) / width))
        }
        return (0..<VoicePrint.bands).map { band in
            guard let first = bandOfBin.firstIndex(of: band), let last = bandOfBin.lastIndex(of: band) else { return 0..<0 }
            return first..<last + 1
        }
    }

    /// Resamples the chunk to mono 8 kHz by linear interpolation between input samples: the output
    /// samples fall every `step` input samples, counted from the clip's first.
    mutating func consume(_ chunk: UnsafeBufferPointer<Float>) {
        let channels = self.channels, frames = chunk.count / channels
        guard frames > 0 else { return }
        func mono(_ frame: Int) -> Float {
            guard channels > 1 else { return chunk[frame] }
            var sum: Float = 0
            for channel in 0..<channels { sum += chunk[frame * channels + channel] }
            return sum / Float(channels)
        }
        // `next` is where the next output falls, in input frames from this chunk's first (-1 ..< 0:
        // between the last chunk's final sample and this one's first).
        var next = self.next
        let outputs = next < Double(frames - 1) ? Int(((Double(frames - 1) - next) / step).rounded(.up)) : 0
        let written = signal.count
        signal.append(contentsOf: repeatElement(0, count: outputs))
        let previous = self.previous, step = self.step
        signal.withUnsafeMutableBufferPointer { out in
            var done = 0
            if channels == 1, frames >= 2, let input = chunk.baseAddress, let output = out.baseAddress?.advanced(by: written) {
                // An output between the last chunk's final sample and this one's first (at most one: `step` ≥ 1).
                while done < outputs, next < 0 {
                    output[done] = previous + (input[0] - previous) * Float(next + 1)
                    done += 1
                    next += step
                }
                // The rest, each position in fixed point (32 bits of sample, 32 of fraction: no
                // float-to-integer conversion per sample), never past the last pair.
                let unit = 4_294_967_296.0, last = frames - 2, first = done
                var position = UInt64(max(0, next) * unit)
                let increment = UInt64((step * unit).rounded())
                if increment & 0xFFFF_FFFF == 0, position & 0xFFFF_FFFF == 0 {
                    // A whole step (16, 24, 48 kHz) from a whole position: every output is an input sample.
                    let stride = Int(increment >> 32)
                    var index = Int(position >> 32)
                    for n in done..<outputs {
                        output[n] = input[min(index, frames - 1)]
                        index += stride
                    }
                    done = outputs
                }
                for n in done..<outputs {
                    let whole = Int(truncatingIfNeeded: position >> 32), index = min(whole, last)
                    let weight = Float(whole - index) + Float(UInt32(truncatingIfNeeded: position)) * (1 / 4_294_967_296)
                    let a = input[index], b = input[index + 1]
                    output[n] = a + (b - a) * weight
                    position &+= increment
                }
                next += Double(outputs - first) * step
                done = outputs
            }
            for n in done..<outputs {
                let index = Int(next.rounded(.down)), weight = Float(next - next.rounded(.down))
                let a = index < 0 ? previous : mono(index), b = mono(index + 1)
                out[written + n] = a + (b - a) * weight
                next += step
            }
        }
        self.previous = mono(frames - 1)
        self.next = next - Double(frames)
    }

    /// The print of what was consumed; nil when nothing rises 40 dB above the rest, or fewer than
    /// three frames do (too short or silent to tell).
    func finish() -> VoicePrint? {
        let bands = VoicePrint.bands
        guard signal.count >= Self.size else { return nil }
        let frames = (signal.count - Self.size) / Self.hop + 1
        guard frames >= 3 else { return nil }
        var bandEnergies = [Float](repeating: 0, count: frames * bands)
        VoiceFFT.shared.bandEnergies(of: signal, frames: frames, hop: Self.hop, binsOfBand: binsOfBand, into: &bandEnergies)
        let totals = bandEnergies.withUnsafeBufferPointer { energies in
            (0..<frames).map { frame in
                var total: Float = 0
                for band in 0..<bands { total += energies[frame * bands + band] }
                return total
            }
        }
        guard let loudest = totals.max(), loudest > 1e-9 else { return nil }
        guard let first = totals.firstIndex(where: { $0 >= loudest * 1e-4 }), let last = totals.lastIndex(where: { $0 >= loudest * 1e-4 }),
              last - first + 1 >= 3 else { return nil }
        var values = Array(bandEnergies[first * bands ..< (last + 1) * bands])
        Self.logarithms(&values, adding: loudest * 1e-5)
        let mean = values.reduce(0, +) / Float(values.count)
        for index in values.indices { values[index] -= mean }
        let loud = (first...last).filter { totals[$0] >= loudest * 0.031_6 }  // within 15 dB
        return VoicePrint(values: values, voice: voice(frames: loud, totals: totals))
    }

    /// Replaces each value by log10 of it plus `floor` (the sum positive and normal), eight at a
    /// time: with x = m·2^e and m in [√½, √2), ln m = 2·atanh(s), s = (m − 1)/(m + 1), by its series
    /// to s⁷ (|s| < 0.172: within 1e-7 of the logarithm, below Float's rounding of it).
    static func logarithms(_ values: inout [Float], adding floor: Float) {
        typealias Lanes = SIMD8<Float>
        values.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let raw = UnsafeMutableRawPointer(base), blocks = buffer.count / Lanes.scalarCount
            let (log10Of2, log10OfE): (Float, Float) = (0.301_029_995_7, 0.434_294_481_9)
            for block in 0..<blocks {
                let x = raw.loadUnaligned(fromByteOffset: block * MemoryLayout<Lanes>.size, as: Lanes.self) + floor
                let bits = unsafeBitCast(x, to: SIMD8<UInt32>.self)
                var exponent = SIMD8<Int32>(truncatingIfNeeded: (bits &>> 23) & 0xFF) &- 127
                var m = unsafeBitCast((bits & 0x007F_FFFF) | 0x3F80_0000, to: Lanes.self)
                let high = m .> 1.414_213_5
                m.replace(with: m * 0.5, where: high)
                exponent.replace(with: exponent &+ 1, where: high)
                let s: Lanes = (m - 1) / (m + 1), s2: Lanes = s * s
                var series: Lanes = s2 * (1 / 7 as Float) + (1 / 5 as Float)
                series = series * s2 + (1 / 3 as Float)
                series = series * s2 + (1 as Float)
                let ln: Lanes = series * s * (2 as Float)
                let result = Lanes(exponent) * log10Of2 + ln * log10OfE
                raw.storeBytes(of: result, toByteOffset: block * MemoryLayout<Lanes>.size, as: Lanes.self)
            }
            for index in blocks * Lanes.scalarCount ..< buffer.count { buffer[index] = log10(buffer[index] + floor) }
        }
    }

    /// The pitch of the loudest frames (vowels), at most `pitchFrames` of them.
    private func voice(frames loud: [Int], totals: [Float]) -> VoiceFeatures {
        let loudest = loud.sorted { totals[$0] > totals[$1] }.prefix(Self.pitchFrames)
        let pitches = signal.withUnsafeBufferPointer { samples in loudest.compactMap { Self.pitch(samples, from: $0 * Self.hop) } }.sorted()
        return VoiceFeatures(pitchHz: pitches.count >= 3 ? pitches[pitches.count / 2] : nil)
    }

    /// How many of a clip's loudest frames its pitch is the median of.
    private static let pitchFrames = 5

    /// YIN's fundamental of the 40 ms from `start` (over two periods of the lowest voice; 70–400
    /// Hz), or nil when unvoiced: the first lag whose cumulative-mean-normalised difference falls
    /// below 0.25, at its local minimum; failing that, the deepest dip when it is below 0.35 (a voice
    /// whose pitch moves within the window, as tones do). Measured at 4 kHz (pairs of 8 kHz samples
    /// averaged: a quarter of the work), the lag refined between samples by the parabola through
    /// its neighbours.
    private static func pitch(_ signal: UnsafeBufferPointer<Float>, from start: Int) -> Double? {
        let rate: Float = 4_000, window = 160, minLag = Int(rate / 400), maxLag = Int(rate / 70), width = window - maxLag
        let start = min(start, signal.count - 2 * window)
        guard start >= 0, let base = signal.baseAddress else { return nil }
        // The frame and the normalised differences in one scratch buffer of the caller's stack, not the heap.
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: window + maxLag + 2) { scratch -> Double? in
            let frame = UnsafeBufferPointer(rebasing: scratch[0..<window])
            for index in 0..<window { scratch[index] = (base[start + 2 * index] + base[start + 2 * index + 1]) / 2 }
            let normalised = UnsafeMutableBufferPointer(rebasing: scratch[window...])
            normalised.initialize(repeating: 1)
            return pitch(of: frame, normalised: normalised, rate: rate, minLag: minLag, maxLag: maxLag, width: width)
        }
    }

    /// `pitch(_:from:)` of the 4 kHz `frame`, `normalised` (`maxLag` + 2 values, each 1) its scratch.
    private static func pitch(of frame: UnsafeBufferPointer<Float>, normalised: UnsafeMutableBufferPointer<Float>,
                              rate: Float, minLag: Int, maxLag: Int, width: Int) -> Double? {
        var running: Float = 0
        var found: Int?, deepest = (lag: 0, value: Float.infinity)
        for lag in 1...maxLag + 1 {
            let difference = Self.yinDifference(frame, width: width, lag: lag)
            running += difference
            normalised[lag] = running > 0 ? difference * Float(lag) / running : 1
            guard lag <= maxLag else { break }
            if lag >= minLag {
                if found != nil {
                    if normalised[lag] < normalised[lag - 1] { found = lag } else { break }
                } else if normalised[lag] < 0.25 {
                    found = lag
                }
                if normalised[lag] < deepest.value { deepest = (lag, normalised[lag]) }
            }
        }
        if found == nil, deepest.value < 0.35 { found = deepest.lag }
        guard let lag = found else { return nil }
        // The parabola through the lag and its neighbours: the period between samples.
        let (before, at, after) = (normalised[lag - 1], normalised[lag], normalised[lag + 1])
        let curve = before - 2 * at + after
        let shift = curve > 0 ? max(-0.5, min(0.5, (before - after) / (2 * curve))) : 0
        return Double(rate) / (Double(lag) + Double(shift))
    }

    /// YIN's difference function of `frame` at `lag`: the sum of squared differences over the
    /// first `width` samples (fewer where the lag runs out of frame), eight lanes at a time, then
    /// the rest one by one.
    static func yinDifference(_ frame: UnsafeBufferPointer<Float>, width: Int, lag: Int) -> Float {
        let raw = UnsafeRawPointer(frame.baseAddress!), blocks = width / 8
        var sums = SIMD8<Float>()
        for block in 0..<blocks {
            let a = raw.loadUnaligned(fromByteOffset: block * 32, as: SIMD8<Float>.self)
            let b = raw.loadUnaligned(fromByteOffset: (block * 8 + lag) * 4, as: SIMD8<Float>.self)
            let delta = a - b
            sums += delta * delta
        }
        var difference = sums.sum()
        for index in blocks * 8 ..< min(width, frame.count - lag) {
            let delta = frame[index] - frame[index + lag]
            difference += delta * delta
        }
        return difference
    }
}

/// A 256-point FFT with its tables computed once.
final class VoiceFFT: Sendable {
    static let shared = VoiceFFT(size: 256)
    private let size: Int
    /// The twiddles of every stage, one after another: for the stage of span `s` (1, 2, 4 … size/2),
    /// the `s` values e^(−iπk/s), k = 0 ..< s, starting at index `s − 1`; contiguous, so a stage's
    /// butterflies run eight at a time.
    private let cosines: [Float], sines: [Float], reversed: [Int]
    /// The Hann window in bit-reversed order: `reversedHann[i]` is the window at `reversed[i]`.
    private let reversedHann: [Float]

    init(size: Int) {
        self.size = size
        let spans = (0..<size.trailingZeroBitCount).map { 1 << $0 }
        cosines = spans.flatMap { span in (0..<span).map { Float(cos(-Double.pi * Double($0) / Double(span))) } }
        sines = spans.flatMap { span in (0..<span).map { Float(sin(-Double.pi * Double($0) / Double(span))) } }
        let bits = size.trailingZeroBitCount
        let reversed = (0..<size).map { index in (0..<bits).reduce(0) { $0 << 1 | (index >> $1 & 1) } }
        self.reversed = reversed
        reversedHann = reversed.map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
    }

    /// Each frame's power summed per band: frame `f` is the `size` samples from `f × hop`, windowed.
    /// Two frames go through one complex FFT (one as the real part, the next as the imaginary) and
    /// are told apart by the spectrum's symmetry: X[k] = (Z[k] + Z*[N−k]) / 2, Y[k] = (Z[k] − Z*[N−k]) / 2i.
    /// (A last frame without a partner goes in as both; the second half is not kept.) The powers of
    /// the bins the bands use are computed four bins at a time, then summed band by band in bin order.
    func bandEnergies(of signal: [Float], frames: Int, hop: Int, binsOfBand: [Range<Int>], into energies: inout [Float]) {
        let size = self.size, bands = binsOfBand.count
        // The bins any band holds; bin 0 is in none (below `lowHz`), so every mirror is in range.
        var (lowest, highest) = (Int.max, 1)
        for bins in binsOfBand where !bins.isEmpty { (lowest, highest) = (min(lowest, bins.lowerBound), max(highest, bins.upperBound)) }
        if lowest == .max { lowest = 1 }
        precondition(lowest >= 1 && highest <= size / 2, "bands within the first half of the spectrum, bin 0 excluded")
        var real = [Float](repeating: 0, count: size), imaginary = [Float](repeating: 0, count: size)
        // Powers by bin of the two frames (whole blocks of four from `lowest`: up to three past `highest`).
        var powers = [Float](repeating: 0, count: 2 * (size / 2 + 4))
        let tables = (reversed: self.reversed, hann: self.reversedHann)
        // Unchecked views of the tables: every index below is in range by construction.
        tables.reversed.withUnsafeBufferPointer { reversed in
        tables.hann.withUnsafeBufferPointer { hann in
        binsOfBand.withUnsafeBufferPointer { binsOfBand in
        signal.withUnsafeBufferPointer { signal in
        powers.withUnsafeMutableBufferPointer { powers in
            real.withUnsafeMutableBufferPointer { re in
                imaginary.withUnsafeMutableBufferPointer { im in
                    energies.withUnsafeMutableBufferPointer { out in
                        let (px, py) = (powers.baseAddress!, powers.baseAddress! + size / 2 + 4)
                        for frame in stride(from: 0, to: frames, by: 2) {
                            let paired = frame + 1 < frames
                            let (first, second) = (frame * hop, paired ? (frame + 1) * hop : frame * hop)
                            Self.windowedFirstStages(signal, first, second, reversed: reversed, hann: hann, re, im)
                            transform(re, im)
                            Self.powers(re, im, from: lowest, to: highest, px, py)
                            for band in 0..<bands {
                                var x: Float = 0, y: Float = 0
                                for bin in binsOfBand[band] {
                                    x += px[bin]
                                    y += py[bin]
                                }
                                out[frame * bands + band] = x * 0.25
                                if paired { out[(frame + 1) * bands + band] = y * 0.25 }
                            }
                        }
                    }
                }
            }
        }
        }
        }
        }
        }
    }

    /// The power of bins `low ..< high` of both frames of one FFT, four bins at a time (the last
    /// block may run up to three bins past `high`, all below `size / 2 + 3`): `px[k]` = |2X[k]|²,
    /// `py[k]` = |2Y[k]|², each as the bin-by-bin sum (xr² + xi²) computes it. The mirrors N − k
    /// of a block are loaded together and reversed.
    private static func powers(_ re: UnsafeMutableBufferPointer<Float>, _ im: UnsafeMutableBufferPointer<Float>,
                               from low: Int, to high: Int, _ px: UnsafeMutablePointer<Float>, _ py: UnsafeMutablePointer<Float>) {
        typealias Lanes = SIMD4<Float>
        let size = re.count
        guard let re = re.baseAddress, let im = im.baseAddress else { return }
        func reversed(_ v: Lanes) -> Lanes { Lanes(v[3], v[2], v[1], v[0]) }
        var bin = low
        while bin < high {
            // Bins bin … bin + 3 and their mirrors size − bin − 3 … size − bin (in range: 1 ≤ bin, bin + 3 < size / 2 + 3).
            let (r, i) = (UnsafeRawPointer(re + bin).loadUnaligned(as: Lanes.self), UnsafeRawPointer(im + bin).loadUnaligned(as: Lanes.self))
            let mirror = size - bin - 3
            let rm = reversed(UnsafeRawPointer(re + mirror).loadUnaligned(as: Lanes.self))
            let mi = reversed(UnsafeRawPointer(im + mirror).loadUnaligned(as: Lanes.self))
            let (xr, xi, yr, yi) = (r + rm, i - mi, i + mi, rm - r)
            UnsafeMutableRawPointer(px + bin).storeBytes(of: xr * xr + xi * xi, as: Lanes.self)
            UnsafeMutableRawPointer(py + bin).storeBytes(of: yr * yr + yi * yi, as: Lanes.self)
            bin += 4
        }
    }

    /// The windowed frames at `first` (real part) and `second` (imaginary) in bit-reversed order,
    /// through the stages of spans 1 and 2 of the FFT: one radix-4 butterfly per four values (their
    /// twiddles are 1 and −i: no multiplication). The four inputs of the butterfly at `start` are
    /// the samples at reversed[start] + 0, size/2, size/4 and 3·size/4. Read and written through
    /// pointers, every index in range by construction (`bandEnergies` cuts whole frames only).
    private static func windowedFirstStages(_ signal: UnsafeBufferPointer<Float>, _ first: Int, _ second: Int,
                                            reversed: UnsafeBufferPointer<Int>, hann: UnsafeBufferPointer<Float>,
                                            _ re: UnsafeMutableBufferPointer<Float>, _ im: UnsafeMutableBufferPointer<Float>) {
        let size = re.count
        guard let base = signal.baseAddress, let from = reversed.baseAddress, let w = hann.baseAddress,
              let re = re.baseAddress, let im = im.baseAddress, first + size <= signal.count, second + size <= signal.count else { return }
        let (x, y) = (base + first, base + second)
        let (half, quarter, threeQuarters) = (size / 2, size / 4, 3 * size / 4)
        var start = 0
        while start < size {
            let (xs, ys) = (x + from[start], y + from[start])
            let (w0, w1, w2, w3) = (w[start], w[start &+ 1], w[start &+ 2], w[start &+ 3])
            let (r0, r1, r2, r3) = (xs[0] * w0, xs[half] * w1, xs[quarter] * w2, xs[threeQuarters] * w3)
            let (i0, i1, i2, i3) = (ys[0] * w0, ys[half] * w1, ys[quarter] * w2, ys[threeQuarters] * w3)
            let (ar, ai, br, bi) = (r0 + r1, i0 + i1, r0 - r1, i0 - i1)
            let (cr, ci, dr, di) = (r2 + r3, i2 + i3, r2 - r3, i2 - i3)
            (re[start], im[start], re[start &+ 2], im[start &+ 2]) = (ar + cr, ai + ci, ar - cr, ai - ci)
            // (dr + i·di) × −i = di − i·dr
            (re[start &+ 1], im[start &+ 1], re[start &+ 3], im[start &+ 3]) = (br + di, bi - dr, br - di, bi + dr)
            start &+= 4
        }
    }

    /// The stage of span 4 of `transform`, four butterflies at a time.
    private static func spanFour(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, size: Int,
                                 cos: UnsafePointer<Float>, sin: UnsafePointer<Float>) {
        let c = UnsafeRawPointer(cos + 3).loadUnaligned(as: SIMD4<Float>.self), s = UnsafeRawPointer(sin + 3).loadUnaligned(as: SIMD4<Float>.self)
        for start in Swift.stride(from: 0, to: size, by: 8) {
            let (i, j) = (start, start + 4)
            let (ri, ii) = (UnsafeRawPointer(re + i).loadUnaligned(as: SIMD4<Float>.self), UnsafeRawPointer(im + i).loadUnaligned(as: SIMD4<Float>.self))
            let (rj, ij) = (UnsafeRawPointer(re + j).loadUnaligned(as: SIMD4<Float>.self), UnsafeRawPointer(im + j).loadUnaligned(as: SIMD4<Float>.self))
            let tr = rj * c - ij * s, ti = rj * s + ij * c
            UnsafeMutableRawPointer(re + j).storeBytes(of: ri - tr, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(im + j).storeBytes(of: ii - ti, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(re + i).storeBytes(of: ri + tr, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(im + i).storeBytes(of: ii + ti, as: SIMD4<Float>.self)
        }
    }

    /// The in-place radix-2 FFT from the stage of span 4 on (`windowedFirstStages` did spans 1 and
    /// 2), from span 8 eight butterflies at a time.
    private func transform(_ real: UnsafeMutableBufferPointer<Float>, _ imaginary: UnsafeMutableBufferPointer<Float>) {
        guard let re = real.baseAddress, let im = imaginary.baseAddress else { return }
        cosines.withUnsafeBufferPointer { cosines in
            sines.withUnsafeBufferPointer { sines in
                guard let cos = cosines.baseAddress, let sin = sines.baseAddress else { return }
                Self.spanFour(re, im, size: size, cos: cos, sin: sin)
                var span = 8
                while span < size {
                    let twiddle = span - 1  // this stage's first twiddle
                    for start in Swift.stride(from: 0, to: size, by: span * 2) {
                        var k = 0
                        if span >= 8 {
                            while k < span {
                                let (i, j) = (start + k, start + k + span)
                                let c = UnsafeRawPointer(cos + twiddle + k).loadUnaligned(as: SIMD8<Float>.self)
                                let s = UnsafeRawPointer(sin + twiddle + k).loadUnaligned(as: SIMD8<Float>.self)
                                let (ri, ii) = (UnsafeRawPointer(re + i).loadUnaligned(as: SIMD8<Float>.self), UnsafeRawPointer(im + i).loadUnaligned(as: SIMD8<Float>.self))
                                let (rj, ij) = (UnsafeRawPointer(re + j).loadUnaligned(as: SIMD8<Float>.self), UnsafeRawPointer(im + j).loadUnaligned(as: SIMD8<Float>.self))
                                let tr = rj * c - ij * s, ti = rj * s + ij * c
                                UnsafeMutableRawPointer(re + j).storeBytes(of: ri - tr, as: SIMD8<Float>.self)
                                UnsafeMutableRawPointer(im + j).storeBytes(of: ii - ti, as: SIMD8<Float>.self)
                                UnsafeMutableRawPointer(re + i).storeBytes(of: ri + tr, as: SIMD8<Float>.self)
                                UnsafeMutableRawPointer(im + i).storeBytes(of: ii + ti, as: SIMD8<Float>.self)
                                k += 8
                            }
                        }
                        while k < span {
                            let (c, s) = (cos[twiddle + k], sin[twiddle + k])
                            let (i, j) = (start + k, start + k + span)
                            let tr = re[j] * c - im[j] * s, ti = re[j] * s + im[j] * c
                            (re[j], im[j]) = (re[i] - tr, im[i] - ti)
                            (re[i], im[i]) = (re[i] + tr, im[i] + ti)
                            k += 1
                        }
                    }
                    span *= 2
                }
            }
        }
    }
}

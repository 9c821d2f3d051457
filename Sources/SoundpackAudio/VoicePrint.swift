// A clip's sound in brief, measured in the probe's one decode pass: the spectral envelope of what
// is said, frame by frame, with the silence around it trimmed and the level taken out. Two files of
// one recording (a copy, re-encoded, re-levelled) have nearly the same print; two words do not.

import Foundation

/// Log band energies of a clip's sound, per 32 ms frame at a 16 ms hop, from the first frame
/// within 40 dB of the loudest to the last; the mean is subtracted, so a clip played louder or
/// softer has the same print.
package struct VoicePrint: Sendable, Equatable {
    /// Bands per frame, spaced evenly in mel from `lowHz` to `highHz` (the telephone band, which
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

    private func correlation(with other: VoicePrint) -> Double {
        let (a, b) = (frames, other.frames)
        var sumX = 0.0, sumY = 0.0, sumXX = 0.0, sumYY = 0.0, sumXY = 0.0, n = 0.0
        for frame in 0..<a {
            // The matching point in `other`, between two of its frames.
            let (low, high, weight) = Self.point(frame, of: a, in: b)
            for band in 0..<Self.bands {
                let x = Double(values[frame * Self.bands + band])
                let y = Double(other.values[low * Self.bands + band] * (1 - weight) + other.values[high * Self.bands + band] * weight)
                sumX += x; sumY += y; sumXX += x * x; sumYY += y * y; sumXY += x * y
            }
            n += Double(Self.bands)
        }
        guard n >= Double(Self.bands * 3) else { return 0 }
        let covariance = sumXY - sumX * sumY / n
        let spread = ((sumXX - sumX * sumX / n) * (sumYY - sumY * sumY / n)).squareRoot()
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
    private static let size = 256, hop = 128
    /// The rate frames are cut at: every clip's print has the same frames per second.
    private static let rate: Float = 8_000
    private let channels: Int
    /// Input samples per 8 kHz sample (1 for a clip at 8 kHz or below, whose samples are taken as they are).
    private let step: Double
    /// The last input sample consumed, and where the next 8 kHz sample falls from the next chunk's first.
    private var previous: Float = 0, next = 0.0
    private let bandOfBin: [Int]
    /// The clip at 8 kHz, mono.
    private var signal: [Float] = []

    init(channels: Int, sampleRate: Int) {
        self.channels = max(channels, 1)
        step = max(1, Double(sampleRate) / Double(Self.rate))
        bandOfBin = Self.bands(rate: Double(min(Self.rate, Float(max(sampleRate, 1)))))
    }

    /// For each FFT bin (0 ..< size/2), its band, or -1 outside them.
    private static func bands(rate: Double) -> [Int] {
        func mel(_ hz: Double) -> Double { 2_595 * log10(1 + hz / 700) }
        let high = min(VoicePrint.highHz, rate / 2 * 0.95)
        let low = mel(VoicePrint.lowHz), width = (mel(high) - low) / Double(VoicePrint.bands)
        return (0..<size / 2).map { bin in
            let hz = Double(bin) * rate / Double(size)
            guard hz >= VoicePrint.lowHz, hz < high else { return -1 }
            return min(VoicePrint.bands - 1, Int((mel(hz) - low) / width))
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
            if channels == 1, outputs > 0, frames >= 2, next >= 0, let input = chunk.baseAddress, let output = out.baseAddress?.advanced(by: written) {
                // Mono, no output between chunks: each position from the chunk's first sample in
                // Float (a chunk's few thousand samples keep it to a thousandth of a sample), none
                // depending on the one before.
                let start = Float(next), stride = Float(step)
                for n in 0..<outputs {
                    let position = start + Float(n) * stride
                    // Truncation is the floor here (positions are not negative), without a call to floorf;
                    // never past the last pair, whatever Float's rounding of the last position.
                    let index = min(Int(position), frames - 2), weight = position - Float(index)
                    let a = input[index], b = input[index + 1]
                    output[n] = a + (b - a) * weight
                }
                next += Double(outputs) * step
                return
            }
            for n in 0..<outputs {
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
        VoiceFFT.shared.bandEnergies(of: signal, frames: frames, hop: Self.hop, bandOfBin: bandOfBin, bands: bands, into: &bandEnergies)
        let totals = (0..<frames).map { frame in bandEnergies[frame * bands ..< (frame + 1) * bands].reduce(0, +) }
        guard let loudest = totals.max(), loudest > 1e-9 else { return nil }
        let heard = totals.indices.filter { totals[$0] >= loudest * 1e-4 }
        guard let first = heard.first, let last = heard.last, last - first + 1 >= 3 else { return nil }
        var values = bandEnergies[first * bands ..< (last + 1) * bands].map { log10($0 + loudest * 1e-5) }
        let mean = values.reduce(0, +) / Float(values.count)
        for index in values.indices { values[index] -= mean }
        let loud = (first...last).filter { totals[$0] >= loudest * 0.031_6 }  // within 15 dB
        return VoicePrint(values: values, voice: voice(frames: loud, totals: totals))
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
        var frame = [Float](repeating: 0, count: window)
        for index in 0..<window { frame[index] = (base[start + 2 * index] + base[start + 2 * index + 1]) / 2 }
        var normalised = [Float](repeating: 1, count: maxLag + 2)
        var running: Float = 0
        var found: Int?, deepest = (lag: 0, value: Float.infinity)
        frame.withUnsafeBufferPointer { frame in
            let raw = UnsafeRawPointer(frame.baseAddress!), lanes = width / 8
            for lag in 1...maxLag + 1 {
                // Eight lanes at a time (the sum's order differs from a plain loop's by rounding only).
                var sums = SIMD8<Float>()
                for block in 0..<lanes {
                    let a = raw.loadUnaligned(fromByteOffset: block * 32, as: SIMD8<Float>.self)
                    let b = raw.loadUnaligned(fromByteOffset: (block * 8 + lag) * 4, as: SIMD8<Float>.self)
                    let delta = a - b
                    sums += delta * delta
                }
                var difference = sums.sum()
                for index in lanes * 8 ..< min(width, window - lag) {
                    let delta = frame[index] - frame[index + lag]
                    difference += delta * delta
                }
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
        }
        if found == nil, deepest.value < 0.35 { found = deepest.lag }
        guard let lag = found else { return nil }
        // The parabola through the lag and its neighbours: the period between samples.
        let (before, at, after) = (normalised[lag - 1], normalised[lag], normalised[lag + 1])
        let curve = before - 2 * at + after
        let shift = curve > 0 ? max(-0.5, min(0.5, (before - after) / (2 * curve))) : 0
        return Double(rate) / (Double(lag) + Double(shift))
    }
}

/// A 256-point FFT with its tables computed once.
final class VoiceFFT: Sendable {
    static let shared = VoiceFFT(size: 256)
    private let size: Int
    /// The twiddles of every stage, one after another: for the stage of span `s` (1, 2, 4 … size/2),
    /// the `s` values e^(−iπk/s), k = 0 ..< s, starting at index `s − 1`; contiguous, so a stage's
    /// butterflies run eight at a time.
    private let cosines: [Float], sines: [Float], hann: [Float], reversed: [Int]

    init(size: Int) {
        self.size = size
        let spans = (0..<size.trailingZeroBitCount).map { 1 << $0 }
        cosines = spans.flatMap { span in (0..<span).map { Float(cos(-Double.pi * Double($0) / Double(span))) } }
        sines = spans.flatMap { span in (0..<span).map { Float(sin(-Double.pi * Double($0) / Double(span))) } }
        hann = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        let bits = size.trailingZeroBitCount
        reversed = (0..<size).map { index in (0..<bits).reduce(0) { $0 << 1 | (index >> $1 & 1) } }
    }

    /// Each frame's power summed per band: frame `f` is the `size` samples from `f × hop`, windowed.
    /// Two frames go through one complex FFT (one as the real part, the next as the imaginary) and
    /// are told apart by the spectrum's symmetry: X[k] = (Z[k] + Z*[N−k]) / 2, Y[k] = (Z[k] − Z*[N−k]) / 2i.
    func bandEnergies(of signal: [Float], frames: Int, hop: Int, bandOfBin: [Int], bands: Int, into energies: inout [Float]) {
        let size = self.size
        var real = [Float](repeating: 0, count: size), imaginary = [Float](repeating: 0, count: size)
        let tables = (reversed: self.reversed, hann: self.hann, bandOfBin: bandOfBin)
        // Unchecked views of the tables: every index below is in range by construction.
        tables.reversed.withUnsafeBufferPointer { reversed in
        tables.hann.withUnsafeBufferPointer { hann in
        tables.bandOfBin.withUnsafeBufferPointer { bandOfBin in
        signal.withUnsafeBufferPointer { signal in
            real.withUnsafeMutableBufferPointer { re in
                imaginary.withUnsafeMutableBufferPointer { im in
                    energies.withUnsafeMutableBufferPointer { out in
                        for frame in stride(from: 0, to: frames, by: 2) {
                            let (first, second) = (frame * hop, frame + 1 < frames ? (frame + 1) * hop : -1)
                            for index in 0..<size {
                                re[reversed[index]] = signal[first + index] * hann[index]
                                im[reversed[index]] = second < 0 ? 0 : signal[second + index] * hann[index]
                            }
                            transform(re, im)
                            for bin in 0..<size / 2 where bandOfBin[bin] >= 0 {
                                let mirror = (size - bin) % size
                                let (xr, xi) = ((re[bin] + re[mirror]) / 2, (im[bin] - im[mirror]) / 2)
                                out[frame * bands + bandOfBin[bin]] += xr * xr + xi * xi
                                if second >= 0 {
                                    let (yr, yi) = ((im[bin] + im[mirror]) / 2, (re[mirror] - re[bin]) / 2)
                                    out[(frame + 1) * bands + bandOfBin[bin]] += yr * yr + yi * yi
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

    /// The stages of spans 1, 2 and 4 of `transform`: spans 1 and 2 as one radix-4 butterfly per
    /// four values (their twiddles are 1 and −i: no multiplication), span 4 four butterflies at a time.
    private static func firstStages(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, size: Int,
                                    cos: UnsafePointer<Float>, sin: UnsafePointer<Float>) {
        for start in Swift.stride(from: 0, to: size, by: 4) {
            let (r0, r1, r2, r3) = (re[start], re[start + 1], re[start + 2], re[start + 3])
            let (i0, i1, i2, i3) = (im[start], im[start + 1], im[start + 2], im[start + 3])
            let (ar, ai, br, bi) = (r0 + r1, i0 + i1, r0 - r1, i0 - i1)
            let (cr, ci, dr, di) = (r2 + r3, i2 + i3, r2 - r3, i2 - i3)
            (re[start], im[start], re[start + 2], im[start + 2]) = (ar + cr, ai + ci, ar - cr, ai - ci)
            // (dr + i·di) × −i = di − i·dr
            (re[start + 1], im[start + 1], re[start + 3], im[start + 3]) = (br + di, bi - dr, br - di, bi + dr)
        }
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

    /// The in-place radix-2 FFT of bit-reversed input; spans 1 to 4 by `firstStages`, from span 8 on
    /// eight butterflies at a time.
    private func transform(_ real: UnsafeMutableBufferPointer<Float>, _ imaginary: UnsafeMutableBufferPointer<Float>) {
        guard let re = real.baseAddress, let im = imaginary.baseAddress else { return }
        cosines.withUnsafeBufferPointer { cosines in
            sines.withUnsafeBufferPointer { sines in
                guard let cos = cosines.baseAddress, let sin = sines.baseAddress else { return }
                Self.firstStages(re, im, size: size, cos: cos, sin: sin)
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

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

/// Builds a clip's `VoicePrint` chunk by chunk: mono, averaged down to 8 kHz, 256-sample
/// Hann-windowed frames at a 128-sample hop, each one FFT.
struct VoicePrintMeter {
    private static let size = 256, hop = 128
    /// The rate frames are cut at: every clip's print has the same frames per second.
    private static let rate = 8_000.0
    private let channels: Int
    /// Input samples per 8 kHz sample (1 for a clip at 8 kHz or below, whose samples are taken as they are).
    private let step: Double
    /// The last filtered input sample, and where the next 8 kHz sample falls after it (in input samples).
    private var previous = 0.0, due = 0.0
    /// A 4th-order Butterworth low-pass at 3.8 kHz before the rate is divided down, so what lies
    /// above it does not fold into the bands (a copy resampled elsewhere keeps its print); none at 8 kHz.
    private var lowPass: [Biquad]
    private var window: [Float] = []
    private var bandEnergies: [Float] = []
    private var bandOfBin: [Int]

    init(channels: Int, sampleRate: Int) {
        self.channels = max(channels, 1)
        step = max(1, Double(sampleRate) / Self.rate)
        bandOfBin = Self.bands(rate: min(Self.rate, Double(max(sampleRate, 1))))
        lowPass = sampleRate > Int(Self.rate) ? [0.541_196, 1.306_563].map { Biquad(lowPassAt: VoicePrint.highHz, q: $0, sampleRate: Double(sampleRate)) } : []
        window.reserveCapacity(Self.size)
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

    mutating func consume(_ chunk: UnsafeBufferPointer<Float>) {
        var index = 0
        while index + channels <= chunk.count {
            var sum: Float = 0
            for channel in 0..<channels { sum += chunk[index + channel] }
            index += channels
            // Averaged down to 8 kHz: each output sample is the mean of the input samples since the last.
            var sample = Double(sum) / Double(channels)
            for stage in lowPass.indices { sample = lowPass[stage].filter(sample) }
            // Resampled to 8 kHz by linear interpolation between input samples (the band is below 4 kHz).
            due -= 1
            defer { previous = sample }
            guard due <= 0 else { continue }
            let weight = 1 + due  // where the output falls between `previous` (0) and `sample` (1)
            window.append(Float(previous + (sample - previous) * weight))
            due += step
            if window.count == Self.size {
                bandEnergies += VoiceFFT.shared.bandEnergies(window, bandOfBin: bandOfBin, bands: VoicePrint.bands)
                window.removeFirst(Self.hop)
            }
        }
    }

    /// The print of what was consumed; nil when nothing rises 40 dB above the rest, or fewer than
    /// three frames do (too short or silent to tell).
    func finish() -> VoicePrint? {
        let bands = VoicePrint.bands, frames = bandEnergies.count / bands
        guard frames >= 3 else { return nil }
        let totals = (0..<frames).map { frame in bandEnergies[frame * bands ..< (frame + 1) * bands].reduce(0, +) }
        guard let loudest = totals.max(), loudest > 1e-9 else { return nil }
        let heard = totals.indices.filter { totals[$0] >= loudest * 1e-4 }
        guard let first = heard.first, let last = heard.last, last - first + 1 >= 3 else { return nil }
        var values = bandEnergies[first * bands ..< (last + 1) * bands].map { log10($0 + loudest * 1e-5) }
        let mean = values.reduce(0, +) / Float(values.count)
        for index in values.indices { values[index] -= mean }
        return VoicePrint(values: values)
    }
}

/// One second-order section (RBJ's cookbook low-pass), direct form I.
struct Biquad {
    private let b0, b1, b2, a1, a2: Double
    private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

    init(lowPassAt frequency: Double, q: Double, sampleRate: Double) {
        let w = 2 * Double.pi * frequency / sampleRate, alpha = sin(w) / (2 * q), a0 = 1 + alpha
        b1 = (1 - cos(w)) / a0
        b0 = b1 / 2
        b2 = b0
        a1 = -2 * cos(w) / a0
        a2 = (1 - alpha) / a0
    }

    mutating func filter(_ x: Double) -> Double {
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        (x2, x1, y2, y1) = (x1, x, y1, y)
        return y
    }
}

/// A 256-point FFT with its tables computed once.
final class VoiceFFT: Sendable {
    static let shared = VoiceFFT(size: 256)
    private let size: Int
    private let cosines: [Float], sines: [Float], hann: [Float], reversed: [Int]

    init(size: Int) {
        self.size = size
        cosines = (0..<size / 2).map { Float(cos(-2 * Double.pi * Double($0) / Double(size))) }
        sines = (0..<size / 2).map { Float(sin(-2 * Double.pi * Double($0) / Double(size))) }
        hann = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        let bits = size.trailingZeroBitCount
        reversed = (0..<size).map { index in (0..<bits).reduce(0) { $0 << 1 | (index >> $1 & 1) } }
    }

    /// The windowed frame's power summed per band.
    func bandEnergies(_ frame: [Float], bandOfBin: [Int], bands: Int) -> [Float] {
        var real = [Float](repeating: 0, count: size), imaginary = [Float](repeating: 0, count: size)
        for index in 0..<size { real[reversed[index]] = frame[index] * hann[index] }
        var span = 1
        while span < size {
            let stride = size / (span * 2)
            for start in Swift.stride(from: 0, to: size, by: span * 2) {
                for k in 0..<span {
                    let (c, s) = (cosines[k * stride], sines[k * stride])
                    let (i, j) = (start + k, start + k + span)
                    let tr = real[j] * c - imaginary[j] * s, ti = real[j] * s + imaginary[j] * c
                    (real[j], imaginary[j]) = (real[i] - tr, imaginary[i] - ti)
                    (real[i], imaginary[i]) = (real[i] + tr, imaginary[i] + ti)
                }
            }
            span *= 2
        }
        var energies = [Float](repeating: 0, count: bands)
        for bin in 0..<size / 2 where bandOfBin[bin] >= 0 { energies[bandOfBin[bin]] += real[bin] * real[bin] + imaginary[bin] * imaginary[bin] }
        return energies
    }
}

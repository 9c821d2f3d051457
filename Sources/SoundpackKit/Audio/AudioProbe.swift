// Opens a clip under hard caps, decodes it in fixed-size chunks and measures it in one pass.

import Foundation
import SoundpackCore

/// Everything the validator knows about one clip file.
public struct ClipFacts: Sendable, Equatable, Codable {
    public var container: Container
    public var codec: Codec
    public var bitsPerSample: Int?
    public var sampleRate: Int
    public var channels: Int
    /// Frames actually decoded.
    public var frames: Int64
    public var durationSeconds: Double
    public var bytes: Int
    public var sha256: String
    /// Highest absolute sample in dBFS; nil for digital silence.
    public var peakDbfs: Double?
    /// Highest inter-sample (4× oversampled) peak in dBTP; nil for digital silence.
    public var truePeakDbtp: Double?
    /// Highest momentary (400 ms) loudness in LUFS; nil when no window rises above the gate.
    public var momentaryMaxLufs: Double?
    public var leadingSilenceMs: Double
    public var trailingSilenceMs: Double
    /// The largest per-channel mean, as a percentage of full scale (signed).
    public var dcOffsetPercent: Double
    /// Runs of consecutive full-scale samples at least `clippingRunSamples` long.
    public var clippedRuns: Int
    /// No sample rises above the silence threshold.
    public var silent: Bool
    /// Samples that are NaN, infinite or beyond the float headroom; nil when there are none.
    /// They are measured as silence, so every other figure stays a finite number.
    public var nonFinite: NonFiniteSamples?

    /// The format clips of one pack must share.
    public var format: ClipFormat { ClipFormat(sampleRate: sampleRate, channels: channels, codec: codec) }
}

/// A clip's samples in memory: interleaved floats in [-1, 1].
public struct DecodedAudio: Sendable {
    public var format: AudioFormat
    public var frames: Int
    public var samples: [Float]
    /// Samples that were NaN, infinite or beyond the float headroom (handed on as 0); nil when none.
    public var nonFinite: NonFiniteSamples?

    public init(format: AudioFormat, frames: Int, samples: [Float], nonFinite: NonFiniteSamples? = nil) {
        self.format = format
        self.frames = frames
        self.samples = samples
        self.nonFinite = nonFinite
    }

    public var sampleRate: Int { format.sampleRate }
    public var channels: Int { format.channels }
}

/// Decodes clips safely and measures them.
public struct AudioProbe: Sendable {
    public var limits: AudioLimits
    /// Samples at or below this level (dBFS) count as silence.
    public var silenceThresholdDbfs: Double
    /// This many consecutive full-scale samples make one clipped run.
    public var clippingRunSamples: Int

    public init(limits: AudioLimits = AudioLimits(), silenceThresholdDbfs: Double = -50, clippingRunSamples: Int = 3) {
        self.limits = limits
        self.silenceThresholdDbfs = silenceThresholdDbfs
        self.clippingRunSamples = clippingRunSamples
    }

    /// Reads, hashes, decodes and measures the file at `path`. Every failure is an ``AudioError``
    /// that says why the file cannot be used; nothing here traps on hostile input.
    public func probe(path: String) throws(AudioError) -> ClipFacts {
        try probe(bytes: try Self.readCapped(path: path, cap: limits.maxFileBytes))
    }

    /// Decodes and measures a clip's bytes (the whole file, already read under the cap).
    public func probe(bytes: [UInt8]) throws(AudioError) -> ClipFacts {
        guard bytes.count <= limits.maxFileBytes else {
            throw AudioError("\(bytes.count) bytes is above the \(limits.maxFileBytes / 1_048_576) MiB cap for a clip")
        }
        let decoder = try open(bytes: bytes)
        let format = decoder.format
        var meter = LevelMeter(threshold: Float(pow(10, silenceThresholdDbfs / 20)), channels: format.channels,
                               clippingRun: clippingRunSamples)
        let loudness = try LoudnessMeter(channels: format.channels, sampleRate: format.sampleRate)
        var peakMeter = TruePeakMeter(channels: format.channels)
        var nonFinite: NonFiniteSamples?
        let frames = try stream(decoder, nonFinite: &nonFinite) { chunk, chunkPeak in
            meter.consume(chunk, peak: chunkPeak)
            loudness.add(chunk)
            peakMeter.add(chunk, samplePeak: chunkPeak)
        }
        loudness.finish()
        peakMeter.finish()
        let truePeak = Double(peakMeter.peak)
        let rate = Double(format.sampleRate)
        let silence = meter.silence(totalFrames: frames)
        return ClipFacts(
            container: format.container, codec: format.codec, bitsPerSample: format.bitsPerSample,
            sampleRate: format.sampleRate, channels: format.channels, frames: frames,
            durationSeconds: Double(frames) / rate, bytes: bytes.count, sha256: Digest.sha256Hex(bytes),
            peakDbfs: meter.peak > 0 ? Self.rounded(20 * log10(Double(meter.peak))) : nil,
            truePeakDbtp: truePeak > 0 ? Self.rounded(20 * log10(truePeak)) : nil,
            momentaryMaxLufs: loudness.momentaryMax.isFinite ? Self.rounded(loudness.momentaryMax) : nil,
            leadingSilenceMs: Self.rounded(Double(silence.leading) * 1000 / rate),
            trailingSilenceMs: Self.rounded(Double(silence.trailing) * 1000 / rate),
            dcOffsetPercent: Self.rounded(meter.dcOffset(totalFrames: frames) * 100),
            clippedRuns: meter.clippedRuns,
            silent: meter.firstAudible == nil,
            nonFinite: nonFinite)
    }

    /// Decodes the whole file at `path` into memory, under the same caps as `probe`.
    public func decode(path: String) throws(AudioError) -> DecodedAudio {
        let bytes = try Self.readCapped(path: path, cap: limits.maxFileBytes)
        let decoder = try open(bytes: bytes)
        var samples: [Float] = []
        samples.reserveCapacity(Int(clamping: decoder.format.frames) * decoder.format.channels)
        var nonFinite: NonFiniteSamples?
        let frames = try stream(decoder, nonFinite: &nonFinite) { chunk, _ in samples.append(contentsOf: chunk) }
        return DecodedAudio(format: decoder.format, frames: Int(frames), samples: samples, nonFinite: nonFinite)
    }

    /// Levels and times are reported to 0.01 dB or ms; more digits only add noise to reports.
    static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    /// Opens decoded audio from a file's bytes, checking the caps the header declares.
    func open(bytes: [UInt8]) throws(AudioError) -> AudioDecoder {
        guard !bytes.isEmpty else { throw AudioError("empty file (0 bytes)") }
        guard let container = ContainerSniffer.container(of: bytes) else {
            throw AudioError("not an audio file: no WAV, AIFF, CAF, FLAC, Ogg or MP3 signature in its first bytes")
        }
        try ContainerSniffer.checkComplete(bytes, container: container)
        let decoder: AudioDecoder
        if container == .caf, case let caf = try CAFFile(bytes), caf.formatID == "ima4" {
            decoder = try IMA4Decoder(bytes: bytes, caf: caf)
        } else {
            decoder = try SndFileDecoder(bytes: bytes, container: container)
        }
        let format = decoder.format
        guard limits.channels.contains(format.channels) else {
            throw AudioError("\(format.channels) channels; clips must have \(limits.channels.lowerBound) or \(limits.channels.upperBound)")
        }
        guard limits.sampleRates.contains(format.sampleRate) else {
            throw AudioError("sample rate \(format.sampleRate) Hz is outside \(limits.sampleRates.lowerBound)–\(limits.sampleRates.upperBound) Hz")
        }
        guard format.frames < limits.maxFrames(sampleRate: format.sampleRate) else {
            throw AudioError("declares \(format.frames) frames (\(format.frames / Int64(format.sampleRate)) s); clips must hold under \(limits.maxSeconds) s")
        }
        return decoder
    }

    /// Feeds every decoded chunk to `body`; returns the frame count. Stops at the frame cap even
    /// when the header lied about the length. Samples that are NaN, infinite or beyond the float
    /// headroom are counted in `nonFinite` and handed on as 0, so no meter sees them. `body` gets
    /// each chunk and its largest |sample|.
    func stream(_ decoder: AudioDecoder, nonFinite: inout NonFiniteSamples?,
                _ body: (UnsafeBufferPointer<Float>, Float) -> Void) throws(AudioError) -> Int64 {
        let format = decoder.format
        let channels = format.channels
        let cap = limits.maxFrames(sampleRate: format.sampleRate)
        let limit = limits.maxSampleMagnitude
        var buffer = [Float](repeating: 0, count: limits.chunkFrames * channels)
        var total: Int64 = 0
        while true {
            let frames = try buffer.withUnsafeMutableBufferPointer { (pointer) throws(AudioError) -> Int in
                try decoder.read(into: pointer)
            }
            if frames == 0 { break }
            guard frames > 0, frames <= limits.chunkFrames else {
                throw AudioError("the decoder returned \(frames) frames for a read of \(limits.chunkFrames)")
            }
            let chunkPeak = buffer.withUnsafeMutableBufferPointer { samples -> Float in
                let chunk = UnsafeBufferPointer(rebasing: samples[0..<(frames * channels)])
                // One vectorised pass finds the usual chunk clean; only a chunk that is not is
                // walked sample by sample.
                if let largest = SampleScan.largestMagnitudeIfFinite(chunk), largest <= limit { return largest }
                for index in 0..<(frames * channels) where !(abs(samples[index]) <= limit) {  // NaN fails every comparison
                    samples[index] = 0
                    if nonFinite == nil { nonFinite = NonFiniteSamples(count: 0, firstFrame: total + Int64(index / channels)) }
                    nonFinite?.count += 1
                }
                return SampleScan.largestMagnitude(chunk)
            }
            total += Int64(frames)
            guard total < cap else {
                throw AudioError("holds more than \(limits.maxSeconds) s of audio (the header declared \(format.frames) frames)")
            }
            buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<(frames * channels)]), chunkPeak) }
        }
        return total
    }

    /// The whole file, refused before reading when it is not a regular file or exceeds `cap`.
    static func readCapped(path: String, cap: Int) throws(AudioError) -> [UInt8] {
        do { return try CappedFile.read(path, cap: cap, what: "a clip") } catch { throw AudioError(error.message) }
    }
}

/// Peak level, where sound starts and ends, DC offset and clipped runs, accumulated chunk by chunk.
struct LevelMeter {
    /// A sample at or above this magnitude is at full scale (32767/32768 for 16-bit audio).
    static let fullScale: Float = 32_767 / 32_768

    let threshold: Float
    let channels: Int
    let clippingRun: Int
    private(set) var peak: Float = 0
    private(set) var firstAudible: Int64?
    private(set) var lastAudible: Int64?
    private(set) var clippedRuns = 0
    private var frameOffset: Int64 = 0
    private var sums: [Double]
    private var runLengths: [Int]

    init(threshold: Float, channels: Int, clippingRun: Int = 3) {
        self.threshold = threshold
        self.channels = max(channels, 1)
        self.clippingRun = max(clippingRun, 1)
        sums = Array(repeating: 0, count: max(channels, 1))
        runLengths = Array(repeating: 0, count: max(channels, 1))
    }

    /// Adds a chunk of interleaved samples; `peak`, when the caller measured it, is the chunk's
    /// largest |sample| (saves a pass over it).
    mutating func consume(_ samples: UnsafeBufferPointer<Float>, peak knownPeak: Float? = nil) {
        let frames = samples.count / channels
        guard frames > 0 else { return }
        // Peak and per-channel sums in vectorised passes; the rest only where it can matter.
        let chunkPeak = knownPeak ?? SampleScan.largestMagnitude(samples)
        peak = max(peak, chunkPeak)
        if channels == 1 {
            sums[0] += SampleScan.sum(samples)
        } else {
            sumChannels(samples, frames: frames)
        }
        if chunkPeak > threshold {
            func audible(_ frame: Int) -> Bool { (0..<channels).contains { abs(samples[frame * channels + $0]) > threshold } }
            if firstAudible == nil, let first = (0..<frames).first(where: audible) { firstAudible = frameOffset + Int64(first) }
            if let last = (0..<frames).last(where: audible) { lastAudible = frameOffset + Int64(last) }
        }
        if chunkPeak >= Self.fullScale {
            for frame in 0..<frames {
                for channel in 0..<channels {
                    if abs(samples[frame * channels + channel]) >= Self.fullScale {
                        runLengths[channel] += 1
                        if runLengths[channel] == clippingRun { clippedRuns += 1 }
                    } else {
                        runLengths[channel] = 0
                    }
                }
            }
        } else {
            for channel in 0..<channels { runLengths[channel] = 0 }
        }
        frameOffset += Int64(frames)
    }

    private mutating func sumChannels(_ samples: UnsafeBufferPointer<Float>, frames: Int) {
        for channel in 0..<channels {
            var sum: Double = 0
            var frame = 0
            while frame < frames {
                let end = min(frame + 1_024, frames)
                var partial: Float = 0
                for f in frame..<end { partial += samples[f * channels + channel] }
                sum += Double(partial)
                frame = end
            }
            sums[channel] += sum
        }
    }

    /// Frames of silence before the first and after the last audible frame.
    func silence(totalFrames: Int64) -> (leading: Int64, trailing: Int64) {
        guard let first = firstAudible, let last = lastAudible else { return (totalFrames, totalFrames) }
        return (first, totalFrames - 1 - last)
    }

    /// The per-channel mean with the largest magnitude, as a fraction of full scale.
    func dcOffset(totalFrames: Int64) -> Double {
        guard totalFrames > 0 else { return 0 }
        return sums.map { $0 / Double(totalFrames) }.max { abs($0) < abs($1) } ?? 0
    }
}

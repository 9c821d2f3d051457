// Opens a clip under hard caps, decodes it in fixed-size chunks and measures it in one pass.

import Foundation
import SoundpackCore
import SoundpackSupport

/// Everything the validator knows about one clip file.
public struct ClipFacts: Sendable, Equatable, Codable {
    /// The file format the bytes are (CAF, WAV, AIFF, MP3…), whatever the extension says.
    public var container: Container
    /// How the samples are encoded inside the container.
    public var codec: Codec
    package var bitsPerSample: Int?
    /// Frames per second.
    public var sampleRate: Int
    /// 1 for mono, 2 for stereo.
    public var channels: Int
    /// Frames actually decoded.
    public var frames: Int64
    /// `frames` at `sampleRate`, in seconds.
    public var durationSeconds: Double
    /// The size of the file in bytes.
    public var bytes: Int
    /// The SHA-256 of the file's bytes, lowercase hex.
    public var sha256: String
    /// Highest absolute sample in dBFS; nil for digital silence.
    package var peakDbfs: Double?
    /// Highest inter-sample (4× oversampled) peak in dBTP; nil for digital silence.
    public var truePeakDbtp: Double?
    /// Highest momentary (400 ms) loudness in LUFS; nil when no window rises above the gate.
    public var momentaryMaxLufs: Double?
    package var leadingSilenceMs: Double
    package var trailingSilenceMs: Double
    /// The largest per-channel mean, as a percentage of full scale (signed).
    package var dcOffsetPercent: Double
    /// Runs of consecutive full-scale samples at least `clippingRunSamples` long.
    package var clippedRuns: Int
    /// No sample rises above the silence threshold.
    package var silent: Bool
    /// Samples that are NaN, infinite or beyond the float headroom; nil when there are none.
    /// They are measured as silence, so every other figure stays a finite number.
    package var nonFinite: NonFiniteSamples?
    /// The clip's sound in brief (`VoicePrint`), from the same decode; nil when too short or silent
    /// to tell, and for facts the catalog recorded (it keeps no prints). Not encoded.
    package var print: VoicePrint? = nil
    /// The clip as a recogniser hears it (mono, 16 kHz, 16-bit), from the same decode; kept only
    /// when the probe was asked to (`AudioProbe.keepsSpeech`). Not encoded.
    package var speech: [Int16]? = nil

    private enum CodingKeys: String, CodingKey {
        case container, codec, bitsPerSample, sampleRate, channels, frames, durationSeconds, bytes, sha256, peakDbfs, truePeakDbtp,
             momentaryMaxLufs, leadingSilenceMs, trailingSilenceMs, dcOffsetPercent, clippedRuns, silent, nonFinite
    }

    /// Equal when every measured figure is: the print is left out, as the catalog keeps none.
    public static func == (lhs: ClipFacts, rhs: ClipFacts) -> Bool {
        lhs.container == rhs.container && lhs.codec == rhs.codec && lhs.bitsPerSample == rhs.bitsPerSample && lhs.sampleRate == rhs.sampleRate
            && lhs.channels == rhs.channels && lhs.frames == rhs.frames && lhs.durationSeconds == rhs.durationSeconds && lhs.bytes == rhs.bytes
            && lhs.sha256 == rhs.sha256 && lhs.peakDbfs == rhs.peakDbfs && lhs.truePeakDbtp == rhs.truePeakDbtp && lhs.momentaryMaxLufs == rhs.momentaryMaxLufs
            && lhs.leadingSilenceMs == rhs.leadingSilenceMs && lhs.trailingSilenceMs == rhs.trailingSilenceMs && lhs.dcOffsetPercent == rhs.dcOffsetPercent
            && lhs.clippedRuns == rhs.clippedRuns && lhs.silent == rhs.silent && lhs.nonFinite == rhs.nonFinite
    }

    /// The format clips of one pack must share.
    public var format: ClipFormat { ClipFormat(sampleRate: sampleRate, channels: channels, codec: codec) }

    /// The facts of a clip, as the probe measures them or the catalog recorded them.
    package init(container: Container, codec: Codec, bitsPerSample: Int?, sampleRate: Int, channels: Int, frames: Int64, durationSeconds: Double,
                 bytes: Int, sha256: String, peakDbfs: Double?, truePeakDbtp: Double?, momentaryMaxLufs: Double?, leadingSilenceMs: Double,
                 trailingSilenceMs: Double, dcOffsetPercent: Double, clippedRuns: Int, silent: Bool, nonFinite: NonFiniteSamples?) {
        (self.container, self.codec, self.bitsPerSample, self.sampleRate, self.channels) = (container, codec, bitsPerSample, sampleRate, channels)
        (self.frames, self.durationSeconds, self.bytes, self.sha256) = (frames, durationSeconds, bytes, sha256)
        (self.peakDbfs, self.truePeakDbtp, self.momentaryMaxLufs) = (peakDbfs, truePeakDbtp, momentaryMaxLufs)
        (self.leadingSilenceMs, self.trailingSilenceMs, self.dcOffsetPercent, self.clippedRuns) = (leadingSilenceMs, trailingSilenceMs, dcOffsetPercent, clippedRuns)
        (self.silent, self.nonFinite) = (silent, nonFinite)
    }
}

/// A clip's samples in memory: interleaved floats in [-1, 1].
package struct DecodedAudio: Sendable {
    package var format: AudioFormat
    package var frames: Int
    package var samples: [Float]
    /// Samples that were NaN, infinite or beyond the float headroom (handed on as 0); nil when none.
    package var nonFinite: NonFiniteSamples?

    package init(format: AudioFormat, frames: Int, samples: [Float], nonFinite: NonFiniteSamples? = nil) {
        self.format = format
        self.frames = frames
        self.samples = samples
        self.nonFinite = nonFinite
    }

    package var sampleRate: Int { format.sampleRate }
    package var channels: Int { format.channels }
}

/// Decodes clips safely and measures them.
package struct AudioProbe: Sendable {
    package var limits: AudioLimits
    /// Decode AAC/ALAC in MP4 through FFmpeg (`convert`). Otherwise an MP4 clip is refused unread
    /// as a format iOS does not play (`AudioError.Kind.unsupportedFormat`): validation gives the
    /// same findings whether FFmpeg is installed or not, and never feeds it a pack's files.
    package var decodesMP4 = false
    /// Keep each clip's samples for a recogniser (`ClipFacts.speech`): for packs whose words can be checked.
    package var keepsSpeech = false
    /// Samples at or below this level (dBFS) count as silence.
    package var silenceThresholdDbfs: Double
    /// This many consecutive full-scale samples make one clipped run.
    package var clippingRunSamples: Int

    package init(limits: AudioLimits = AudioLimits(), silenceThresholdDbfs: Double = -50, clippingRunSamples: Int = 3) {
        self.limits = limits
        self.silenceThresholdDbfs = silenceThresholdDbfs
        self.clippingRunSamples = clippingRunSamples
    }

    /// Reads, hashes, decodes and measures the file at `path`. Every failure is an ``AudioError``
    /// that says why the file cannot be used; nothing here traps on hostile input.
    package func probe(path: String) throws(AudioError) -> ClipFacts {
        try probe(bytes: try Self.readCapped(path: path, cap: limits.maxFileBytes))
    }

    /// Decodes and measures a clip's bytes (the whole file, already read under the cap).
    package func probe(bytes: [UInt8]) throws(AudioError) -> ClipFacts {
        try measure(try reader(bytes: bytes), bytes: bytes)
    }

    /// Probes clips, each with its own probe's settings: the same facts as `probe(bytes:)` for
    /// each. Up to `KWeightedLanes.width` mono clips at the first one's sample rate are measured
    /// side by side (`KWeightedLanes`), which takes about the time of one; anything else is
    /// measured alone, and when a clip's decoding fails midway the others beside it are probed
    /// again alone.
    package static func probe(together clips: [(probe: AudioProbe, bytes: [UInt8])]) -> [Result<ClipFacts, AudioError>] {
        let opened = clips.map { clip in Result { () throws(AudioError) in try clip.probe.reader(bytes: clip.bytes) } }
        var results = [Result<ClipFacts, AudioError>?](repeating: nil, count: clips.count)
        // The clips that share lanes, and their readers.
        var shared: [(clip: Int, reader: ChunkReader)] = []
        for case (let n, .success(let reader)) in opened.enumerated() where shared.count < KWeightedLanes.width {
            let format = reader.format
            if format.channels == 1, format.sampleRate % 10 == 0, shared.first.map({ $0.reader.format.sampleRate == format.sampleRate }) ?? true {
                shared.append((n, reader))
            }
        }
        if shared.count > 1 {
            var meters = shared.map { ClipMeters(clips[$0.clip].probe, channels: 1, sampleRate: $0.reader.format.sampleRate, frames: $0.reader.format.frames) }
            var loudness = KWeightedLanes(clips: shared.count, sampleRate: shared[0].reader.format.sampleRate)
            var failed = -1
            do throws(AudioError) {
                try loudness.measure { (lane: Int) throws(AudioError) -> UnsafeBufferPointer<Float>? in
                    failed = lane
                    guard let (chunk, peak, sum) = try shared[lane].reader.nextWithSum() else { return nil }
                    failed = -1
                    meters[lane].consume(chunk, peak: peak, sum: sum)
                    return chunk
                }
                let loudest = loudness.momentaryMax
                for (lane, (n, reader)) in shared.enumerated() {
                    results[n] = .success(meters[lane].facts(reader, bytes: clips[n].bytes, momentaryMax: loudest[lane]))
                }
            } catch {
                for (lane, (n, _)) in shared.enumerated() {
                    results[n] = lane == failed ? .failure(error) : Result { () throws(AudioError) in try clips[n].probe.probe(bytes: clips[n].bytes) }
                }
            }
        }
        return zip(clips, zip(opened, results)).map { clip, outcome in
            outcome.1 ?? outcome.0.flatMap { reader in Result { () throws(AudioError) in try clip.probe.measure(reader, bytes: clip.bytes) } }
        }
    }

    /// A reader of a clip's bytes, refused over the size cap or when `open` refuses them.
    private func reader(bytes: [UInt8]) throws(AudioError) -> ChunkReader {
        guard bytes.count <= limits.maxFileBytes else {
            throw AudioError("\(bytes.count) bytes is above the \(limits.maxFileBytes / 1_048_576) MiB cap for a clip")
        }
        return ChunkReader(try open(bytes: bytes), limits: limits)
    }

    /// Reads `reader` to its end through every meter of one clip.
    private func measure(_ reader: ChunkReader, bytes: [UInt8]) throws(AudioError) -> ClipFacts {
        var meters = ClipMeters(self, channels: reader.format.channels, sampleRate: reader.format.sampleRate, frames: reader.format.frames)
        let loudness = try LoudnessMeter(channels: reader.format.channels, sampleRate: reader.format.sampleRate)
        while let (chunk, peak, sum) = try reader.nextWithSum() {
            meters.consume(chunk, peak: peak, sum: sum)
            loudness.add(chunk)
        }
        loudness.finish()
        return meters.facts(reader, bytes: bytes, momentaryMax: loudness.momentaryMax)
    }

    /// Decodes the whole file at `path` into memory, under the same caps as `probe`.
    package func decode(path: String) throws(AudioError) -> DecodedAudio {
        let bytes = try Self.readCapped(path: path, cap: limits.maxFileBytes)
        let reader = ChunkReader(try open(bytes: bytes), limits: limits)
        var samples: [Float] = []
        samples.reserveCapacity(Int(clamping: reader.format.frames) * reader.format.channels)
        while let (chunk, _) = try reader.next() { samples.append(contentsOf: chunk) }
        return DecodedAudio(format: reader.format, frames: Int(reader.frames), samples: samples, nonFinite: reader.nonFinite)
    }

    /// Levels and times are reported to 0.01 dB or ms; more digits only add noise to reports.
    static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    /// Opens decoded audio from a file's bytes, checking the caps the header declares.
    func open(bytes: [UInt8]) throws(AudioError) -> AudioDecoder {
        guard !bytes.isEmpty else { throw AudioError("empty file (0 bytes)") }
        guard let container = ContainerSniffer.container(of: bytes) else {
            throw AudioError("not an audio file: no WAV, AIFF, CAF, FLAC, Ogg, MP3 or MP4 signature in its first bytes")
        }
        try ContainerSniffer.checkComplete(bytes, container: container)
        let decoder: AudioDecoder
        if container == .mp4 {
            guard decodesMP4 else {
                let held = ContainerSniffer.mp4Audio(of: bytes)
                throw AudioError("\(held): iOS does not play it as a notification sound; convert it (soundpack convert)",
                                 kind: .unsupportedFormat(held))
            }
            decoder = try MP4Decoder(bytes: bytes, limits: limits)
        } else if container == .caf {
            // Our own decoders for ima4 (which libsndfile refuses) and plain samples (faster).
            let caf = try CAFFile(bytes)
            if caf.formatID == "ima4" {
                decoder = try IMA4Decoder(bytes: bytes, caf: caf)
            } else if let plain = PlainDecoder.caf(bytes, caf) {
                decoder = plain
            } else {
                decoder = try SndFileDecoder(bytes: bytes, container: container)
            }
        } else if container == .wav, let plain = PlainDecoder.wav(bytes) {
            decoder = plain
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

    /// The whole file, refused before reading when it is not a regular file or exceeds `cap`.
    package static func readCapped(path: String, cap: Int) throws(AudioError) -> [UInt8] {
        do { return try CappedFile.read(path, cap: cap, what: "a clip") } catch { throw AudioError(error.description) }
    }
}

/// A decoder's chunks, one at a time, under the probe's caps: stops at the frame cap even when the
/// header lied about the length. Samples that are NaN, infinite or beyond the float headroom are
/// counted in `nonFinite` and handed on as 0, so no meter sees them.
final class ChunkReader {
    let format: AudioFormat
    private let decoder: AudioDecoder
    private let limits: AudioLimits
    private let buffer: UnsafeMutableBufferPointer<Float>
    /// Frames read so far.
    private(set) var frames: Int64 = 0
    private(set) var nonFinite: NonFiniteSamples?

    init(_ decoder: AudioDecoder, limits: AudioLimits) {
        self.decoder = decoder
        self.limits = limits
        format = decoder.format
        // Only what the decoder writes is read, so the buffer needs no initial value.
        buffer = .allocate(capacity: limits.chunkFrames * format.channels)
    }

    deinit { buffer.deallocate() }

    /// The next chunk (valid until the next call) and its largest |sample|; nil at the end.
    func next() throws(AudioError) -> (samples: UnsafeBufferPointer<Float>, peak: Float)? {
        try nextWithSum().map { ($0.samples, $0.peak) }
    }

    /// `next()` with the sum of the chunk's samples (`SampleScan.sum`), from the same pass.
    func nextWithSum() throws(AudioError) -> (samples: UnsafeBufferPointer<Float>, peak: Float, sum: Double)? {
        let channels = format.channels
        let read = try decoder.read(into: buffer)
        if read == 0 { return nil }
        guard read > 0, read <= limits.chunkFrames else {
            throw AudioError("the decoder returned \(read) frames for a read of \(limits.chunkFrames)")
        }
        let chunk = UnsafeMutableBufferPointer(rebasing: buffer[0..<(read * channels)])
        var peak: Float, sum: Double
        // One vectorised pass finds the usual chunk clean; only a chunk that is not is walked
        // sample by sample.
        if let clean = SampleScan.largestMagnitudeAndSumIfFinite(UnsafeBufferPointer(chunk)), clean.largest <= limits.maxSampleMagnitude {
            (peak, sum) = clean
        } else {
            for index in chunk.indices where !(abs(chunk[index]) <= limits.maxSampleMagnitude) {  // NaN fails every comparison
                chunk[index] = 0
                if nonFinite == nil { nonFinite = NonFiniteSamples(count: 0, firstFrame: frames + Int64(index / channels)) }
                nonFinite?.count += 1
            }
            peak = SampleScan.largestMagnitude(UnsafeBufferPointer(chunk))
            sum = SampleScan.sum(UnsafeBufferPointer(chunk))
        }
        frames += Int64(read)
        guard frames < limits.maxFrames(sampleRate: format.sampleRate) else {
            throw AudioError("holds more than \(limits.maxSeconds) s of audio (the header declared \(format.frames) frames)")
        }
        return (UnsafeBufferPointer(chunk), peak, sum)
    }
}

/// The per-clip meters of a probe (levels, silence, DC, clipping, true peak), fed chunk by chunk.
struct ClipMeters {
    private var level: LevelMeter
    private var truePeak: TruePeakMeter
    private var voice: VoicePrintMeter
    /// Every sample, when the probe keeps speech.
    private var kept: [Float]?
    /// The time the print's resampling took, while phases are measured (reported once, by `facts`).
    private var resampling: UInt64? = PhaseTimes.isOn ? 0 : nil

    /// `frames`: what the header declares (under the probe's limit, checked before), to size buffers.
    init(_ probe: AudioProbe, channels: Int, sampleRate: Int, frames: Int64) {
        if probe.keepsSpeech { kept = [] }
        level = LevelMeter(threshold: Float(pow(10, probe.silenceThresholdDbfs / 20)), channels: channels,
                           clippingRun: probe.clippingRunSamples)
        truePeak = TruePeakMeter(channels: channels)
        voice = VoicePrintMeter(channels: channels, sampleRate: sampleRate, frames: frames)
    }

    mutating func consume(_ chunk: UnsafeBufferPointer<Float>, peak: Float, sum: Double) {
        level.consume(chunk, peak: peak, sum: sum)
        truePeak.add(chunk, samplePeak: peak)
        if let resampling {
            let start = DispatchTime.now().uptimeNanoseconds
            voice.consume(chunk)
            self.resampling = resampling + (DispatchTime.now().uptimeNanoseconds - start)
        } else {
            voice.consume(chunk)
        }
        kept?.append(contentsOf: chunk)
    }

    /// The facts of the clip `reader` has read to its end.
    mutating func facts(_ reader: ChunkReader, bytes: [UInt8], momentaryMax: Double) -> ClipFacts {
        truePeak.finish()
        let format = reader.format, frames = reader.frames
        let rate = Double(format.sampleRate)
        let silence = level.silence(totalFrames: frames)
        let rounded = AudioProbe.rounded
        var facts = ClipFacts(
            container: format.container, codec: format.codec, bitsPerSample: format.bitsPerSample,
            sampleRate: format.sampleRate, channels: format.channels, frames: frames,
            durationSeconds: Double(frames) / rate, bytes: bytes.count, sha256: PhaseTimes.measure("clips hashed (SHA-256)") { Digest.sha256Hex(bytes) },
            peakDbfs: level.peak > 0 ? rounded(20 * log10(Double(level.peak))) : nil,
            truePeakDbtp: truePeak.peak > 0 ? rounded(20 * log10(Double(truePeak.peak))) : nil,
            momentaryMaxLufs: momentaryMax.isFinite ? rounded(momentaryMax) : nil,
            leadingSilenceMs: rounded(Double(silence.leading) * 1000 / rate),
            trailingSilenceMs: rounded(Double(silence.trailing) * 1000 / rate),
            dcOffsetPercent: rounded(level.dcOffset(totalFrames: frames) * 100),
            clippedRuns: level.clippedRuns,
            silent: level.firstAudible == nil,
            nonFinite: reader.nonFinite)
        facts.print = PhaseTimes.measure("voice prints (FFT, pitch)") { voice.finish() }
        if let resampling { PhaseTimes.add("voice prints: resampled to 8 kHz", nanoseconds: resampling) }
        if let kept { facts.speech = WordRecogniser.speech(kept, channels: format.channels, rate: format.sampleRate) }
        return facts
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

    /// Adds a chunk of interleaved samples; `peak` and `sum`, when the caller measured them, are
    /// the chunk's largest |sample| and the sum of its samples (each saves a pass over it; the
    /// sum is used for mono).
    mutating func consume(_ samples: UnsafeBufferPointer<Float>, peak knownPeak: Float? = nil, sum knownSum: Double? = nil) {
        let frames = samples.count / channels
        guard frames > 0 else { return }
        // Peak and per-channel sums in vectorised passes; the rest only where it can matter.
        let chunkPeak = knownPeak ?? SampleScan.largestMagnitude(samples)
        peak = max(peak, chunkPeak)
        if channels == 1 {
            sums[0] += knownSum ?? SampleScan.sum(samples)
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

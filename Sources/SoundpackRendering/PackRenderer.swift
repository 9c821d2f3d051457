// Joins a pack's clips into the one sound file an extension would build for an amount.

import Foundation
import SoundpackAudio
import SoundpackCore
import SoundpackPack
import SoundpackSupport
import SoundpackValidation

/// A file `render` could not write, and why.
public struct RenderFailure: Error, Sendable {
    /// The file that could not be written.
    public let path: String
    /// Why the writer failed.
    public let error: AudioError
}

/// How clips are joined.
public struct RenderOptions: Sendable {
    /// Silence between consecutive clips, in milliseconds.
    public var gapMs: Double = 0
    /// Cut each clip's leading and trailing silence (below `checks.silenceThresholdDbfs`) first.
    public var trimSilence = false
    /// How the samples are written (16-bit PCM by default).
    public var encoding: AudioFileWriter.Encoding = .pcm16

    /// Options with `gapMs` of silence between clips, trimmed clips when `trimSilence`, written as `encoding`.
    public init(gapMs: Double = 0, trimSilence: Bool = false, encoding: AudioFileWriter.Encoding = .pcm16) {
        self.gapMs = gapMs
        self.trimSilence = trimSilence
        self.encoding = encoding
    }
}

/// A pack loaded for rendering: each clip any of its phrases may need is decoded once, then
/// announcements of one phrase (`speaking(_:)` gives the others) are joined from memory.
public final class PackRenderer: Sendable {
    /// The pack's pack.json.
    public let packFile: PackFile
    /// The phrase rendered (the pack's default phrase unless `speaking(_:)` chose another).
    public let phrase: Phrase
    private let announcement: Announcement
    /// Frames per second of the output, the clips' shared rate.
    public let sampleRate: Int
    /// Channels of the output, the clips' shared count.
    public let channels: Int
    /// How the clips are joined.
    public let options: RenderOptions
    package let timing: AnnouncementTiming
    private let clips: [[Float]?]
    /// The clips as 16-bit integers, converted once, when the output is 16-bit PCM: rendering is
    /// then copying.
    private let clips16: [[Int16]?]

    /// Loads the pack at `directory` and decodes its clips under `limits`; throws when pack.json or a
    /// clip cannot be read, a clip is missing or not audio, or the clips do not share a format.
    public init(directory: String, options: RenderOptions = RenderOptions(), limits: AudioLimits = AudioLimits()) throws(SoundpackError) {
        let manifest: PackFile
        do { manifest = try PackFileLoader.load(directory: directory) } catch {
            throw SoundpackError(.refused, "\(directory)/pack.json: \(error.description)")
        }
        let book = manifest.phrasebook
        let needed = book.requiredTokens(upTo: manifest.maxAmount)

        let root = URL(fileURLWithPath: directory, isDirectory: true)
        let probe = AudioProbe(limits: limits, silenceThresholdDbfs: manifest.checks.silenceThresholdDbfs)
        let threshold = Float(pow(10, manifest.checks.silenceThresholdDbfs / 20))
        var clips = [[Float]?](repeating: nil, count: book.inventory.count)
        var format: (rate: Int, channels: Int, token: Token)?
        var frames: [Token: Int64] = [:]
        for token in needed.sorted() {
            guard let path = manifest.clips[token.rawValue] else {
                throw SoundpackError(.refused, "the pack has no clip for token '\(token.rawValue)' (run soundpack validate \(directory))")
            }
            if let reason = PackPaths.unsafeReason(path, root: root) {
                throw SoundpackError(.refused, "clip '\(path)' refused: \(reason)")
            }
            let audio: DecodedAudio
            do { audio = try probe.decode(path: root.appendingPathComponent(path).path) } catch {
                throw SoundpackError(.refused, "cannot read clip '\(path)' for '\(token.rawValue)': \(error.message)")
            }
            // What validate calls an error is not joined: such a clip is not audio to trust.
            if audio.nonFinite != nil {
                throw SoundpackError(.refused, "clip '\(path)' for '\(token.rawValue)' holds NaN, infinite or absurd samples [audio.non-finite]; fix the clip (soundpack validate \(directory) shows where)")
            }
            if let format, format.rate != audio.sampleRate || format.channels != audio.channels {
                throw SoundpackError(.refused, "clip '\(path)' is \(audio.sampleRate) Hz with \(audio.channels) channel(s) but '\(manifest.clips[format.token.rawValue] ?? "")' is \(format.rate) Hz with \(format.channels); clips must share one format to be joined (soundpack convert)")
            }
            format = format ?? (audio.sampleRate, audio.channels, token)
            var samples = audio.samples
            if options.trimSilence { samples = SampleEdits.trimmed(samples, channels: audio.channels, threshold: threshold) ?? [] }
            frames[token] = Int64(samples.count / audio.channels)
            clips[token.ordinal] = samples
        }
        guard let format else { throw SoundpackError(.refused, "the pack has no clips") }
        self.packFile = manifest
        self.phrase = book.defaultPhrase
        self.announcement = book.announcement(book.defaultPhrase)
        self.sampleRate = format.rate
        self.channels = format.channels
        self.options = options
        self.clips = clips
        self.clips16 = options.encoding == .pcm16 ? clips.map { $0.map(Self.pcm16) } : []
        self.timing = AnnouncementTiming(
            clipFrames: frames, gapFrames: Int64((options.gapMs * Double(format.rate) / 1000).rounded()))
    }

    private init(_ other: PackRenderer, phrase: Phrase) {
        (packFile, sampleRate, channels, options, timing) = (other.packFile, other.sampleRate, other.channels, other.options, other.timing)
        (clips, clips16) = (other.clips, other.clips16)
        self.phrase = phrase
        announcement = packFile.phrasebook.announcement(phrase)
    }

    /// This pack's renderer of `phrase` (one of its phrasebook's), sharing the decoded clips.
    public func speaking(_ phrase: Phrase) -> PackRenderer { PackRenderer(self, phrase: phrase) }

    /// The clip tokens of the phrase for `amount`: prefix, reading, suffix. A phrase that says no
    /// amount plays its clips whatever `amount` is; nil plays the phrase's clips without the reading.
    public func tokens(for amount: Amount?) -> [Token] {
        amount.map(announcement.tokens) ?? announcement.frame([])
    }

    /// The joined samples (interleaved) of the announcement for `amount`.
    public func render(_ amount: Amount?) -> [Float] { join(tokens(for: amount), clips) }

    /// The name `amount`'s file has in a folder, without extension: the amount (`15.40`), or the
    /// phrase and the amount when `namedByPhrase` (`refund-15.40`; `order` for a phrase that says none).
    package func fileStem(for amount: Amount?, namedByPhrase: Bool) -> String {
        let said = phrase.saysAmount ? amount?.description : nil
        guard namedByPhrase else { return said ?? phrase.id }
        return [phrase.id, said].compactMap { $0 }.joined(separator: "-")
    }

    /// Renders `amount` into `path` (container by the caller, usually from the extension).
    public func write(_ amount: Amount?, to path: String, container: Container) throws(AudioError) {
        let samples: AudioFileWriter.Samples = clips16.isEmpty ? .float(render(amount)) : .int16(join(tokens(for: amount), clips16))
        try AudioFileWriter.write(samples, sampleRate: sampleRate, channels: channels, container: container,
                                  encoding: options.encoding, to: path)
    }

    /// The `compose.too-long` refusal of `amount`'s announcement, or nil when iOS would play it:
    /// judged by the pack's checks as validate judges the longest one.
    public func tooLong(_ amount: Amount?) -> Finding? {
        let seconds = Double(timing.frames(of: tokens(for: amount))) / Double(sampleRate)
        let checks = packFile.checks
        guard ComposeTooLong.isTooLong(seconds: seconds, checks: checks) else { return nil }
        let said = [packFile.phrasebook.isDeclared ? "phrase '\(phrase.id)'" : nil, phrase.saysAmount ? amount?.description : nil].compactMap { $0 }.joined(separator: " with ")
        return Finding(.composeTooLong, .error, "the announcement of \(said) lasts \(String(format: "%.2f", seconds)) s, at or above \(Format.number(checks.composeMaxSeconds)) s; iOS would play the default sound")
    }

    /// Renders every amount into `folder` as `AMOUNT.EXT` (`PHRASE-AMOUNT.EXT` when
    /// `namedByPhrase`), on every core; stops at the first file that cannot be written and names it.
    public func write(_ amounts: [Amount?], into folder: String, fileExtension: String, container: Container, namedByPhrase: Bool = false,
                      progress: (@Sendable () -> Void)? = nil) throws(RenderFailure) {
        AudioFileWriter.removeAbandonedTemporaries(in: folder)
        try WorkerPool.run(amounts.count) { (index: Int) throws(RenderFailure) in
            let path = "\(folder)/\(fileStem(for: amounts[index], namedByPhrase: namedByPhrase)).\(fileExtension)"
            do throws(AudioError) { try write(amounts[index], to: path, container: container) } catch {
                throw RenderFailure(path: path, error: error)
            }
            progress?()
        }
    }

    /// Every clip decoded, as 16-bit samples (interleaved, `channels` per frame) converted as a
    /// 16-bit render converts them, by token in listing order: what a player joins to sound as `render`.
    package var pcm16Clips: [(token: Token, samples: [Int16])] {
        clips.indices.compactMap { ordinal in
            guard let samples = clips[ordinal] else { return nil }
            let token = packFile.phrasebook.inventory[ordinal]
            return (token, clips16.isEmpty ? Self.pcm16(samples) : clips16[ordinal] ?? Self.pcm16(samples))
        }
    }

    private func join<Sample: Numeric>(_ tokens: [Token], _ parts: [[Sample]?]) -> [Sample] {
        var out: [Sample] = []
        out.reserveCapacity(Int(timing.frames(of: tokens)) * channels)
        let gap = [Sample](repeating: 0, count: Int(timing.gapFrames) * channels)
        for (index, token) in tokens.enumerated() {
            if index > 0 { out.append(contentsOf: gap) }
            out.append(contentsOf: parts[token.ordinal] ?? [])
        }
        return out
    }

    /// Float samples as 16-bit integers, scaled by 32768 and clipped, as libsndfile converts them.
    static func pcm16(_ samples: [Float]) -> [Int16] {
        samples.map { Int16(clamping: Int(($0 * 32_768).rounded())) }
    }
}

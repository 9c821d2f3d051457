// Writes a converted copy of a pack: one sample rate, channel count and codec for every clip,
// optionally trimmed and levelled to a loudness target. The source is only read; the copy is
// assembled in a temporary folder beside the destination and renamed into place.

import Foundation
import SoundpackAudio
import SoundpackCore
import SoundpackPack
import SoundpackSupport
import SoundpackValidation

/// Why a conversion stopped: refused when the source pack or the request is at fault, an
/// environment failure when the destination cannot be written. Nothing is left at the
/// destination when one is thrown.

/// What `convert` makes of a pack's clips: rate, channels, encoding, container, levels and trimming.
public struct ConvertOptions: Sendable {
    /// Target sample rate; nil keeps the most common rate of the source clips.
    public var sampleRate: Int?
    /// How the samples are written (16-bit PCM by default).
    public var encoding: AudioFileWriter.Encoding = .pcm16
    /// The file format of the converted clips (CAF by default).
    public var container: Container = .caf
    /// Momentary-max loudness target in LUFS; nil leaves levels alone.
    public var loudness: Double?
    /// Highest sample peak allowed after levelling, in dBFS.
    var peakCeilingDbfs: Double = -1
    /// Cut each clip's leading and trailing silence, keeping a little padding.
    public var trimSilence = false
    /// Silence kept around the voice when trimming, in ms.
    var padMs: Double = 10
    /// Mix stereo clips down to one channel.
    public var mono = false
    /// Replace an existing destination.
    public var force = false

    /// Options that keep rate, channels and levels, writing 16-bit PCM in CAF.
    public init() {}
}

/// What a conversion did, clip by clip.
public struct ConvertSummary: Sendable {
    /// One converted clip.
    public struct Clip: Sendable {
        /// The token the clip says.
        public var token: String
        /// Its path in the source pack.
        public var source: String
        /// Its path in the converted pack.
        public var destination: String
        /// The gain applied to reach the loudness target, in dB; 0 when levels were left alone.
        public var gainDb: Double
        /// The loudness target could not be reached without passing the peak ceiling.
        public var limitedByPeak: Bool
    }
    /// Every clip converted.
    public var clips: [Clip]
    /// The sample rate every clip now has.
    public var sampleRate: Int
    /// The channel count every clip now has.
    public var channels: Int
    /// The validation of the converted pack, at its destination.
    public var report: PackReport
}

/// Converts a pack's clips into a new pack folder (`soundpack convert`).
public struct PackConverter: Sendable {
    package var limits: AudioLimits

    /// A converter that reads the source clips under `limits`.
    public init(limits: AudioLimits = AudioLimits()) { self.limits = limits }

    /// Decodes every clip of `sourceFolder`, converts it as `options` say and writes the pack into
    /// `destinationFolder`, assembled beside it and validated before it is moved into place.
    /// Throws when the source is refused, the result would not validate, or the destination cannot be written.
    public func convert(source sourceFolder: PackFolder, destination destinationFolder: PackFolder, options: ConvertOptions) throws(SoundpackError) -> ConvertSummary {
        let (source, destination) = (sourceFolder.shown, destinationFolder.shown)
        let sourceURL = URL(fileURLWithPath: sourceFolder.path, isDirectory: true).standardizedFileURL
        let destinationURL = URL(fileURLWithPath: destinationFolder.path, isDirectory: true).standardizedFileURL
        // Compared as real paths: DEST may be SRC, or lie inside it, through a symlink, and --force
        // must never move or fill SRC.
        let (realSource, realDestination) = (Folders.realPath(sourceURL.path), Folders.realPath(destinationURL.path))
        guard realDestination != realSource, !realDestination.hasBytePrefix(realSource + "/"),
              !realSource.hasBytePrefix(realDestination + "/") else {
            throw .refused("the destination \(destination) overlaps the source \(source); choose another folder")
        }
        let manifest: PackFile
        do { manifest = try PackFileLoader.load(directory: sourceURL.path) } catch {
            throw .refused("\(source)/pack.json: \(error.description)")
        }
        if FileManager.default.fileExists(atPath: destinationURL.path) && !options.force {
            throw .refused("\(destination) already exists")
        }
        if let rate = options.sampleRate, !limits.sampleRates.contains(rate) {
            throw .refused("the sample rate \(rate) is outside \(limits.sampleRates.lowerBound)–\(limits.sampleRates.upperBound) Hz")
        }
        let decoded = try decodeClips(of: manifest, in: sourceURL, shown: source)
        let rate = options.sampleRate ?? Self.mostCommon(decoded.map(\.audio.sampleRate))
        let channels = options.mono ? 1 : Self.mostCommon(decoded.map(\.audio.channels))

        let staging = try Self.makeStaging(for: destinationURL)
        var committed = false
        defer { if !committed { try? FileManager.default.removeItem(at: staging) } }
        let (clips, newPaths) = try Self.writeClips(decoded, of: manifest, rate: rate, channels: channels, options: options, into: staging)

        // pack.json: the source's, as read and checked, with the clip paths replaced.
        var converted = manifest
        converted.clips = newPaths
        do {
            try AtomicFile.write(try StoreJSON.encode(converted), to: staging.appendingPathComponent(PackFolder.packFile).path)
        } catch {
            throw .environment("cannot write pack.json: \(error.localizedDescription)")
        }
        // The copy must validate without errors before it takes the destination's place.
        let report = Validator().validate(folder: PackFolder(path: staging.path, shown: destination))
        if report.errors > 0 {
            let first = report.findings.filter { $0.severity == .error }.prefix(3).map { "[\($0.rule.rawValue)] \($0.message)" }
            throw .refused("the converted pack would not validate (\(report.errors) errors): \(first.joined(separator: "; "))")
        }
        try Self.moveIntoPlace(staging, at: destinationURL, shown: destination, force: options.force)
        committed = true
        return ConvertSummary(clips: clips, sampleRate: rate, channels: channels, report: report.moved(to: destinationFolder))
    }

    private typealias DecodedClip = (key: String, path: String, audio: DecodedAudio)

    /// Decodes every clip first, and checks that every token is there: what is wrong with the
    /// source is reported all at once, before anything is written, so one run names it all.
    /// (A missing decoder library is the machine's problem, not the pack's: exit 3 at once.)
    private func decodeClips(of manifest: PackFile, in sourceURL: URL, shown source: String) throws(SoundpackError) -> [DecodedClip] {
        var probe = AudioProbe(limits: limits)
        probe.decodesMP4 = true
        var decoded: [DecodedClip] = []
        var problems: [String] = []
        for (key, path) in manifest.clips.sorted(by: { manifest.grammar.precedes($0.key, $1.key) }) {
            if let reason = PackPaths.unsafeReason(path, root: sourceURL) {
                problems.append("clip '\(path)' for '\(key)' refused: \(reason)")
                continue
            }
            do { decoded.append((key, path, try probe.decode(path: sourceURL.appendingPathComponent(path).path))) } catch {
                if case .missingLibrary(let hint) = error.kind {
                    throw .environment("cannot read clip '\(path)' for '\(key)'", error.message, hint: hint)
                }
                problems.append("cannot read clip '\(path)' for '\(key)': \(error.message)")
            }
        }
        for token in manifest.phrasebook.memoizedRequiredTokens(upTo: manifest.maxAmount).sorted() where manifest.clips[token.rawValue] == nil {
            problems.append("no clip for token '\(token.rawValue)', which announcements up to \(manifest.maxAmount) need")
        }
        switch problems.count {
        case 0: break
        case 1: throw .refused(problems[0])
        default: throw .refused("\(problems.count) problems in \(source): \(problems.joined(separator: "; "))")
        }
        guard !decoded.isEmpty else { throw .refused("\(source) has no clips to convert") }
        return decoded
    }

    /// A fresh staging folder with its `clips` folder, next to the destination, so the final
    /// rename stays on one file system.
    private static func makeStaging(for destinationURL: URL) throws(SoundpackError) -> URL {
        let parent = destinationURL.deletingLastPathComponent()
        do { try Folders.create(parent.path) } catch {
            throw .environment("cannot create \(parent.path): \(error.localizedDescription)")
        }
        StagingFolder.removeAbandoned(in: parent, for: destinationURL.lastPathComponent, "converting")
        let staging = parent.appendingPathComponent(StagingFolder.name(destinationURL.lastPathComponent, "converting"))
        do { try Folders.create(staging.appendingPathComponent("clips").path) } catch {
            throw .environment("cannot write into \(parent.path): \(error.localizedDescription)")
        }
        return staging
    }

    /// Each clip remixed, resampled, trimmed and levelled as asked, written into `staging`; the
    /// summary of each and the new clip paths.
    private static func writeClips(
        _ decoded: [DecodedClip], of manifest: PackFile, rate: Int, channels: Int, options: ConvertOptions, into staging: URL
    ) throws(SoundpackError) -> (clips: [ConvertSummary.Clip], paths: [String: String]) {
        let threshold = Float(pow(10, manifest.checks.silenceThresholdDbfs / 20))
        var clips: [ConvertSummary.Clip] = []
        var newPaths: [String: String] = [:]
        let stems = manifest.grammar.fileStems(for: decoded.map(\.key))
        let ext = options.container == .aiff ? "aiff" : options.container.rawValue
        for (index, entry) in decoded.enumerated() {
            var samples = SampleEdits.remix(entry.audio.samples, from: entry.audio.channels, to: channels)
            do { samples = try Resampler.resample(samples, channels: channels, from: entry.audio.sampleRate, to: rate) } catch {
                throw .refused("cannot resample '\(entry.path)': \(error.message)")
            }
            if options.trimSilence {
                let pad = Int(options.padMs * Double(rate) / 1000)
                samples = SampleEdits.trimmed(samples, channels: channels, threshold: threshold, padFrames: pad) ?? samples
            }
            var gainDb = 0.0, limited = false
            if let target = options.loudness {
                (gainDb, limited) = try Self.levelling(samples, channels: channels, rate: rate, target: target, ceilingDbfs: options.peakCeilingDbfs)
                let gain = Float(pow(10, gainDb / 20))
                if gain != 1 { for i in samples.indices { samples[i] *= gain } }
            }
            let relative = "clips/\(stems[entry.key] ?? "clip-\(index)").\(ext)"
            do {
                try AudioFileWriter.write(samples, sampleRate: rate, channels: channels, container: options.container,
                                          encoding: options.encoding, to: staging.appendingPathComponent(relative).path)
            } catch {
                throw .environment("cannot write \(relative): \(error.message)")
            }
            newPaths[entry.key] = relative
            clips.append(.init(token: entry.key, source: entry.path, destination: relative, gainDb: gainDb, limitedByPeak: limited))
        }
        return (clips, newPaths)
    }

    /// Renames the validated copy to the destination. Without --force an existing DEST is never
    /// replaced, even one that appeared while this conversion ran: claim the name with mkdir
    /// (atomic, fails if anything is there), then rename the copy over that empty folder. A folder
    /// someone filled meanwhile makes the rename fail (ENOTEMPTY) and stays as it is.
    private static func moveIntoPlace(_ staging: URL, at destinationURL: URL, shown destination: String, force: Bool) throws(SoundpackError) {
        let parent = destinationURL.deletingLastPathComponent()
        let retired = parent.appendingPathComponent(".\(destinationURL.lastPathComponent).replaced-\(getpid())")
        var replacing = false
        if mkdir(destinationURL.path, 0o755) != 0 {
            let reason = errno
            guard reason == EEXIST else { throw .environment("cannot create \(destination): \(String(cString: strerror(reason)))") }
            guard force else { throw .refused("\(destination) already exists (it appeared while converting)") }
            guard rename(destinationURL.path, retired.path) == 0 else {
                throw .environment("cannot move the old \(destination) aside: \(String(cString: strerror(errno)))")
            }
            replacing = true
        }
        guard rename(staging.path, destinationURL.path) == 0 else {
            let reason = errno
            if replacing { _ = rename(retired.path, destinationURL.path) } else { rmdir(destinationURL.path) }
            if reason == ENOTEMPTY || reason == EEXIST {
                throw .refused("\(destination) was filled by someone else while converting; nothing of it was changed")
            }
            throw .environment("cannot move the converted pack into \(destination): \(String(cString: strerror(reason)))")
        }
        if replacing { try? FileManager.default.removeItem(at: retired) }
        let folder = open(parent.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 { fsync(folder); close(folder) }
    }

    /// The gain (dB) that brings the clip's momentary max to `target`, lowered if the sample peak
    /// would pass `ceilingDbfs`; and whether it was lowered.
    static func levelling(_ samples: [Float], channels: Int, rate: Int, target: Double, ceilingDbfs: Double) throws(SoundpackError) -> (Double, Bool) {
        let meter: LoudnessMeter
        do { meter = try LoudnessMeter(channels: channels, sampleRate: rate) } catch {
            throw .refused(error.message)
        }
        samples.withUnsafeBufferPointer { meter.add($0) }
        meter.finish()
        guard meter.momentaryMax.isFinite else { return (0, false) }
        let wanted = target - meter.momentaryMax
        let peak = samples.reduce(Float(0)) { max($0, abs($1)) }
        guard peak > 0 else { return (0, false) }
        let headroom = ceilingDbfs - 20 * log10(Double(peak))
        return wanted > headroom ? (headroom, true) : (wanted, false)
    }

    static func mostCommon(_ values: [Int]) -> Int {
        var counts: [Int: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        return counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key < $1.key }?.key ?? 44_100
    }
}

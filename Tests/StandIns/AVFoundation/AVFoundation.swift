// A Linux stand-in for the part of Apple's AVFoundation (AVFAudio, with Core Audio's format
// constants) the example extension uses to join clips: audio formats, PCM buffers and AVAudioFile,
// reading and writing through SoundpackKit's libsndfile code. Each type quotes the sentence of
// Apple's documentation it follows, and says where Apple documents nothing. In no product.

#if os(Linux)
import Foundation
import SoundpackCore
import SoundpackKit
import UserNotifications  // ExtensionProcess: a terminated extension writes nothing

public typealias AVAudioFrameCount = UInt32
public typealias AVAudioFramePosition = Int64
public typealias AVAudioChannelCount = UInt32
public typealias AudioFormatID = UInt32

/// Core Audio's format identifiers (four-character codes).
public let kAudioFormatLinearPCM: AudioFormatID = 0x6C70_636D  // 'lpcm'
public let kAudioFormatULaw: AudioFormatID = 0x756C_6177  // 'ulaw'
public let kAudioFormatALaw: AudioFormatID = 0x616C_6177  // 'alaw'
public let kAudioFormatAppleIMA4: AudioFormatID = 0x696D_6134  // 'ima4'

/// Core Audio: `kAudioFileUnsupportedFileTypeError`, "The file type is not supported." ('typ?').
public let kAudioFileUnsupportedFileTypeError: Int = 0x7479_703F
/// Core Audio: `kAudioFileUnsupportedDataFormatError`, "The data format is not supported by this file type." ('fmt?').
public let kAudioFileUnsupportedDataFormatError: Int = 0x666D_743F

/// The keys of AVAudioFile's `settings` (AVFAudio's "AV Foundation Audio Settings Constants").
public let AVFormatIDKey = "AVFormatIDKey"
public let AVSampleRateKey = "AVSampleRateKey"
public let AVNumberOfChannelsKey = "AVNumberOfChannelsKey"
public let AVLinearPCMBitDepthKey = "AVLinearPCMBitDepthKey"
public let AVLinearPCMIsFloatKey = "AVLinearPCMIsFloatKey"
public let AVLinearPCMIsBigEndianKey = "AVLinearPCMIsBigEndianKey"
public let AVLinearPCMIsNonInterleaved = "AVLinearPCMIsNonInterleaved"

/// Apple: "Constants that describe the audio formats."
public enum AVAudioCommonFormat: UInt, Sendable {
    case otherFormat, pcmFormatFloat32, pcmFormatFloat64, pcmFormatInt16, pcmFormatInt32
}

/// Apple: "An object that describes the representation of an audio format." Only the common
/// formats the stand-in's buffers hold (32-bit float) can be read or written.
open class AVAudioFormat: NSObject {
    public let sampleRate: Double
    public let channelCount: AVAudioChannelCount
    public let commonFormat: AVAudioCommonFormat
    public let isInterleaved: Bool

    /// Apple: "Creates an audio format instance with the specified sample rate and channel count."
    /// — "the standard format": deinterleaved 32-bit float.
    public convenience init?(standardFormatWithSampleRate sampleRate: Double, channels: AVAudioChannelCount) {
        self.init(commonFormat: .pcmFormatFloat32, sampleRate: sampleRate, channels: channels, interleaved: false)
    }

    /// Apple: "Creates an audio format instance." It returns nil for a format it cannot describe.
    public init?(commonFormat format: AVAudioCommonFormat, sampleRate: Double, channels: AVAudioChannelCount, interleaved: Bool) {
        guard sampleRate > 0, sampleRate.isFinite, channels > 0, format != .otherFormat else { return nil }
        self.commonFormat = format
        self.sampleRate = sampleRate
        self.channelCount = channels
        self.isInterleaved = interleaved
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioFormat else { return false }
        return sampleRate == other.sampleRate && channelCount == other.channelCount
            && commonFormat == other.commonFormat && (isInterleaved == other.isInterleaved || channelCount == 1)
    }
}

/// Apple: "An object that represents a buffer of audio data with a format."
open class AVAudioBuffer: NSObject {
    public let format: AVAudioFormat
    init(format: AVAudioFormat) { self.format = format }
}

/// Apple: "An object that represents an audio buffer you use with PCM audio formats." The stand-in
/// holds 32-bit float samples, one array per channel (deinterleaved) or one interleaved array.
open class AVAudioPCMBuffer: AVAudioBuffer {
    public let frameCapacity: AVAudioFrameCount
    /// Apple: "The current number of valid sample frames in the buffer." … "the value must be less
    /// than or equal to frameCapacity."
    public var frameLength: AVAudioFrameCount = 0 {
        didSet { precondition(frameLength <= frameCapacity, "AVAudioPCMBuffer: frameLength above frameCapacity") }
    }
    private let channels: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private let channelPointers: Int

    /// Apple: "Creates a PCM audio buffer instance for PCM audio data." It returns nil "if the
    /// format is not PCM" (here: not 32-bit float, which the stand-in holds).
    public init?(pcmFormat format: AVAudioFormat, frameCapacity: AVAudioFrameCount) {
        guard format.commonFormat == .pcmFormatFloat32 else { return nil }
        let count = format.isInterleaved ? 1 : Int(format.channelCount)
        let samplesPerPointer = Int(frameCapacity) * (format.isInterleaved ? Int(format.channelCount) : 1)
        channels = .allocate(capacity: count)
        for index in 0..<count {
            let storage = UnsafeMutablePointer<Float>.allocate(capacity: max(samplesPerPointer, 1))
            storage.initialize(repeating: 0, count: max(samplesPerPointer, 1))
            (channels + index).initialize(to: storage)
        }
        channelPointers = count
        self.frameCapacity = frameCapacity
        super.init(format: format)
    }

    deinit {
        for index in 0..<channelPointers { channels[index].deallocate() }
        channels.deallocate()
    }

    /// Apple: "The buffer's audio samples as floating point values."
    public var floatChannelData: UnsafePointer<UnsafeMutablePointer<Float>>? { UnsafePointer(channels) }

    /// The first `frameLength` frames, interleaved.
    func interleaved() -> [Float] {
        let frames = Int(frameLength), count = Int(format.channelCount)
        if format.isInterleaved || count == 1 { return Array(UnsafeBufferPointer(start: channels[0], count: frames * count)) }
        var samples = [Float](repeating: 0, count: frames * count)
        for frame in 0..<frames { for channel in 0..<count { samples[frame * count + channel] = channels[channel][frame] } }
        return samples
    }

    /// Fills the buffer from interleaved samples; sets `frameLength`.
    func fill(interleaved samples: ArraySlice<Float>) {
        let count = Int(format.channelCount), frames = samples.count / count
        var index = samples.startIndex
        for frame in 0..<frames {
            for channel in 0..<count {
                if format.isInterleaved || count == 1 { channels[0][frame * count + channel] = samples[index] } else { channels[channel][frame] = samples[index] }
                index += 1
            }
        }
        frameLength = AVAudioFrameCount(frames)
    }
}

/// Apple: "An object that represents an audio file that the system can open for reading or
/// writing." … "Regardless of the file format, you read and write using AVAudioPCMBuffer objects."
/// The stand-in reads a whole clip on open and writes the whole file when it closes (on `close()`
/// or when the object goes away, as Apple's does).
open class AVAudioFile: NSObject {
    public let url: URL
    public let fileFormat: AVAudioFormat
    public let processingFormat: AVAudioFormat
    public var framePosition: AVAudioFramePosition = 0

    private var samples: [Float]
    private let writing: (container: Container, encoding: AudioFileWriter.Encoding)?
    private var closed = false

    /// Apple: "Opens a file for reading using the standard, deinterleaved floating point format."
    public init(forReading fileURL: URL) throws {
        let audio: DecodedAudio
        do { audio = try AudioProbe().decode(path: fileURL.path) } catch {
            throw Self.error(Int(bitPattern: 0x7768_743F), "cannot read \(fileURL.path): \(error)")  // 'wht?', kAudioFileUnspecifiedError's neighbour
        }
        guard let format = AVAudioFormat(standardFormatWithSampleRate: Double(audio.sampleRate), channels: AVAudioChannelCount(audio.channels)) else {
            throw Self.error(kAudioFileUnsupportedDataFormatError, "\(fileURL.path) has no usable format")
        }
        url = fileURL
        fileFormat = format
        processingFormat = format
        samples = audio.samples
        writing = nil
    }

    /// Apple: "Opens a file for writing using a specified processing format and settings." …
    /// "This method infers the file type to create from the file extension of fileURL, and
    /// overwrites a file at the specified URL if a file exists." Apple does not document what
    /// happens when the extension names no file type; with nothing to infer from, the stand-in
    /// throws Core Audio's `kAudioFileUnsupportedFileTypeError`, as it throws for a data format the
    /// file type cannot hold.
    public init(forWriting fileURL: URL, settings: [String: Any], commonFormat format: AVAudioCommonFormat, interleaved: Bool) throws {
        guard let container = AudioFileWriter.container(forExtension: fileURL.pathExtension) else {
            throw Self.error(kAudioFileUnsupportedFileTypeError, "no audio file type is inferred from the extension of \(fileURL.lastPathComponent)")
        }
        let formatID = Self.number(settings[AVFormatIDKey]).map { AudioFormatID($0) } ?? kAudioFormatLinearPCM
        let bits = Int(Self.number(settings[AVLinearPCMBitDepthKey]) ?? 16)
        let isFloat = (settings[AVLinearPCMIsFloatKey] as? Bool) ?? false
        let bigEndian = (settings[AVLinearPCMIsBigEndianKey] as? Bool) ?? false
        let encoding: AudioFileWriter.Encoding
        switch (formatID, bits, isFloat) {
        case (kAudioFormatLinearPCM, 16, false): encoding = .pcm16
        case (kAudioFormatLinearPCM, 24, false): encoding = .pcm24
        case (kAudioFormatLinearPCM, 32, true): encoding = .float32
        case (kAudioFormatULaw, _, _): encoding = .ulaw
        case (kAudioFormatALaw, _, _): encoding = .alaw
        default: throw Self.error(kAudioFileUnsupportedDataFormatError, "the stand-in cannot write format \(formatID) with \(bits) bits")
        }
        // CAF and WAV hold little-endian PCM here, AIFF big-endian; a request for the other order is
        // one the stand-in cannot honour, so it says so rather than write something else.
        if container == .caf && bigEndian {
            throw Self.error(kAudioFileUnsupportedDataFormatError, "the stand-in writes CAF little-endian only")
        }
        guard let rate = Self.number(settings[AVSampleRateKey]), let channels = Self.number(settings[AVNumberOfChannelsKey]),
              let fileFormat = AVAudioFormat(standardFormatWithSampleRate: rate, channels: AVAudioChannelCount(clamping: Int(channels))),
              let processing = AVAudioFormat(commonFormat: format, sampleRate: rate, channels: AVAudioChannelCount(clamping: Int(channels)), interleaved: interleaved),
              format == .pcmFormatFloat32 else {
            throw Self.error(kAudioFileUnsupportedDataFormatError, "settings without a usable sample rate, channel count or processing format")
        }
        // A terminated extension writes nothing (UserNotifications' `ExtensionProcess`).
        guard ExtensionProcess.allows("write \(fileURL.lastPathComponent)") else {
            throw Self.error(Int(bitPattern: 0x7065_726D), "the extension's process is gone")
        }
        // "overwrites a file at the specified URL": the file exists (empty) from here on.
        guard FileManager.default.createFile(atPath: fileURL.path, contents: Data()) else {
            throw Self.error(Int(bitPattern: 0x7065_726D), "cannot create \(fileURL.path)")  // 'perm'
        }
        url = fileURL
        self.fileFormat = fileFormat
        processingFormat = processing
        samples = []
        writing = (container, encoding)
    }

    /// Apple: "The number of sample frames in the file."
    public var length: AVAudioFramePosition { AVAudioFramePosition(samples.count / max(Int(processingFormat.channelCount), 1)) }

    /// Apple: "Reads an entire buffer." … "the buffer's frameLength" holds the frames read. Reading
    /// at the end of the file reads no frames. The buffer's format must be the processing format.
    public func read(into buffer: AVAudioPCMBuffer) throws {
        guard writing == nil else { throw Self.error(kAudioFileUnsupportedDataFormatError, "\(url.lastPathComponent) is open for writing") }
        guard buffer.format.isEqual(processingFormat) else { throw Self.error(kAudioFileUnsupportedDataFormatError, "the buffer's format is not the file's processing format") }
        let channels = Int(processingFormat.channelCount)
        let start = Int(framePosition) * channels
        let count = min(Int(buffer.frameCapacity), Int(length - framePosition)) * channels
        buffer.fill(interleaved: samples[start..<(start + max(count, 0))])
        framePosition += AVAudioFramePosition(buffer.frameLength)
    }

    /// Apple: "Writes a buffer sequentially." The buffer's format must be the file's processing
    /// format (Apple: the buffer "must be in the file's processing format").
    public func write(from buffer: AVAudioPCMBuffer) throws {
        guard writing != nil, !closed else { throw Self.error(kAudioFileUnsupportedDataFormatError, "\(url.lastPathComponent) is not open for writing") }
        guard buffer.format.isEqual(processingFormat) else {
            throw Self.error(kAudioFileUnsupportedDataFormatError, "a \(buffer.format.sampleRate) Hz, \(buffer.format.channelCount)-channel buffer written to a \(processingFormat.sampleRate) Hz, \(processingFormat.channelCount)-channel file")
        }
        guard ExtensionProcess.allows("write \(url.lastPathComponent)") else {
            throw Self.error(Int(bitPattern: 0x7065_726D), "the extension's process is gone")
        }
        samples += buffer.interleaved()
        framePosition += AVAudioFramePosition(buffer.frameLength)
    }

    /// Apple (iOS 18): "Closes the audio file." Before iOS 18 the file closes when the object is
    /// deallocated.
    @available(iOS 18.0, *)
    public func close() { finish() }

    deinit { finish() }

    private func finish() {
        guard let writing, !closed else { return }
        closed = true
        guard ExtensionProcess.allows("write \(url.lastPathComponent)") else { return }
        let rate = Int(processingFormat.sampleRate), channels = Int(processingFormat.channelCount)
        try? AudioFileWriter.write(samples, sampleRate: rate, channels: channels, container: writing.container, encoding: writing.encoding, to: url.path)
    }

    private static func number(_ value: Any?) -> Double? {
        switch value {
        case let value as Double: return value
        case let value as Float: return Double(value)
        case let value as Int: return Double(value)
        case let value as UInt32: return Double(value)
        case let value as Int32: return Double(value)
        case let value as UInt: return Double(value)
        case let value as NSNumber: return value.doubleValue
        default: return nil
        }
    }

    static func error(_ code: Int, _ reason: String) -> NSError {
        NSError(domain: "NSOSStatusErrorDomain", code: code, userInfo: [NSLocalizedDescriptionKey: reason])
    }
}
/// Apple: "An object that produces synthesized speech from text utterances". The stand-in speaks
/// no words: it records what was asked (`SpeechRequests`) and delivers a short tone.
open class AVSpeechSynthesizer: NSObject {
    public typealias BufferCallback = (AVAudioBuffer) -> Void

    public override init() {}

    /// Apple: "Generates speech for the utterance and invokes the callback with the audio buffer."
    /// Apple documents neither the buffers' format nor how the end is signalled; apps observe a
    /// final buffer with no frames, which the stand-in sends last. Buffers arrive on a background
    /// queue: 0.4 s of a quiet 440 Hz tone, 22,050 Hz mono, in two buffers.
    open func write(_ utterance: AVSpeechUtterance, toBufferCallback bufferCallback: @escaping BufferCallback) {
        SpeechRequests.record(text: utterance.speechString, language: utterance.voice?.language)
        nonisolated(unsafe) let callback = bufferCallback
        DispatchQueue.global().async {
            guard let format = AVAudioFormat(standardFormatWithSampleRate: 22_050, channels: 1) else { return }
            for part in 0..<2 {
                guard let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 4_410) else { return }
                let tone = (0..<4_410).map { Float(0.1 * sin(2 * Double.pi * 440 * Double(part * 4_410 + $0) / 22_050)) }
                buffer.fill(interleaved: tone[...])
                callback(buffer)
            }
            if let end = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 1) { callback(end) }
        }
    }
}

/// Apple: "A chunk of text to be spoken, along with parameters that affect its speech."
open class AVSpeechUtterance: NSObject {
    public let speechString: String
    public var voice: AVSpeechSynthesisVoice?
    public init(string: String) { speechString = string }
}

/// Apple: "A distinct voice for use in speech synthesis." `init(language:)` returns nil "if the
/// language code is not valid"; the stand-in accepts any BCP 47-looking code.
open class AVSpeechSynthesisVoice: NSObject {
    public let language: String
    public init?(language: String?) {
        guard let language, !language.isEmpty else { return nil }
        self.language = language
    }
}

/// Stand-in only: every utterance written, for tests.
public enum SpeechRequests {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var log: [(text: String, language: String?)] = []

    static func record(text: String, language: String?) {
        lock.lock()
        log.append((text, language))
        lock.unlock()
    }

    public static var all: [(text: String, language: String?)] {
        lock.lock()
        defer { lock.unlock() }
        return log
    }
}
#endif

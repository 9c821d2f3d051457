// A Linux stand-in for the part of Apple's AVFoundation (AVFAudio, with Core Audio's format
// constants) the example extension uses to join clips: audio formats, PCM buffers and AVAudioFile,
// reading and writing through SoundpackKit's libsndfile code. Each type quotes the sentence of
// Apple's documentation it follows, and says where Apple documents nothing. In no product.

#if os(Linux)
import Foundation
import SoundpackCore
import SoundpackKit
@_spi(StandIn) import UserNotifications  // ExtensionProcess: a terminated extension writes nothing

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

/// Apple: "An object that describes the representation of an audio format." The stand-in's
/// buffers hold the two common formats the phone hands the example: 32-bit float (AVAudioFile's
/// processing format) and 16-bit integers (what compact system voices write, see AVSpeechSynthesizer).
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
    public convenience init?(commonFormat format: AVAudioCommonFormat, sampleRate: Double, channels: AVAudioChannelCount, interleaved: Bool) {
        guard format != .otherFormat else { return nil }
        self.init(describing: format, sampleRate: sampleRate, channels: channels, interleaved: interleaved)
    }

    /// A file's own format, which may be none of the common ones (IMA4, 24-bit): `.otherFormat`.
    init?(describing format: AVAudioCommonFormat, sampleRate: Double, channels: AVAudioChannelCount, interleaved: Bool) {
        guard sampleRate > 0, sampleRate.isFinite, channels > 0 else { return nil }
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

    open override var description: String {
        "\(channelCount) ch, \(sampleRate) Hz, \(commonFormat)\(isInterleaved || channelCount == 1 ? "" : ", deinterleaved")"
    }

    /// Bytes one frame of this format takes in a buffer (nil for a format no buffer holds).
    var bytesPerSample: Int? {
        switch commonFormat {
        case .pcmFormatFloat32: return 4
        case .pcmFormatInt16: return 2
        default: return nil
        }
    }
}

/// Apple: "An object that represents a buffer of audio data with a format."
open class AVAudioBuffer: NSObject {
    public let format: AVAudioFormat
    init(format: AVAudioFormat) { self.format = format }
}

/// Apple: "An object that represents an audio buffer you use with PCM audio formats." The stand-in
/// holds 32-bit float or 16-bit integer samples, as its format says, one array per channel
/// (deinterleaved) or one interleaved array.
open class AVAudioPCMBuffer: AVAudioBuffer {
    public let frameCapacity: AVAudioFrameCount
    /// Apple: "The current number of valid sample frames in the buffer." … "the value must be less
    /// than or equal to frameCapacity."
    public var frameLength: AVAudioFrameCount = 0 {
        didSet { precondition(frameLength <= frameCapacity, "AVAudioPCMBuffer: frameLength above frameCapacity") }
    }
    private let floats: UnsafeMutablePointer<UnsafeMutablePointer<Float>>?
    private let int16s: UnsafeMutablePointer<UnsafeMutablePointer<Int16>>?
    private let channelPointers: Int

    /// Apple: "Creates a PCM audio buffer instance for PCM audio data." It returns nil "if the
    /// format is not PCM" (here: neither 32-bit float nor 16-bit integer, the formats the stand-in holds).
    public init?(pcmFormat format: AVAudioFormat, frameCapacity: AVAudioFrameCount) {
        guard format.bytesPerSample != nil else { return nil }
        let count = format.isInterleaved ? 1 : Int(format.channelCount)
        let samplesPerPointer = max(Int(frameCapacity) * (format.isInterleaved ? Int(format.channelCount) : 1), 1)
        func allocate<Sample: Numeric>(_: Sample.Type) -> UnsafeMutablePointer<UnsafeMutablePointer<Sample>> {
            let pointers = UnsafeMutablePointer<UnsafeMutablePointer<Sample>>.allocate(capacity: count)
            for index in 0..<count {
                let storage = UnsafeMutablePointer<Sample>.allocate(capacity: samplesPerPointer)
                storage.initialize(repeating: 0, count: samplesPerPointer)
                (pointers + index).initialize(to: storage)
            }
            return pointers
        }
        floats = format.commonFormat == .pcmFormatFloat32 ? allocate(Float.self) : nil
        int16s = format.commonFormat == .pcmFormatInt16 ? allocate(Int16.self) : nil
        channelPointers = count
        self.frameCapacity = frameCapacity
        super.init(format: format)
        ExtensionMemory.sample()  // the buffer is the extension's memory, on the phone as here
    }

    deinit {
        for index in 0..<channelPointers {
            floats?[index].deallocate()
            int16s?[index].deallocate()
        }
        floats?.deallocate()
        int16s?.deallocate()
    }

    /// Apple: "The buffer's audio samples as floating point values." — only when the format is
    /// 32-bit float; nil for another format, as `int16ChannelData` says.
    public var floatChannelData: UnsafePointer<UnsafeMutablePointer<Float>>? { floats.map { UnsafePointer($0) } }

    /// Apple: "The buffer's 16-bit integer audio samples." … it "returns the buffer's audio samples
    /// if the buffer's format has 2-byte integer samples, or nil if it's another format."
    public var int16ChannelData: UnsafePointer<UnsafeMutablePointer<Int16>>? { int16s.map { UnsafePointer($0) } }

    /// The sample at `index` of the first `frameLength` frames, interleaved, as -1...1.
    private func sample(frame: Int, channel: Int) -> Float {
        let together = format.isInterleaved || format.channelCount == 1
        let (pointer, offset) = together ? (0, frame * Int(format.channelCount) + channel) : (channel, frame)
        if let floats { return floats[pointer][offset] }
        return Float(int16s?[pointer][offset] ?? 0) / 32_768
    }

    /// The first `frameLength` frames, interleaved, as -1...1.
    func interleaved() -> [Float] {
        let frames = Int(frameLength), count = Int(format.channelCount)
        var samples = [Float](repeating: 0, count: frames * count)
        for frame in 0..<frames { for channel in 0..<count { samples[frame * count + channel] = sample(frame: frame, channel: channel) } }
        return samples
    }

    /// The first `frameLength` frames, interleaved, as the 16-bit integers the buffer holds; nil
    /// when it holds floats.
    func interleavedInt16() -> [Int16]? {
        guard let int16s else { return nil }
        let frames = Int(frameLength), count = Int(format.channelCount)
        var samples = [Int16](repeating: 0, count: frames * count)
        let together = format.isInterleaved || count == 1
        for frame in 0..<frames {
            for channel in 0..<count { samples[frame * count + channel] = together ? int16s[0][frame * count + channel] : int16s[channel][frame] }
        }
        return samples
    }

    /// Fills the buffer from interleaved samples in -1...1 (rounded to 16 bits for an integer
    /// buffer); sets `frameLength`.
    func fill(interleaved samples: ArraySlice<Float>) {
        let count = Int(format.channelCount), frames = samples.count / count
        let together = format.isInterleaved || count == 1
        var index = samples.startIndex
        for frame in 0..<frames {
            for channel in 0..<count {
                let (pointer, offset) = together ? (0, frame * count + channel) : (channel, frame)
                if let floats { floats[pointer][offset] = samples[index] }
                if let int16s { int16s[pointer][offset] = Int16(clamping: Int((samples[index] * 32_768).rounded())) }
                index += 1
            }
        }
        frameLength = AVAudioFrameCount(frames)
    }
}

/// Apple: "An object that represents an audio file that the system can open for reading or
/// writing." … "Regardless of the file format, you read and write using AVAudioPCMBuffer objects."
/// The stand-in reads a whole clip on open and writes the whole file when it closes (on `close()`
/// or when the object goes away, as Apple's does). What it keeps in memory meanwhile the phone
/// keeps on disk: the memory meter (`ExtensionMemory`) does not count it.
open class AVAudioFile: NSObject {
    public let url: URL
    public let fileFormat: AVAudioFormat
    public let processingFormat: AVAudioFormat
    public var framePosition: AVAudioFramePosition = 0

    private var samples: [Float]
    private var written: AudioFileWriter.Samples
    /// Bytes of `samples` and `written` declared to the memory meter.
    private var heldBytes = 0
    private let writing: (container: Container, encoding: AudioFileWriter.Encoding)?
    private var closed = false

    /// Apple: "Opens a file for reading using the standard, deinterleaved floating point format."
    /// `fileFormat` is the file's own: 16-bit integers for 16-bit PCM, 32-bit float for float PCM,
    /// `.otherFormat` for anything else (IMA4, 24-bit).
    public init(forReading fileURL: URL) throws {
        let audio: DecodedAudio
        do {
            audio = try ExtensionMemory.standInWork {
                let decoded = try AudioProbe().decode(path: fileURL.path)
                ExtensionMemory.hold(decoded.samples.capacity * 4)
                return decoded
            }
        } catch {
            throw Self.error(Int(bitPattern: 0x7768_743F), "cannot read \(fileURL.path): \(error)")  // 'wht?', kAudioFileUnspecifiedError's neighbour
        }
        let stored: AVAudioCommonFormat
        switch (audio.format.codec, audio.format.bitsPerSample) {
        case (.lpcm, 16): stored = .pcmFormatInt16
        case (.lpcm, 32): stored = .pcmFormatFloat32
        default: stored = .otherFormat
        }
        let rate = Double(audio.sampleRate), channels = AVAudioChannelCount(audio.channels)
        guard let format = AVAudioFormat(standardFormatWithSampleRate: rate, channels: channels),
              let own = AVAudioFormat(describing: stored, sampleRate: rate, channels: channels, interleaved: true) else {
            ExtensionMemory.standInWork { ExtensionMemory.hold(-audio.samples.capacity * 4) }
            throw Self.error(kAudioFileUnsupportedDataFormatError, "\(fileURL.path) has no usable format")
        }
        url = fileURL
        fileFormat = own
        processingFormat = format
        samples = audio.samples
        written = .float([])
        writing = nil
        heldBytes = audio.samples.capacity * 4
    }

    /// Apple: "Opens a file for writing using a specified processing format and settings." …
    /// "This method infers the file type to create from the file extension of fileURL, and
    /// overwrites a file at the specified URL if a file exists." Apple does not document what
    /// happens when the extension names no file type; with nothing to infer from, the stand-in
    /// throws Core Audio's `kAudioFileUnsupportedFileTypeError`, as it throws for a data format the
    /// file type cannot hold. The processing format may be 32-bit float or 16-bit integers (the
    /// formats the stand-in's buffers hold).
    public init(forWriting fileURL: URL, settings: [String: Any], commonFormat format: AVAudioCommonFormat, interleaved: Bool) throws {
        guard let container = AudioFileWriter.container(forExtension: fileURL.pathExtension) else {
            throw Self.error(kAudioFileUnsupportedFileTypeError, "no audio file type is inferred from the extension of \(fileURL.lastPathComponent)")
        }
        let formatID = Self.number(settings[AVFormatIDKey]).map { AudioFormatID($0) } ?? kAudioFormatLinearPCM
        let bits = Int(Self.number(settings[AVLinearPCMBitDepthKey]) ?? 16)
        let isFloat = (settings[AVLinearPCMIsFloatKey] as? Bool) ?? false
        let bigEndian = (settings[AVLinearPCMIsBigEndianKey] as? Bool) ?? false
        let encoding: AudioFileWriter.Encoding, stored: AVAudioCommonFormat
        switch (formatID, bits, isFloat) {
        case (kAudioFormatLinearPCM, 16, false): (encoding, stored) = (.pcm16, .pcmFormatInt16)
        case (kAudioFormatLinearPCM, 24, false): (encoding, stored) = (.pcm24, .otherFormat)
        case (kAudioFormatLinearPCM, 32, true): (encoding, stored) = (.float32, .pcmFormatFloat32)
        case (kAudioFormatULaw, _, _): (encoding, stored) = (.ulaw, .otherFormat)
        case (kAudioFormatALaw, _, _): (encoding, stored) = (.alaw, .otherFormat)
        default: throw Self.error(kAudioFileUnsupportedDataFormatError, "the stand-in cannot write format \(formatID) with \(bits) bits")
        }
        // CAF and WAV hold little-endian PCM here, AIFF big-endian; a request for the other order is
        // one the stand-in cannot honour, so it says so rather than write something else.
        if container == .caf && bigEndian {
            throw Self.error(kAudioFileUnsupportedDataFormatError, "the stand-in writes CAF little-endian only")
        }
        guard let rate = Self.number(settings[AVSampleRateKey]), let channels = Self.number(settings[AVNumberOfChannelsKey]),
              let fileFormat = AVAudioFormat(describing: stored, sampleRate: rate, channels: AVAudioChannelCount(clamping: Int(channels)), interleaved: true),
              let processing = AVAudioFormat(commonFormat: format, sampleRate: rate, channels: AVAudioChannelCount(clamping: Int(channels)), interleaved: interleaved),
              processing.bytesPerSample != nil else {
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
        // 16-bit integers into a 16-bit file are written as they are; anything else through floats.
        written = format == .pcmFormatInt16 && encoding == .pcm16 ? .int16([]) : .float([])
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
        ExtensionMemory.sample()
    }

    /// Apple: "Writes a buffer sequentially." — the buffer parameter: "Its format must match the
    /// file's processing format." What happens when it does not is not an error you can catch:
    /// the write hands Core Audio the buffer's bytes and frame count only ("failed
    /// call=ExtAudioFileWrite(_imp->_extAudioFile, buffer.frameLength, buffer.audioBufferList)",
    /// dlutton/flutter_tts #426), which reads them in the processing format.
    /// - Another sample type or channel layout: the process dies. "the per-buffer `try!
    ///   output!.write(from: pcmBuffer)` call traps inside CoreAudio's CBR converter
    ///   (`CABufferList::BytesConsumed` → `__builtin_trap`) … there is no way … to recover with
    ///   `try` / `catch`" (flutter_tts #632; "ASSERTION FAILURE [(nBytes <= buf->mDataByteSize) != 0
    ///   is false]", #575). The stand-in cannot end the test process: it records the trap
    ///   (`AVFoundationMisuse`), writes nothing and returns, and the test fails on the record.
    /// - Only another sample rate: the samples are written as they are and play at the file's
    ///   rate, too fast or too slow. The stand-in writes them so and records the failure.
    public func write(from buffer: AVAudioPCMBuffer) throws {
        guard writing != nil, !closed else { throw Self.error(kAudioFileUnsupportedDataFormatError, "\(url.lastPathComponent) is not open for writing") }
        let mine = processingFormat, theirs = buffer.format
        let sameLayout = theirs.commonFormat == mine.commonFormat && theirs.channelCount == mine.channelCount
            && (theirs.isInterleaved == mine.isInterleaved || mine.channelCount == 1)
        guard sameLayout else {
            AVFoundationMisuse.record(url, "trap: AVAudioFile.write(from:) given a \(theirs) buffer for a file whose processing format is \(mine) (CABufferList::BytesConsumed, EXC_BREAKPOINT)")
            return
        }
        if theirs.sampleRate != mine.sampleRate {
            AVFoundationMisuse.record(url, "wrong speed: AVAudioFile.write(from:) given a \(theirs.sampleRate) Hz buffer for a \(mine.sampleRate) Hz file; it plays at \(mine.sampleRate / theirs.sampleRate)× speed")
        }
        guard ExtensionProcess.allows("write \(url.lastPathComponent)") else {
            throw Self.error(Int(bitPattern: 0x7065_726D), "the extension's process is gone")
        }
        ExtensionMemory.sample()
        ExtensionMemory.standInWork {
            // Appended in place (the enum lets go of the array first), kept as the phone keeps it: on disk.
            switch written {
            case .int16(var so):
                written = .float([])
                so += buffer.interleavedInt16() ?? []
                written = .int16(so)
                keep(samples.capacity * 4 + so.capacity * 2)
            case .float(var so):
                written = .float([])
                so += buffer.interleaved()
                written = .float(so)
                keep(samples.capacity * 4 + so.capacity * 4)
            }
        }
        framePosition += AVAudioFramePosition(buffer.frameLength)
    }

    /// Declares to the memory meter that the stand-in now keeps `bytes` for this file.
    private func keep(_ bytes: Int) {
        ExtensionMemory.hold(bytes - heldBytes)
        heldBytes = bytes
    }

    /// Apple (iOS 18): "Closes the audio file." Before iOS 18 the file closes when the object is
    /// deallocated.
    @available(iOS 18.0, *)
    public func close() { finish() }

    deinit {
        finish()
        ExtensionMemory.standInWork {
            samples = []
            written = .float([])
            keep(0)
        }
    }

    private func finish() {
        guard let writing, !closed else { return }
        closed = true
        ExtensionMemory.standInWork {
            defer {
                written = .float([])
                keep(samples.capacity * 4)
            }
            guard ExtensionProcess.allows("write \(url.lastPathComponent)") else { return }
            let rate = Int(processingFormat.sampleRate), channels = Int(processingFormat.channelCount)
            try? AudioFileWriter.write(written, sampleRate: rate, channels: channels, container: writing.container, encoding: writing.encoding, to: url.path)
        }
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

/// Stand-in only: what the phone would have crashed on, or got silently wrong, that the stand-in
/// survives. A test fails on any record made under its own folder (`take(under:)`).
@_spi(StandIn) public enum AVFoundationMisuse {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var log: [(path: String, message: String)] = []

    static func record(_ url: URL, _ message: String) {
        lock.lock()
        log.append((url.path, message))
        lock.unlock()
    }

    /// The records about files under `folder`, removed from the log.
    public static func take(under folder: String) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let mine = log.filter { $0.path.hasPrefix(prefix) }
        log.removeAll { $0.path.hasPrefix(prefix) }
        return mine.map { "\($0.path): \($0.message)" }
    }
}

/// Apple: "An object that produces synthesized speech from text utterances". The stand-in speaks
/// no words: it records what was asked (`SpeechRequests`) and delivers a short tone.
open class AVSpeechSynthesizer: NSObject {
    public typealias BufferCallback = (AVAudioBuffer) -> Void

    /// Stand-in only: the sample type of the system voice, per task (the extension's work inherits
    /// it from the test that pushes). Compact voices on iOS 16 and 17 write 16-bit integers:
    /// "<AVAudioFormat 0x2831feee0:  1 ch,  22050 Hz, Int16>" (flutter_tts #575, also #290, #465);
    /// "Apple's built-in Maui / Vocalizer compact voices on iOS 16/17 deliver `Int16` PCM buffers"
    /// (#632). Other voices write 32-bit float (`.pcmFormatFloat32`).
    @_spi(StandIn) @TaskLocal public static var voiceFormat: AVAudioCommonFormat = .pcmFormatInt16

    /// Stand-in only: how long the system voice takes before its first buffer, per task. Apple
    /// documents none; on a phone the voice may have to be loaded first, so code must not assume
    /// the speech comes at once.
    @_spi(StandIn) @TaskLocal public static var firstBufferDelay: TimeInterval = 0

    /// Stand-in only: how long the system voice speaks, per task. 0.4 s unless a test asks for more
    /// (a long text: every buffer passes through the extension's memory).
    @_spi(StandIn) @TaskLocal public static var speechSeconds: TimeInterval = 0.4

    public override init() {}

    /// Apple: "Generates speech for the utterance and invokes the callback with the audio buffer."
    /// Apple documents neither the buffers' format, nor the thread, nor how the end is signalled.
    /// The stand-in does what the reports show: buffers of the voice's format (`voiceFormat`,
    /// 16-bit integers unless a test says otherwise) on the main thread ("thread #1, queue =
    /// 'com.apple.main-thread'", flutter_tts #575 and #290), and last a buffer with no frames,
    /// which apps observe as the end. A quiet 440 Hz tone, 22,050 Hz mono, in buffers of 0.2 s:
    /// 0.4 s (two buffers) unless `speechSeconds` says otherwise.
    open func write(_ utterance: AVSpeechUtterance, toBufferCallback bufferCallback: @escaping BufferCallback) {
        SpeechRequests.record(text: utterance.speechString, language: utterance.voice?.language)
        nonisolated(unsafe) let callback = bufferCallback
        let sampleType = Self.voiceFormat, parts = max(1, Int((Self.speechSeconds * 22_050 / 4_410).rounded(.up)))
        DispatchQueue.main.asyncAfter(deadline: .now() + Self.firstBufferDelay) {
            guard let format = AVAudioFormat(commonFormat: sampleType, sampleRate: 22_050, channels: 1, interleaved: true) else { return }
            for part in 0..<parts {
                guard let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 4_410) else { return }
                buffer.fill(interleaved: Self.tone(part: part)[...])
                callback(buffer)
            }
            if let end = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 1) { callback(end) }
        }
    }

    /// Stand-in only: the samples of the tone's `part` (0, 1, …), -1...1.
    @_spi(StandIn) public static func tone(part: Int) -> [Float] {
        (0..<4_410).map { Float(0.1 * sin(2 * Double.pi * 440 * Double(part * 4_410 + $0) / 22_050)) }
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
@_spi(StandIn) public enum SpeechRequests {
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

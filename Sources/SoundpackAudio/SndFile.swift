// Decoding through libsndfile from bytes already in memory; the only file that imports CSndFile.

import CSndFile
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SoundpackCore

/// A libsndfile handle over an in-memory file (virtual I/O), closed on deinit.
final class SndFileDecoder: AudioDecoder {
    let format: AudioFormat
    private let memory: MemoryFile
    private let handle: OpaquePointer

    /// Opens `bytes` (the whole file); `name` is used in error messages only.
    init(bytes: [UInt8], container: Container) throws(AudioError) {
        let memory = MemoryFile(bytes: bytes)
        var io = SF_VIRTUAL_IO(
            get_filelen: { MemoryFile.from($0).length },
            seek: { offset, whence, user in MemoryFile.from(user).seek(offset, whence) },
            read: { pointer, count, user in MemoryFile.from(user).read(pointer, count) },
            write: { _, _, _ in 0 },
            tell: { MemoryFile.from($0).position })
        var info = SF_INFO()
        let user = Unmanaged.passUnretained(memory).toOpaque()
        guard let handle = sf_open_virtual(&io, Int32(SFM_READ), &info, user) else {
            throw AudioError("not a readable audio file (\(String(cString: sf_strerror(nil))))")
        }
        self.memory = memory
        self.handle = handle
        self.format = AudioFormat(
            container: Self.container(info.format, sniffed: container),
            codec: Self.codec(info.format),
            bitsPerSample: Self.bits(info.format),
            sampleRate: Int(info.samplerate),
            channels: Int(info.channels),
            frames: Int64(info.frames))
    }

    deinit { sf_close(handle) }

    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int {
        let frames = buffer.count / max(format.channels, 1)
        let got = sf_readf_float(handle, buffer.baseAddress, sf_count_t(frames))
        let code = sf_error(handle)
        if got < 0 || (got == 0 && code != 0) {
            throw AudioError("decoding failed (\(String(cString: sf_error_number(code))))")
        }
        return Int(max(got, 0))
    }

    private static func container(_ format: Int32, sniffed: Container) -> Container {
        switch format & Int32(SF_FORMAT_TYPEMASK) {
        case Int32(SF_FORMAT_WAV), Int32(SF_FORMAT_WAVEX), Int32(SF_FORMAT_RF64): return .wav
        case Int32(SF_FORMAT_AIFF): return sniffed == .aifc ? .aifc : .aiff
        case Int32(SF_FORMAT_CAF): return .caf
        case Int32(SF_FORMAT_FLAC): return .flac
        case Int32(SF_FORMAT_OGG): return .ogg
        case Int32(SF_FORMAT_MPEG): return .mp3
        default: return .other
        }
    }

    private static func codec(_ format: Int32) -> Codec {
        let major = format & Int32(SF_FORMAT_TYPEMASK)
        if major == Int32(SF_FORMAT_FLAC) { return .flac }
        switch format & Int32(SF_FORMAT_SUBMASK) {
        case Int32(SF_FORMAT_PCM_S8), Int32(SF_FORMAT_PCM_U8), Int32(SF_FORMAT_PCM_16), Int32(SF_FORMAT_PCM_24),
             Int32(SF_FORMAT_PCM_32), Int32(SF_FORMAT_FLOAT), Int32(SF_FORMAT_DOUBLE):
            return .lpcm
        case Int32(SF_FORMAT_ULAW): return .ulaw
        case Int32(SF_FORMAT_ALAW): return .alaw
        case Int32(SF_FORMAT_IMA_ADPCM):
            // libsndfile reads Apple's ima4 in AIFC; in WAV it is the Microsoft/DVI variant.
            return major == Int32(SF_FORMAT_AIFF) ? .ima4 : .imaAdpcm
        case Int32(SF_FORMAT_MS_ADPCM): return .msAdpcm
        case Int32(SF_FORMAT_VORBIS): return .vorbis
        case Int32(SF_FORMAT_OPUS): return .opus
        case Int32(SF_FORMAT_MPEG_LAYER_III), Int32(SF_FORMAT_MPEG_LAYER_II), Int32(SF_FORMAT_MPEG_LAYER_I): return .mp3
        default: return .other
        }
    }

    private static func bits(_ format: Int32) -> Int? {
        switch format & Int32(SF_FORMAT_SUBMASK) {
        case Int32(SF_FORMAT_PCM_S8), Int32(SF_FORMAT_PCM_U8): return 8
        case Int32(SF_FORMAT_PCM_16): return 16
        case Int32(SF_FORMAT_PCM_24): return 24
        case Int32(SF_FORMAT_PCM_32), Int32(SF_FORMAT_FLOAT): return 32
        case Int32(SF_FORMAT_DOUBLE): return 64
        default: return nil
        }
    }
}

/// The file's bytes with a read position, handed to libsndfile's virtual I/O callbacks.
private final class MemoryFile {
    let bytes: [UInt8]
    var offset: Int64 = 0
    init(bytes: [UInt8]) { self.bytes = bytes }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> MemoryFile {
        Unmanaged<MemoryFile>.fromOpaque(pointer!).takeUnretainedValue()
    }

    var length: sf_count_t { sf_count_t(bytes.count) }
    var position: sf_count_t { offset }

    func seek(_ distance: sf_count_t, _ whence: Int32) -> sf_count_t {
        let base: Int64
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = offset
        case SEEK_END: base = Int64(bytes.count)
        default: return -1
        }
        // libsndfile seeks by offsets read from the file: an overflow is a failed seek, not a trap.
        let (target, overflow) = base.addingReportingOverflow(distance)
        guard !overflow, target >= 0 else { return -1 }
        offset = target
        return offset
    }

    func read(_ destination: UnsafeMutableRawPointer?, _ count: sf_count_t) -> sf_count_t {
        guard let destination, count > 0, offset < Int64(bytes.count) else { return 0 }
        let n = Int(min(count, Int64(bytes.count) - offset))
        bytes.withUnsafeBytes { raw in
            destination.copyMemory(from: raw.baseAddress! + Int(offset), byteCount: n)
        }
        offset += Int64(n)
        return sf_count_t(n)
    }
}

/// Writes interleaved float samples as a wav, aiff or caf file through libsndfile.
public enum AudioFileWriter {
    /// The encodings the writer produces.
    public enum Encoding: String, Sendable, CaseIterable {
        /// `ima4` is Apple's IMA/ADPCM, written by IMA4Encoder (caf or aiff), a quarter of pcm16's bytes.
        case pcm16, pcm24, float32, ulaw, alaw, ima4
        var subtype: Int32 {
            switch self {
            case .ima4: return Int32(SF_FORMAT_IMA_ADPCM)
            case .pcm16: return Int32(SF_FORMAT_PCM_16)
            case .pcm24: return Int32(SF_FORMAT_PCM_24)
            case .float32: return Int32(SF_FORMAT_FLOAT)
            case .ulaw: return Int32(SF_FORMAT_ULAW)
            case .alaw: return Int32(SF_FORMAT_ALAW)
            }
        }
        /// Bytes one sample takes in the file.
        var bytesPerSample: Int {
            switch self {
            case .ulaw, .alaw: return 1
            case .pcm16, .ima4: return 2
            case .pcm24: return 3
            case .float32: return 4
            }
        }
    }

    /// The container a file name asks for by its extension (`.caf`, `.wav`, `.aif`/`.aiff`).
    public static func container(forExtension ext: String) -> Container? {
        switch ext.lowercased() {
        case "caf": return .caf
        case "wav", "wave": return .wav
        case "aif", "aiff", "aifc": return .aiff
        default: return nil
        }
    }

    /// Samples to write: floats in -1...1, or 16-bit integers written as they are.
    public enum Samples: Sendable {
        case float([Float])
        case int16([Int16])

        var count: Int {
            switch self {
            case .float(let samples): return samples.count
            case .int16(let samples): return samples.count
            }
        }

        func appendingSilence(count: Int) -> Samples {
            switch self {
            case .float(let samples): return .float(samples + repeatElement(0, count: count))
            case .int16(let samples): return .int16(samples + repeatElement(0, count: count))
            }
        }
    }

    /// Writes `samples` (interleaved, -1...1) to `path` through a temporary file in the same
    /// folder that is renamed into place, so `path` never holds half a file.
    public static func write(_ samples: [Float], sampleRate: Int, channels: Int, container: Container,
                             encoding: Encoding = .pcm16, to path: String) throws(AudioError) {
        try write(.float(samples), sampleRate: sampleRate, channels: channels, container: container, encoding: encoding, to: path)
    }

    /// The process that writes the temporary `name` (`.NAME.PID.RANDOM.partial.EXT`, as `write`
    /// names them), or nil when `name` is not one.
    static func temporaryOwner(_ name: String) -> pid_t? {
        guard name.hasPrefix(".") else { return nil }
        var parts = name.split(separator: ".", omittingEmptySubsequences: false)
        if parts.last != "partial" { parts.removeLast() }
        guard parts.count >= 5, parts.removeLast() == "partial", UInt32(parts.removeLast()) != nil,
              let owner = Int32(parts.removeLast()), owner > 0 else { return nil }
        return owner
    }

    /// Removes the temporaries in `folder` that a killed `write` left (their process is gone):
    /// `render -o DIR` runs this first, so an interrupted render leaves nothing for the next one.
    package static func removeAbandonedTemporaries(in folder: String) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        for name in names {
            guard let owner = temporaryOwner(name), owner != getpid(), kill(owner, 0) != 0, errno == ESRCH else { continue }
            unlink("\(folder)/\(name)")
        }
    }

    /// Writes `samples` (interleaved) to `path` through a temporary file in the same folder that
    /// is renamed into place, so `path` never holds half a file.
    public static func write(_ samples: Samples, sampleRate: Int, channels: Int, container: Container,
                             encoding: Encoding = .pcm16, to path: String) throws(AudioError) {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        // The temporary keeps the target's extension: it is audio, and named as audio.
        let suffix = path[slash...].lastIndex(of: ".").map { String(path[$0...]) } ?? ""
        let temporary = "\(path[..<slash]).\(path[slash...]).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).partial\(suffix)"
        do {
            try writeDirectly(samples, sampleRate: sampleRate, channels: channels, container: container, encoding: encoding, to: temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw AudioError("cannot move the written file into place at \(path): \(reason)")
        }
    }

    private static func writeDirectly(_ samples: Samples, sampleRate: Int, channels: Int, container: Container,
                                      encoding: Encoding, to path: String) throws(AudioError) {
        if encoding == .ima4 {
            return try writeIMA4(samples, sampleRate: sampleRate, channels: channels, container: container, to: path)
        }
        let major: Int32
        switch container {
        case .wav: major = Int32(SF_FORMAT_WAV)
        case .aiff, .aifc: major = Int32(SF_FORMAT_AIFF)
        case .caf: major = Int32(SF_FORMAT_CAF)
        case .flac: major = Int32(SF_FORMAT_FLAC)
        default: throw AudioError("cannot write \(container.rawValue) files")
        }
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        // CAF in the platform's native byte order, little-endian, as AVAudioFile writes it on iOS:
        // the file `render` makes is the file the extension makes, byte for byte.
        info.format = major | encoding.subtype | (container == .caf ? Int32(SF_ENDIAN_LITTLE) : 0)
        guard sf_format_check(&info) == 1 else {
            throw AudioError("\(container.rawValue) cannot hold \(encoding.rawValue) audio")
        }
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw AudioError("cannot create \(path): \(String(cString: sf_strerror(nil)))")
        }
        defer { sf_close(handle) }
        // Clip rather than wrap when a float sample exceeds full scale.
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        var samples = samples
        // libsndfile pads an odd-length AIFF sound chunk with a zero byte and counts it as a
        // frame; in µ-law or A-law that byte is a full-scale click at the end of the sound. One
        // frame of silence makes the length even, so there is no pad to count.
        if container == .aiff || container == .aifc, samples.count % 2 == 1, encoding.bytesPerSample % 2 == 1 {
            samples = samples.appendingSilence(count: max(channels, 1))
        }
        let frames = samples.count / max(channels, 1)
        let written: sf_count_t
        switch samples {
        case .float(let values): written = values.withUnsafeBufferPointer { sf_writef_float(handle, $0.baseAddress, sf_count_t(frames)) }
        case .int16(let values): written = values.withUnsafeBufferPointer { sf_writef_short(handle, $0.baseAddress, sf_count_t(frames)) }
        }
        guard written == frames else {
            throw AudioError("cannot write \(path): \(String(cString: sf_strerror(handle)))")
        }
    }

    /// IMA4 in CAF or AIFF-C, encoded here: libsndfile writes no IMA4 CAF, and its AIFF IMA4
    /// encoder starts packets from states Apple's decoder does not restart from.
    private static func writeIMA4(_ samples: Samples, sampleRate: Int, channels: Int, container: Container,
                                  to path: String) throws(AudioError) {
        let pcm: [Int16]
        switch samples {
        case .int16(let values): pcm = values
        case .float(let values):
            // The decoder's scale (value / 32768), clipped rather than wrapped.
            pcm = values.map { value in
                guard value.isFinite else { return 0 }
                return Int16(min(max(value * 32768, -32768), 32767).rounded())
            }
        }
        let encoded = IMA4Encoder.encode(pcm, channels: max(channels, 1))
        let bytes: [UInt8]
        switch container {
        case .caf: bytes = IMA4File.caf(encoded, sampleRate: sampleRate, channels: channels)
        case .aiff, .aifc: bytes = IMA4File.aifc(encoded, sampleRate: sampleRate, channels: channels)
        default: throw AudioError("\(container.rawValue) cannot hold ima4 audio (use caf or aiff)")
        }
        let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw AudioError("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(file) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(file, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw AudioError("cannot write \(path): \(String(cString: strerror(errno)))") }
            offset += n
        }
    }
}

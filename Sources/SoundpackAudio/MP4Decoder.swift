// AAC and ALAC from MP4/M4A files through FFmpeg, opened on first use (CFFmpeg/shim.h); the only
// file that imports CFFmpeg. FFmpeg reads the bytes already in memory through our own AVIOContext,
// with its MP4 demuxer named (nothing is probed, no path or protocol is opened), and only the first
// audio track is decoded; every return code is checked and becomes an AudioError.

import CFFmpeg
import SoundpackCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A decoder of the first audio track of an MP4 file's bytes, handing on interleaved floats.
final class MP4Decoder: AudioDecoder {
    private(set) var format: AudioFormat
    private let handles: FFmpegHandles
    private let stream: Int32
    /// Decoded samples (interleaved) not yet handed on, from `pendingStart`.
    private var pending: [Float] = []
    private var pendingStart = 0
    private var draining = false
    private var finished = false
    private let maxFrames: Int64
    private var decodedFrames: Int64 = 0

    /// FFmpeg's MP4 demuxer (`mov,mp4,m4a,3gp,3g2,mj2`), the only one used.
    private static let demuxerName = "mov,mp4,m4a,3gp,3g2,mj2"
    /// Apple's encoder writes ALAC in frames of 4,096; a larger declared frame is refused before
    /// libavcodec allocates buffers for it (it accepts up to 16 million).
    private static let maxALACFrameLength: UInt32 = 65_536
    /// The most frames one decoded AAC or ALAC frame may hold.
    private static let maxFrameSamples = 65_536

    #if os(macOS)
    static func installHint(_ package: String) -> String { "brew install ffmpeg" }
    #else
    static func installHint(_ package: String) -> String { "apt-get install \(package)" }
    #endif

    init(bytes: [UInt8], limits: AudioLimits) throws(AudioError) {
        var package: UnsafePointer<CChar>?
        if let problem = soundpack_ffmpeg_load_error(&package) {
            let name = package.map { String(cString: $0) } ?? "FFmpeg"
            throw AudioError("cannot decode MP4 audio: \(name) cannot be loaded (\(String(cString: problem)))",
                             kind: .missingLibrary(hint: Self.installHint(name)))
        }
        let handles = FFmpegHandles(bytes: bytes)
        self.handles = handles
        maxFrames = limits.maxFrames(sampleRate: limits.sampleRates.upperBound)
        let context = try Self.openDemuxer(handles)
        let (track, parameters) = try Self.firstAudioTrack(of: context)
        stream = track.pointee.index
        let codec: Codec
        switch parameters.pointee.codec_id {
        case AV_CODEC_ID_AAC: codec = .aac
        case AV_CODEC_ID_ALAC: codec = .alac
        case let other:
            throw AudioError("the MP4 file holds \(String(cString: soundpack_avcodec_get_name(other))) audio; only AAC and ALAC are read from MP4")
        }
        let declaredRate = Int(parameters.pointee.sample_rate), declaredChannels = Int(parameters.pointee.ch_layout.nb_channels)
        let declaredSeconds = try Self.checkDeclared(track, parameters, codec: codec, limits: limits)
        let codecContext = try Self.openCodec(handles, parameters, codec: codec)

        // The first frame says what the decoder really gives (HE-AAC doubles the declared rate).
        var rate = declaredRate, channels = declaredChannels
        format = AudioFormat(container: .mp4, codec: codec, bitsPerSample: nil, sampleRate: rate, channels: channels, frames: 0)
        if let first = try decodeFrame(expecting: nil) {
            (rate, channels) = first
        }
        // ALAC's sample size, from its cookie, as the opened decoder read it.
        let bits = Int(codecContext.pointee.bits_per_raw_sample)
        format = AudioFormat(container: .mp4, codec: codec, bitsPerSample: codec == .alac && bits > 0 ? bits : nil,
                             sampleRate: rate, channels: channels, frames: Int64(declaredSeconds * Double(rate)))
    }

    /// Opens the MP4 demuxer over our AVIOContext on the bytes: FFmpeg opens no file and no protocol.
    private static func openDemuxer(_ handles: FFmpegHandles) throws(AudioError) -> UnsafeMutablePointer<AVFormatContext> {
        let bufferSize: Int32 = 32_768
        guard let buffer = soundpack_av_malloc(Int(bufferSize))?.assumingMemoryBound(to: UInt8.self) else {
            throw AudioError("cannot decode MP4 audio: out of memory")
        }
        handles.io = soundpack_avio_alloc_context(buffer, bufferSize, Unmanaged.passUnretained(handles.input).toOpaque(),
                                                  { MemoryInput.from($0).read($1, $2) },
                                                  { MemoryInput.from($0).seek($1, $2) })
        guard let io = handles.io else {
            var unowned: UnsafeMutablePointer<UInt8>? = buffer
            soundpack_av_freep(&unowned)
            throw AudioError("cannot decode MP4 audio: out of memory")
        }
        guard let demuxer = soundpack_av_find_input_format(Self.demuxerName) else {
            throw AudioError("cannot decode MP4 audio: this FFmpeg has no MP4 demuxer")
        }
        handles.demuxer = soundpack_avformat_alloc_context()
        guard handles.demuxer != nil else { throw AudioError("cannot decode MP4 audio: out of memory") }
        handles.demuxer?.pointee.pb = io
        var options: OpaquePointer?
        defer { soundpack_av_dict_free(&options) }
        // No other demuxer, no protocol, no external data references (drefs name other files).
        for (key, value) in [("format_whitelist", Self.demuxerName), ("protocol_whitelist", "none"), ("enable_drefs", "0")] {
            try Self.check(soundpack_av_dict_set(&options, key, value), "cannot set up the MP4 reader")
        }
        // On failure avformat_open_input frees the context and sets it to NULL.
        try Self.check(soundpack_avformat_open_input(&handles.demuxer, demuxer, &options), "not a readable MP4 file")
        guard let context = handles.demuxer else { throw AudioError("not a readable MP4 file") }
        return context
    }

    /// The first audio track and its parameters; the other tracks are not even read.
    private static func firstAudioTrack(
        of context: UnsafeMutablePointer<AVFormatContext>
    ) throws(AudioError) -> (UnsafeMutablePointer<AVStream>, UnsafeMutablePointer<AVCodecParameters>) {
        var chosen: UnsafeMutablePointer<AVStream>?
        for index in 0..<Int(context.pointee.nb_streams) {
            guard let candidate = context.pointee.streams?[index] else { continue }
            if chosen == nil, candidate.pointee.codecpar?.pointee.codec_type == AVMEDIA_TYPE_AUDIO {
                chosen = candidate
            } else {
                candidate.pointee.discard = AVDISCARD_ALL
            }
        }
        guard let track = chosen, let parameters = track.pointee.codecpar else {
            throw AudioError("the MP4 file holds no audio track")
        }
        return (track, parameters)
    }

    /// Checks what the track's header declares before anything is decoded: its rate, channels,
    /// length (returned, in seconds; 0 when it declares none) and, for ALAC, its frame length.
    private static func checkDeclared(
        _ track: UnsafeMutablePointer<AVStream>, _ parameters: UnsafeMutablePointer<AVCodecParameters>, codec: Codec, limits: AudioLimits
    ) throws(AudioError) -> Double {
        let declaredRate = Int(parameters.pointee.sample_rate), declaredChannels = Int(parameters.pointee.ch_layout.nb_channels)
        guard declaredRate > 0, declaredRate <= 384_000 else { throw AudioError("the MP4 audio track declares a sample rate of \(declaredRate) Hz") }
        guard limits.channels.contains(declaredChannels) else {
            throw AudioError("\(declaredChannels) channels; clips must have \(limits.channels.lowerBound) or \(limits.channels.upperBound)")
        }
        let timeBase = track.pointee.time_base
        var declaredSeconds = 0.0
        if track.pointee.duration > 0, timeBase.num > 0, timeBase.den > 0 {
            declaredSeconds = Double(track.pointee.duration) * Double(timeBase.num) / Double(timeBase.den)
            guard declaredSeconds < Double(limits.maxSeconds) else {
                throw AudioError("declares \(Int(declaredSeconds)) s of audio; clips must hold under \(limits.maxSeconds) s")
            }
        }
        if codec == .alac {
            // The ALAC cookie as FFmpeg keeps it: size, 'alac', version, then the frame length.
            let size = Int(parameters.pointee.extradata_size)
            guard size >= 16, let cookie = parameters.pointee.extradata else { throw AudioError("the ALAC track has no decoder configuration") }
            let frameLength = (12..<16).reduce(UInt32(0)) { $0 << 8 | UInt32(cookie[$1]) }
            guard frameLength > 0, frameLength <= Self.maxALACFrameLength else {
                throw AudioError("the ALAC track declares frames of \(frameLength) samples (at most \(Self.maxALACFrameLength) are read)")
            }
        }
        return declaredSeconds
    }

    /// Opens the track's decoder on one thread, with a packet and a frame to decode with.
    private static func openCodec(
        _ handles: FFmpegHandles, _ parameters: UnsafeMutablePointer<AVCodecParameters>, codec: Codec
    ) throws(AudioError) -> UnsafeMutablePointer<AVCodecContext> {
        guard let decoder = soundpack_avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw AudioError("cannot decode MP4 audio: this FFmpeg has no \(codec.rawValue) decoder")
        }
        handles.codec = soundpack_avcodec_alloc_context3(decoder)
        guard let codecContext = handles.codec else { throw AudioError("cannot decode MP4 audio: out of memory") }
        try Self.check(soundpack_avcodec_parameters_to_context(codecContext, parameters), "cannot set up the \(codec.rawValue) decoder")
        codecContext.pointee.thread_count = 1
        try Self.check(soundpack_avcodec_open2(codecContext, decoder, nil), "cannot open the \(codec.rawValue) decoder")
        handles.packet = soundpack_av_packet_alloc()
        handles.frame = soundpack_av_frame_alloc()
        guard handles.packet != nil, handles.frame != nil else { throw AudioError("cannot decode MP4 audio: out of memory") }
        return codecContext
    }

    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int {
        let channels = max(format.channels, 1)
        while pending.count - pendingStart < channels, !finished {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            _ = try decodeFrame(expecting: (format.sampleRate, format.channels))
        }
        let frames = min((pending.count - pendingStart) / channels, buffer.count / channels)
        guard frames > 0 else { return 0 }
        let count = frames * channels
        pending.withUnsafeBufferPointer { source in
            _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<count]).initialize(from: source[pendingStart..<(pendingStart + count)])
        }
        pendingStart += count
        return frames
    }

    /// Decodes the next frame into `pending`: its rate and channels, nil at the end. A frame in
    /// another format than `expecting` is refused: the track changed format midway.
    private func decodeFrame(expecting: (rate: Int, channels: Int)?) throws(AudioError) -> (rate: Int, channels: Int)? {
        guard let codec = handles.codec, let packet = handles.packet, let frame = handles.frame, let demuxer = handles.demuxer else { return nil }
        while !finished {
            let received = soundpack_avcodec_receive_frame(codec, frame)
            if received == 0 {
                defer { soundpack_av_frame_unref(frame) }
                let shape = try append(frame.pointee)
                if let expecting, expecting != (shape.rate, shape.channels) {
                    throw AudioError("the audio changes format midway (\(shape.rate) Hz, \(shape.channels) channels after \(expecting.rate) Hz, \(expecting.channels) channels)")
                }
                if shape.frames > 0 { return (shape.rate, shape.channels) }
                continue
            }
            if received == SOUNDPACK_AVERROR_EOF { finished = true; break }
            guard received == SOUNDPACK_AVERROR_EAGAIN, !draining else { try Self.check(received, "decoding failed"); continue }
            // The decoder wants input: the next packet of the chosen track, or the end.
            let read = soundpack_av_read_frame(demuxer, packet)
            if read == SOUNDPACK_AVERROR_EOF {
                draining = true
                try Self.check(soundpack_avcodec_send_packet(codec, nil), "decoding failed")
                continue
            }
            try Self.check(read, "the MP4 file cannot be read")
            defer { soundpack_av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream else { continue }
            try Self.check(soundpack_avcodec_send_packet(codec, packet), "decoding failed")
        }
        return nil
    }

    /// Appends a decoded frame's samples to `pending` as interleaved floats in [-1, 1].
    private func append(_ frame: AVFrame) throws(AudioError) -> (rate: Int, channels: Int, frames: Int) {
        let count = Int(frame.nb_samples), channels = Int(frame.ch_layout.nb_channels), rate = Int(frame.sample_rate)
        guard count >= 0, count <= Self.maxFrameSamples, (1...8).contains(channels) else {
            throw AudioError("the decoder returned a frame of \(count) samples in \(channels) channels")
        }
        decodedFrames += Int64(count)
        guard decodedFrames <= maxFrames else { throw AudioError("holds more audio than a clip may (\(decodedFrames) frames decoded)") }
        guard count > 0 else { return (rate, channels, 0) }
        let sampleFormat = AVSampleFormat(rawValue: frame.format)
        let planar: Bool
        switch sampleFormat {
        case AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_S32P, AV_SAMPLE_FMT_DBLP, AV_SAMPLE_FMT_U8P: planar = true
        case AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_DBL, AV_SAMPLE_FMT_U8: planar = false
        default: throw AudioError("the decoder returned samples in format \(frame.format), which soundpack does not convert")
        }
        guard let planes = frame.extended_data, (0..<(planar ? channels : 1)).allSatisfy({ planes[$0] != nil }) else {
            throw AudioError("the decoder returned a frame without samples")
        }
        pending.reserveCapacity(pending.count + count * channels)
        func convert<Sample>(_: Sample.Type, _ scale: (Sample) -> Float) {
            for index in 0..<count {
                for channel in 0..<channels {
                    let plane = UnsafeRawPointer(planes[planar ? channel : 0]!).assumingMemoryBound(to: Sample.self)
                    pending.append(scale(plane[planar ? index : index * channels + channel]))
                }
            }
        }
        switch sampleFormat {
        case AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_FLT: convert(Float.self) { $0 }
        case AV_SAMPLE_FMT_DBLP, AV_SAMPLE_FMT_DBL: convert(Double.self) { Float($0) }
        case AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_S16: convert(Int16.self) { Float($0) / 32_768 }
        case AV_SAMPLE_FMT_S32P, AV_SAMPLE_FMT_S32: convert(Int32.self) { Float($0) / 2_147_483_648 }
        default: convert(UInt8.self) { (Float($0) - 128) / 128 }
        }
        return (rate, channels, count)
    }

    /// Throws FFmpeg's message for a negative return code, after `what`.
    private static func check(_ code: Int32, _ what: String) throws(AudioError) {
        guard code < 0 else { return }
        var text = [CChar](repeating: 0, count: 128)
        let message = soundpack_av_strerror(code, &text, text.count) == 0
            ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "FFmpeg error \(code)"
        throw AudioError("\(what) (\(message))")
    }
}

/// Every FFmpeg handle of one decoder, freed together however far opening got.
private final class FFmpegHandles {
    let input: MemoryInput
    var io: UnsafeMutablePointer<AVIOContext>?
    var demuxer: UnsafeMutablePointer<AVFormatContext>?
    var codec: UnsafeMutablePointer<AVCodecContext>?
    var packet: UnsafeMutablePointer<AVPacket>?
    var frame: UnsafeMutablePointer<AVFrame>?

    init(bytes: [UInt8]) { input = MemoryInput(bytes: bytes) }

    deinit {
        soundpack_av_frame_free(&frame)
        soundpack_av_packet_free(&packet)
        soundpack_avcodec_free_context(&codec)
        // With our own AVIOContext the demuxer leaves it alone; its buffer may have been replaced.
        soundpack_avformat_close_input(&demuxer)
        if let io {
            withUnsafeMutablePointer(to: &io.pointee.buffer) { soundpack_av_freep($0) }
            soundpack_avio_context_free(&self.io)
        }
    }
}

/// The file's bytes with a read position, behind the AVIOContext's callbacks.
private final class MemoryInput {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> MemoryInput {
        Unmanaged<MemoryInput>.fromOpaque(pointer!).takeUnretainedValue()
    }

    func read(_ destination: UnsafeMutablePointer<UInt8>?, _ size: Int32) -> Int32 {
        guard offset < bytes.count else { return SOUNDPACK_AVERROR_EOF }
        guard let destination, size > 0 else { return 0 }
        let count = min(Int(size), bytes.count - offset)
        bytes.withUnsafeBufferPointer { source in
            destination.update(from: source.baseAddress! + offset, count: count)
        }
        offset += count
        return Int32(count)
    }

    func seek(_ distance: Int64, _ whence: Int32) -> Int64 {
        if whence & Int32(AVSEEK_SIZE) != 0 { return Int64(bytes.count) }
        let base: Int64
        switch whence & ~Int32(AVSEEK_FORCE) {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = Int64(offset)
        case SEEK_END: base = Int64(bytes.count)
        default: return -1
        }
        // The demuxer seeks by offsets read from the file: an overflow is a failed seek, not a trap.
        let (target, overflow) = base.addingReportingOverflow(distance)
        guard !overflow, target >= 0, target <= Int64(bytes.count) else { return -1 }
        offset = Int(target)
        return target
    }
}

// Samples stored as they are (16-bit PCM) or one byte each (G.711 µ-law, A-law), in CAF and WAV
// files laid out as libsndfile and `convert` write them, decoded here: a table or a conversion per
// sample instead of libsndfile's buffers and its per-file set-up.

import SoundpackCore

/// Decodes 16-bit PCM, µ-law and A-law from CAF and WAV files in the layouts libsndfile writes (see
/// `caf(_:_:)` and `wav(_:)`). Any other layout is left to libsndfile, so both readers always agree
/// on what a file holds: the same format, frame count and samples, bit for bit (`PlainDecoderTests`,
/// the `plain` fuzz target).
final class PlainDecoder: AudioDecoder {
    /// How a sample is stored.
    enum Encoding {
        case muLaw, aLaw, int16LittleEndian, int16BigEndian

        var bytes: Int { self == .muLaw || self == .aLaw ? 1 : 2 }
        var codec: Codec { self == .muLaw ? .ulaw : self == .aLaw ? .alaw : .lpcm }
    }

    let format: AudioFormat
    private let bytes: [UInt8]
    private let encoding: Encoding
    private var offset: Int
    private let end: Int

    private init(bytes: [UInt8], audio: Range<Int>, encoding: Encoding, container: Container, sampleRate: Int, channels: Int) {
        let frames = audio.count / (channels * encoding.bytes)
        format = AudioFormat(container: container, codec: encoding.codec, bitsPerSample: encoding.bytes == 2 ? 16 : nil,
                             sampleRate: sampleRate, channels: channels, frames: Int64(frames))
        self.bytes = bytes
        self.encoding = encoding
        offset = audio.lowerBound
        end = offset + frames * channels * encoding.bytes
    }

    /// A CAF file of 'desc', 'free' chunks, then 'data' of a declared size to the end of the file
    /// or one pad byte short of it, holding `ulaw`, `alaw` or 16-bit integer `lpcm` in packets of
    /// one frame; nil otherwise.
    static func caf(_ bytes: [UInt8], _ caf: CAFFile) -> PlainDecoder? {
        let encoding: Encoding
        switch (caf.formatID, caf.bitsPerChannel) {
        case ("ulaw", 8): encoding = .muLaw
        case ("alaw", 8): encoding = .aLaw
        case ("lpcm", 16): encoding = caf.formatFlags & 2 != 0 ? .int16LittleEndian : .int16BigEndian
        default: return nil
        }
        // libsndfile's own conditions (no float flag, a whole sample rate it reads the same way),
        // with one frame per packet.
        guard caf.formatFlags & 1 == 0, (1...8).contains(caf.channels), caf.bytesPerPacket == caf.channels * encoding.bytes,
              caf.framesPerPacket == 1, caf.descSize == 32, let rate = wholeRate(caf.sampleRate),
              caf.firstChunk == "desc", !caf.othersBeforeAudio, caf.chunksAfterAudio == 0,
              caf.bytesAfterAudio <= 1, !caf.audioOpenEnded,
              // libsndfile skips chunks through a header cache of 100 KiB: past about 50 KiB of
              // chunks it reads the audio from the wrong place, so such files stay its own.
              caf.audio.lowerBound <= maxAudioOffset
        else { return nil }
        return PlainDecoder(bytes: bytes, audio: caf.audio, encoding: encoding, container: .caf, sampleRate: rate, channels: caf.channels)
    }

    /// A WAV file whose RIFF size is the file's, of a 'fmt ' chunk (16 bytes for PCM, 18 with no
    /// extension for G.711), a 4-byte 'fact' chunk for G.711, then 'data' to the end of the file
    /// or one pad byte short of it; nil otherwise.
    static func wav(_ bytes: [UInt8]) -> PlainDecoder? {
        func le(_ at: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        guard bytes.count >= 44, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<16].elementsEqual("WAVEfmt ".utf8),
              le(4, 4) == bytes.count - 8 else { return nil }
        let (fmtSize, tag, channels, rate, byteRate, blockAlign, bits) = (le(16, 4), le(20, 2), le(22, 2), le(24, 4), le(28, 4), le(32, 2), le(34, 2))
        let encoding: Encoding, dataChunk: Int
        switch (tag, fmtSize, bits) {
        case (1, 16, 16):
            encoding = .int16LittleEndian
            dataChunk = 36
        case (6, 18, 8), (7, 18, 8):
            // No extension (cbSize 0), then 'fact' with its 4-byte frame count.
            guard bytes.count >= 58, le(36, 2) == 0, bytes[38..<42].elementsEqual("fact".utf8), le(42, 4) == 4 else { return nil }
            encoding = tag == 7 ? .muLaw : .aLaw
            dataChunk = 50
        default:
            return nil
        }
        guard (1...8).contains(channels), (1...1_000_000).contains(rate), blockAlign == channels * encoding.bytes,
              byteRate == rate * blockAlign, bytes[dataChunk..<dataChunk + 4].elementsEqual("data".utf8) else { return nil }
        let start = dataChunk + 8, size = le(dataChunk + 4, 4)
        guard size <= bytes.count - start, bytes.count - start - size <= 1 else { return nil }
        // libsndfile refuses a WAV whose first four bytes of audio (the pad byte too) say WavPack or Ogg.
        if bytes.count >= start + 4, ["wvpk", "OggS"].contains(where: { bytes[start..<start + 4].elementsEqual($0.utf8) }) { return nil }
        return PlainDecoder(bytes: bytes, audio: start..<start + size, encoding: encoding, container: .wav, sampleRate: rate, channels: channels)
    }

    /// Where a CAF file's audio may start for this decoder: libsndfile's files start it at 4 KiB.
    static let maxAudioOffset = 16_384

    /// `rate` when it is a whole number of hertz libsndfile reads the same (1 Hz to 1 MHz).
    private static func wholeRate(_ rate: Double) -> Int? {
        rate.isFinite && rate >= 1 && rate <= 1_000_000 && rate.rounded() == rate ? Int(rate) : nil
    }

    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int {
        let channels = format.channels, width = encoding.bytes
        let frames = min(buffer.count / channels, (end - offset) / (channels * width))
        let count = frames * channels
        bytes.withUnsafeBufferPointer { bytes in
            let input = bytes.baseAddress! + offset
            switch encoding {
            case .muLaw, .aLaw:
                (encoding == .muLaw ? Self.muLaw : Self.aLaw).withUnsafeBufferPointer { table in
                    for index in 0..<count { buffer[index] = table[Int(input[index])] }
                }
            case .int16LittleEndian:
                for index in 0..<count { buffer[index] = Float(Int16(bitPattern: UInt16(input[2 * index]) | UInt16(input[2 * index + 1]) << 8)) / 32_768 }
            case .int16BigEndian:
                for index in 0..<count { buffer[index] = Float(Int16(bitPattern: UInt16(input[2 * index]) << 8 | UInt16(input[2 * index + 1]))) / 32_768 }
            }
        }
        offset += count * width
        return frames
    }

    /// Each byte's sample, scaled as libsndfile scales 16-bit values to floats (÷ 32768).
    static let muLaw: [Float] = (0...255).map { Float(muLawValue(UInt8($0))) / 32_768 }
    static let aLaw: [Float] = (0...255).map { Float(aLawValue(UInt8($0))) / 32_768 }

    /// G.711 µ-law expansion to 16 bits: the complemented byte holds sign, 3-bit segment and
    /// 4-bit step; the magnitude is ((step·8 + 132) << segment) − 132.
    static func muLawValue(_ byte: UInt8) -> Int {
        let code = Int(~byte)
        let magnitude = ((((code & 0x0F) << 3) + 0x84) << ((code & 0x70) >> 4)) - 0x84
        return code & 0x80 != 0 ? -magnitude : magnitude
    }

    /// G.711 A-law expansion to 16 bits: the byte with even bits inverted holds sign (set for
    /// positive), 3-bit segment and 4-bit step.
    static func aLawValue(_ byte: UInt8) -> Int {
        let code = Int(byte ^ 0x55)
        let segment = (code & 0x70) >> 4
        var magnitude = (code & 0x0F) << 4
        switch segment {
        case 0: magnitude += 8
        case 1: magnitude += 0x108
        default: magnitude = (magnitude + 0x108) << (segment - 1)
        }
        return code & 0x80 != 0 ? magnitude : -magnitude
    }
}

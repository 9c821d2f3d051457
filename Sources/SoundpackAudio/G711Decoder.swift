// G.711 µ-law and A-law in CAF, decoded by table: one byte is one sample, so a 256-entry table
// does what libsndfile does through its own tables and buffers, for the files `convert` writes.

import SoundpackCore

/// Decodes the `ulaw` and `alaw` packets of a CAF file laid out as libsndfile and `convert` write
/// it ('desc', 'free' chunks, then 'data' of a declared size to the end of the file, or one pad
/// byte short of it).
/// Any other layout is left to libsndfile, so both readers always agree on what a file holds:
/// the same format, frame count and samples (`G711DecoderTests`, the `g711` fuzz target).
final class G711Decoder: AudioDecoder {
    let format: AudioFormat
    private let bytes: [UInt8]
    private let table: [Float]
    private var offset: Int
    private let end: Int

    /// nil when the file is not µ-law or A-law, or not laid out as above.
    init?(bytes: [UInt8], caf: CAFFile) {
        let codec: Codec
        switch caf.formatID {
        case "ulaw": codec = .ulaw
        case "alaw": codec = .alaw
        default: return nil
        }
        // libsndfile's own conditions for these codecs (8 bits, no float flag), with one byte per
        // sample, one frame per packet and a whole sample rate it reads the same way.
        guard caf.bitsPerChannel == 8, caf.formatFlags & 1 == 0, (1...8).contains(caf.channels),
              caf.bytesPerPacket == caf.channels, caf.framesPerPacket == 1, caf.descSize == 32,
              caf.sampleRate.isFinite, caf.sampleRate >= 1, caf.sampleRate <= 1_000_000, caf.sampleRate.rounded() == caf.sampleRate,
              caf.chunks.first == "desc", caf.chunks.last == "data", caf.chunks.dropFirst().dropLast().allSatisfy({ $0 == "free" }),
              caf.bytesAfterAudio <= 1, !caf.audioOpenEnded
        else { return nil }
        let frames = caf.audio.count / caf.channels
        format = AudioFormat(container: .caf, codec: codec, bitsPerSample: nil, sampleRate: Int(caf.sampleRate),
                             channels: caf.channels, frames: Int64(frames))
        self.bytes = bytes
        table = codec == .ulaw ? Self.muLaw : Self.aLaw
        offset = caf.audio.lowerBound
        end = offset + frames * caf.channels
    }

    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int {
        let channels = format.channels
        let frames = min(buffer.count / channels, (end - offset) / channels)
        let count = frames * channels
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { bytes in
                for index in 0..<count { buffer[index] = table[Int(bytes[offset + index])] }
            }
        }
        offset += count
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

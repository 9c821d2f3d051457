// Apple IMA4 (IMA/ADPCM as Core Audio and QuickTime lay it out): packets of 64 frames, 34 bytes per
// channel, each a 2-byte header (9-bit predictor, 7-bit step index) and 64 nibbles, low nibble
// first; channels one packet after the other. A quarter of 16-bit PCM's bytes, and a notification
// sound iOS plays ("Linear PCM, MA4 (IMA/ADPCM), µLaw, aLaw": UNNotificationSound).
//
// Decoders differ at a packet's start. Apple's and ffmpeg's adpcm_ima_qt keep their running
// predictor when the header's step index equals theirs and its predictor is within the header's
// 7-bit resolution; libsndfile restarts from the header every packet. So every packet here starts
// from the state its header states, with a step index that differs from the running one: all of
// them decode the same samples. The index is chosen per packet as the one (of those) that codes
// the packet's 64 frames with the least squared error.

/// Encodes interleaved 16-bit samples as IMA4 packets.
struct IMA4Encoder {
    static let bytesPerChannelPacket = IMA4Decoder.bytesPerChannelPacket
    static let framesPerPacket = IMA4Decoder.framesPerPacket

    /// The packets, the frames they hold that are audio, and the silent frames padding the last packet.
    struct Encoded {
        var packets: [UInt8]
        var packetCount: Int
        var validFrames: Int
        var remainderFrames: Int
    }

    private struct State {
        var predictor: Int32 = 0
        var index = 0
    }

    static func encode(_ samples: [Int16], channels: Int) -> Encoded {
        precondition(channels >= 1)
        let frames = samples.count / channels
        let packetCount = (frames + framesPerPacket - 1) / framesPerPacket
        var packets = [UInt8](repeating: 0, count: packetCount * bytesPerChannelPacket * channels)
        var states = [State](repeating: State(), count: channels)
        var block = [Int32](repeating: 0, count: framesPerPacket)
        for packet in 0..<packetCount {
            for channel in 0..<channels {
                for i in 0..<framesPerPacket {
                    let frame = packet * framesPerPacket + i
                    block[i] = frame < frames ? Int32(samples[frame * channels + channel]) : 0
                }
                let base = (packet * channels + channel) * bytesPerChannelPacket
                encodePacket(block, state: &states[channel], into: &packets, at: base)
            }
        }
        return Encoded(packets: packets, packetCount: packetCount, validFrames: frames,
                       remainderFrames: packetCount * framesPerPacket - frames)
    }

    /// Codes one channel's 64 frames at `base`, from a start state the header can state exactly.
    private static func encodePacket(_ block: [Int32], state: inout State, into packets: inout [UInt8], at base: Int) {
        // The header holds the predictor's top 9 bits: start from the nearest value it can hold.
        let start = min(max((state.predictor + 64) & ~0x7F, -32768), 32640)
        var bestIndex = -1
        var bestError = Int64.max
        for index in 0...88 where index != state.index {
            var trial = State(predictor: start, index: index)
            var error: Int64 = 0
            for sample in block {
                let decoded = step(&trial, toward: sample).decoded
                let difference = Int64(sample - decoded)
                error += difference * difference
                if error >= bestError { break }
            }
            if error < bestError { (bestError, bestIndex) = (error, index) }
        }
        state = State(predictor: start, index: bestIndex)
        let header = UInt16(bitPattern: Int16(start)) | UInt16(bestIndex)
        packets[base] = UInt8(header >> 8)
        packets[base + 1] = UInt8(header & 0xFF)
        for i in stride(from: 0, to: framesPerPacket, by: 2) {
            let low = step(&state, toward: block[i]).nibble
            let high = step(&state, toward: block[i + 1]).nibble
            packets[base + 2 + i / 2] = UInt8(low | high << 4)
        }
    }

    /// The nibble that brings the predictor nearest `sample` (the reference quantiser), and the
    /// sample a decoder reconstructs from it; advances `state` as a decoder would.
    private static func step(_ state: inout State, toward sample: Int32) -> (nibble: Int, decoded: Int32) {
        let stepSize = IMA4Decoder.stepTable[state.index]
        var difference = sample - state.predictor
        var nibble = 0
        if difference < 0 { nibble = 8; difference = -difference }
        // The decoder's reconstruction: step/8 + the bits' shares of step, step/2, step/4.
        var reconstructed = stepSize >> 3
        if difference >= stepSize { nibble |= 4; difference -= stepSize; reconstructed += stepSize }
        if difference >= stepSize >> 1 { nibble |= 2; difference -= stepSize >> 1; reconstructed += stepSize >> 1 }
        if difference >= stepSize >> 2 { nibble |= 1; reconstructed += stepSize >> 2 }
        let next = state.predictor + (nibble & 8 != 0 ? -reconstructed : reconstructed)
        state.predictor = min(max(next, -32768), 32767)
        state.index = min(max(state.index + IMA4Decoder.indexTable[nibble], 0), 88)
        return (nibble, state.predictor)
    }
}

/// The IMA4 files the writer makes: CAF (with its packet table, so the padding of the last packet
/// is not played) and AIFF-C (QuickTime's layout: the frame count counts packets).
enum IMA4File {
    static func caf(_ encoded: IMA4Encoder.Encoded, sampleRate: Int, channels: Int) -> [UInt8] {
        var out = ByteWriter()
        out.fourCC("caff"); out.uint16(1); out.uint16(0)
        out.fourCC("desc"); out.int64(32)
        out.float64(Double(sampleRate)); out.fourCC("ima4"); out.uint32(0)
        out.uint32(UInt32(IMA4Encoder.bytesPerChannelPacket * channels)); out.uint32(UInt32(IMA4Encoder.framesPerPacket))
        out.uint32(UInt32(channels)); out.uint32(0)
        out.fourCC("pakt"); out.int64(24)
        out.int64(Int64(encoded.packetCount)); out.int64(Int64(encoded.validFrames))
        out.uint32(0); out.uint32(UInt32(encoded.remainderFrames))
        out.fourCC("data"); out.int64(Int64(4 + encoded.packets.count))
        out.uint32(0)  // edit count
        out.bytes.append(contentsOf: encoded.packets)
        return out.bytes
    }

    static func aifc(_ encoded: IMA4Encoder.Encoded, sampleRate: Int, channels: Int) -> [UInt8] {
        var out = ByteWriter()
        let commSize = 24, ssndSize = 8 + encoded.packets.count
        out.fourCC("FORM"); out.uint32(UInt32(4 + (8 + 4) + (8 + commSize) + (8 + ssndSize + ssndSize % 2)))
        out.fourCC("AIFC")
        out.fourCC("FVER"); out.uint32(4); out.uint32(0xA280_5140)  // AIFC version 1
        out.fourCC("COMM"); out.uint32(UInt32(commSize))
        out.uint16(UInt16(channels)); out.uint32(UInt32(encoded.packetCount)); out.uint16(16)
        out.extended80(Double(sampleRate))
        out.fourCC("ima4"); out.uint16(0)  // an empty compression name, padded to even
        out.fourCC("SSND"); out.uint32(UInt32(ssndSize)); out.uint32(0); out.uint32(0)
        out.bytes.append(contentsOf: encoded.packets)
        if ssndSize % 2 == 1 { out.bytes.append(0) }
        return out.bytes
    }
}

/// Big-endian fields, appended.
struct ByteWriter {
    var bytes: [UInt8] = []
    mutating func fourCC(_ code: StaticString) {
        code.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
    mutating func uint16(_ value: UInt16) { bytes.append(UInt8(value >> 8)); bytes.append(UInt8(value & 0xFF)) }
    mutating func uint32(_ value: UInt32) { for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(value >> UInt32(shift) & 0xFF)) } }
    mutating func int64(_ value: Int64) { uint64(UInt64(bitPattern: value)) }
    mutating func uint64(_ value: UInt64) { for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(value >> UInt64(shift) & 0xFF)) } }
    mutating func float64(_ value: Double) { uint64(value.bitPattern) }
    /// An 80-bit IEEE extended number (AIFF's sample rate), for a positive whole number.
    mutating func extended80(_ value: Double) {
        let whole = UInt64(value)
        guard whole > 0 else { bytes.append(contentsOf: [UInt8](repeating: 0, count: 10)); return }
        let shift = whole.leadingZeroBitCount
        uint16(UInt16(16383 + 63 - shift))
        uint64(whole << UInt64(shift))
    }
}

// Apple IMA4 in CAF, which libsndfile 1.2 refuses: 34-byte packets per channel, each a 2-byte
// header (9-bit predictor, 7-bit step index) and 64 4-bit samples, low nibble first.

/// Decodes the ima4 packets of a CAF file, as `afconvert -d ima4 -f caff` writes them.
final class IMA4Decoder: AudioDecoder {
    static let bytesPerChannelPacket = 34
    static let framesPerPacket = 64

    let format: AudioFormat
    private let bytes: [UInt8]
    private let audio: Range<Int>
    private var packetOffset: Int
    private var framesLeft: Int64
    private var skip: Int
    private var predictors: [Int32]
    private var stepIndices: [Int]
    /// Decoded frames of the current packet not yet handed out.
    private var pending: [Float]
    private var pendingStart: Int

    init(bytes: [UInt8], caf: CAFFile) throws(AudioError) {
        let channels = caf.channels
        guard (1...8).contains(channels) else { throw AudioError("CAF ima4 with \(channels) channels is not supported") }
        guard caf.framesPerPacket == Self.framesPerPacket, caf.bytesPerPacket == Self.bytesPerChannelPacket * channels else {
            throw AudioError("CAF ima4 packets must be \(Self.bytesPerChannelPacket) bytes per channel for 64 frames, file declares \(caf.bytesPerPacket) bytes for \(caf.framesPerPacket)")
        }
        guard caf.sampleRate.isFinite, caf.sampleRate >= 1, caf.sampleRate <= 1_000_000 else {
            throw AudioError("CAF declares an impossible sample rate \(caf.sampleRate)")
        }
        let packets = caf.audio.count / caf.bytesPerPacket
        let available = Int64(packets) * Int64(Self.framesPerPacket)
        var frames = available - Int64(caf.primingFrames)
        if let valid = caf.validFrames, valid >= 0 {
            // valid and priming come from the file: add them without trusting either.
            let (declared, overflow) = valid.addingReportingOverflow(Int64(caf.primingFrames))
            guard !overflow, declared <= available else {
                throw AudioError("truncated: the packet table declares \(valid) frames (and \(caf.primingFrames) priming) but the data holds \(available)")
            }
            frames = valid
        }
        self.format = AudioFormat(
            container: .caf, codec: .ima4, bitsPerSample: nil,
            sampleRate: Int(caf.sampleRate.rounded()), channels: channels, frames: max(frames, 0))
        self.bytes = bytes
        self.audio = caf.audio
        self.packetOffset = caf.audio.lowerBound
        self.framesLeft = max(frames, 0)
        self.skip = caf.primingFrames
        self.predictors = Array(repeating: 0, count: channels)
        self.stepIndices = Array(repeating: 0, count: channels)
        self.pending = Array(repeating: 0, count: Self.framesPerPacket * channels)
        self.pendingStart = pending.count  // nothing decoded yet
    }

    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int {
        let channels = format.channels
        let wanted = buffer.count / channels
        var written = 0
        while written < wanted && framesLeft > 0 {
            if pendingStart >= pending.count {
                guard try decodePacket() else { break }
                continue
            }
            let available = (pending.count - pendingStart) / channels
            let n = min(available, wanted - written, Int(clamping: framesLeft))
            for i in 0..<(n * channels) { buffer[written * channels + i] = pending[pendingStart + i] }
            pendingStart += n * channels
            written += n
            framesLeft -= Int64(n)
        }
        return written
    }

    /// Decodes the next packet into `pending`, dropping priming frames; false at the end of data.
    private func decodePacket() throws(AudioError) -> Bool {
        let channels = format.channels
        let packetBytes = Self.bytesPerChannelPacket * channels
        guard packetOffset + packetBytes <= audio.upperBound else { return false }
        for channel in 0..<channels {
            let base = packetOffset + channel * Self.bytesPerChannelPacket
            let header = Int32(Int16(bitPattern: UInt16(bytes[base]) << 8 | UInt16(bytes[base + 1])))
            let index = Int(header & 0x7F)
            let predictor = header & ~0x7F
            guard index <= 88 else { throw AudioError("corrupt ima4 packet at byte \(base): step index \(index) above 88") }
            // Apple's decoder keeps the running predictor unless the header disagrees by more than
            // its 7-bit resolution or carries a new step index; ffmpeg's adpcm_ima_qt does the same.
            if stepIndices[channel] != index || abs(predictor - predictors[channel]) > 0x7F {
                stepIndices[channel] = index
                predictors[channel] = predictor
            }
            for i in 0..<32 {
                let byte = bytes[base + 2 + i]
                pending[(2 * i) * channels + channel] = expand(Int(byte & 0x0F), channel)
                pending[(2 * i + 1) * channels + channel] = expand(Int(byte >> 4), channel)
            }
        }
        packetOffset += packetBytes
        pendingStart = 0
        if skip > 0 {
            let dropped = min(skip, Self.framesPerPacket)
            pendingStart = dropped * channels
            skip -= dropped
        }
        return true
    }

    private func expand(_ nibble: Int, _ channel: Int) -> Float {
        let step = Self.stepTable[stepIndices[channel]]
        var diff = step >> 3
        if nibble & 4 != 0 { diff += step }
        if nibble & 2 != 0 { diff += step >> 1 }
        if nibble & 1 != 0 { diff += step >> 2 }
        var value = predictors[channel] + (nibble & 8 != 0 ? -diff : diff)
        value = min(max(value, -32768), 32767)
        predictors[channel] = value
        stepIndices[channel] = min(max(stepIndices[channel] + Self.indexTable[nibble], 0), 88)
        return Float(value) / 32768
    }

    static let indexTable: [Int] = [-1, -1, -1, -1, 2, 4, 6, 8, -1, -1, -1, -1, 2, 4, 6, 8]
    static let stepTable: [Int32] = [
        7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 21, 23, 25, 28, 31, 34, 37, 41, 45, 50, 55, 60, 66, 73, 80, 88, 97,
        107, 118, 130, 143, 157, 173, 190, 209, 230, 253, 279, 307, 337, 371, 408, 449, 494, 544, 598, 658, 724, 796,
        876, 963, 1060, 1166, 1282, 1411, 1552, 1707, 1878, 2066, 2272, 2499, 2749, 3024, 3327, 3660, 4026, 4428,
        4871, 5358, 5894, 6484, 7132, 7845, 8630, 9493, 10442, 11487, 12635, 13899, 15289, 16818, 18500, 20350,
        22385, 24623, 27086, 29794, 32767,
    ]
}

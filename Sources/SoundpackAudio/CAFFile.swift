// Core Audio Format chunk parsing: the 'desc', 'data' and 'pakt' chunks a decoder needs.

/// The parts of a CAF file that locate and describe its audio.
struct CAFFile {
    var sampleRate: Double
    var formatID: String
    var formatFlags: UInt32
    var bytesPerPacket: Int
    var framesPerPacket: Int
    var channels: Int
    var bitsPerChannel: Int
    /// Byte range of the audio packets inside the file.
    var audio: Range<Int>
    /// Frames the packet table declares valid (priming and remainder excluded), when present.
    var validFrames: Int64?
    var primingFrames: Int
    /// The layout around the audio: the first chunk's type, whether any chunk other than 'free'
    /// comes between it and 'data', how many chunks follow 'data', and the bytes past it.
    var firstChunk = ""
    var othersBeforeAudio = false
    var chunksAfterAudio = 0
    var bytesAfterAudio = 0
    /// The 'data' chunk's size is -1 (to the end of the file).
    var audioOpenEnded = false
    /// The declared size of the 'desc' chunk.
    var descSize: Int64 = 0

    init(_ bytes: [UInt8]) throws(AudioError) {
        var reader = ByteReader(bytes)
        guard try reader.fourCC() == "caff" else { throw AudioError("not a CAF file") }
        let version = try reader.uint16BE()
        guard version == 1 else { throw AudioError("unsupported CAF version \(version)") }
        _ = try reader.uint16BE()

        var desc: (Double, String, UInt32, Int, Int, Int, Int)?
        var audio: Range<Int>?
        var validFrames: Int64?
        var priming = 0
        while reader.remaining >= 12 {
            let type = try reader.fourCC()
            let size = try reader.int64BE()
            if audio != nil {
                chunksAfterAudio += 1
            } else if firstChunk.isEmpty {
                firstChunk = type
            } else if type != "free" && type != "data" {
                othersBeforeAudio = true
            }
            let start = reader.offset
            if type == "data" {
                audio = try Self.audio(declaring: size, at: start, in: bytes.count)
                audioOpenEnded = size == -1
                if audioOpenEnded { break }
                reader.offset = audio!.upperBound
                continue
            }
            guard size >= 0, size <= Int64(reader.remaining) else {
                throw AudioError("truncated: the CAF '\(type)' chunk declares \(size) bytes but the file has \(reader.remaining)")
            }
            var chunk = ByteReader(Array(try reader.take(Int(size))))
            switch type {
            case "desc":
                descSize = size
                desc = (try chunk.float64BE(), try chunk.fourCC(), try chunk.uint32BE(), Int(try chunk.uint32BE()),
                        Int(try chunk.uint32BE()), Int(try chunk.uint32BE()), Int(try chunk.uint32BE()))
            case "pakt":
                _ = try chunk.int64BE()
                validFrames = try chunk.int64BE()
                priming = Int(Int32(bitPattern: try chunk.uint32BE()))
            default:
                break
            }
        }
        guard let desc else { throw AudioError("CAF file has no 'desc' chunk") }
        guard let audio else { throw AudioError("CAF file has no 'data' chunk") }
        (sampleRate, formatID, formatFlags, bytesPerPacket, framesPerPacket, channels, bitsPerChannel) = desc
        self.audio = audio
        bytesAfterAudio = bytes.count - audio.upperBound
        self.validFrames = validFrames
        self.primingFrames = max(priming, 0)
    }

    /// The packets of a 'data' chunk of `size` bytes (-1: to the end of a file of `count` bytes,
    /// a recording never finalised) from `start`, after its 4-byte edit count. Every other size
    /// must fit in what is left: checked before any arithmetic on it.
    private static func audio(declaring size: Int64, at start: Int, in count: Int) throws(AudioError) -> Range<Int> {
        let end: Int
        if size == -1 {
            end = count
        } else {
            guard size >= 4, size <= Int64(count - start) else {
                throw AudioError("truncated: the CAF 'data' chunk declares \(size) bytes but the file has \(count - start)")
            }
            end = start + Int(size)
        }
        guard end - start >= 4 else {
            throw AudioError("truncated: the CAF 'data' chunk has no room for its 4-byte edit count")
        }
        return (start + 4)..<end
    }
}

// Identifies a file's container from its first bytes and catches truncated RIFF/AIFF data chunks,
// which libsndfile would otherwise open quietly with fewer frames.

import SoundpackCore

enum ContainerSniffer {
    /// The container the magic bytes announce, or nil when they announce no audio file.
    static func container(of bytes: [UInt8]) -> Container? {
        func ascii(_ range: Range<Int>) -> String? {
            guard bytes.count >= range.upperBound else { return nil }
            return String(decoding: bytes[range], as: UTF8.self)
        }
        switch ascii(0..<4) {
        case "RIFF", "RF64": return ascii(8..<12) == "WAVE" ? .wav : nil
        case "FORM":
            switch ascii(8..<12) {
            case "AIFF": return .aiff
            case "AIFC": return .aifc
            default: return nil
            }
        case "caff": return .caf
        case "fLaC": return .flac
        case "OggS": return .ogg
        default:
            if ascii(0..<3) == "ID3" { return .mp3 }
            if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0 { return .mp3 }
            return nil
        }
    }

    /// Throws when a WAV or AIFF data chunk declares more bytes than the file holds.
    static func checkComplete(_ bytes: [UInt8], container: Container) throws(AudioError) {
        switch container {
        case .wav:
            guard bytes.starts(with: Array("RIFF".utf8)) else { return }
            try walk(bytes, from: 12, littleEndian: true, dataID: "data")
        case .aiff, .aifc:
            try walk(bytes, from: 12, littleEndian: false, dataID: "SSND")
        default:
            return
        }
    }

    private static func walk(_ bytes: [UInt8], from start: Int, littleEndian: Bool, dataID: String) throws(AudioError) {
        var reader = ByteReader(bytes, offset: start)
        while reader.remaining >= 8 {
            let id = try reader.fourCC()
            let size = Int(littleEndian ? try reader.uint32LE() : try reader.uint32BE())
            if id == dataID {
                if size > reader.remaining {
                    throw AudioError("truncated: the '\(id)' chunk declares \(size) bytes but the file has \(reader.remaining)")
                }
                return
            }
            guard size <= reader.remaining else {
                throw AudioError("truncated: the '\(id)' chunk declares \(size) bytes but the file has \(reader.remaining)")
            }
            // size <= remaining, so neither the padding byte nor the sum can overflow.
            reader.offset = min(reader.offset + size + (size & 1), bytes.count)
        }
        throw AudioError("no '\(dataID)' chunk: the file holds no audio data")
    }
}

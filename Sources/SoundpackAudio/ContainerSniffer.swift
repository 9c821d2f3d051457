// Identifies a file's container from its first bytes and catches truncated RIFF/AIFF data chunks,
// which libsndfile would otherwise open quietly with fewer frames. MP4/M4A is known by its `ftyp`
// box and its audio codec named from the box tree, without FFmpeg.

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
        case _ where ascii(4..<8) == "ftyp" && ascii(8..<12).map(mp4Brands.contains) == true: return .mp4
        case "fLaC": return .flac
        case "OggS": return .ogg
        default:
            if ascii(0..<3) == "ID3" { return .mp3 }
            if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0 { return .mp3 }
            return nil
        }
    }

    /// Major brands of the ISO media files that carry sound (M4A from iPhone Voice Memos and most
    /// TTS sites, MP4, QuickTime, 3GPP); an `ftyp` with another brand (HEIC, AVIF) is no audio file.
    static let mp4Brands: Set<String> = [
        "M4A ", "M4B ", "M4P ", "M4V ", "mp41", "mp42", "mp71", "isom", "iso2", "iso3", "iso4", "iso5", "iso6",
        "qt  ", "3gp4", "3gp5", "3gp6", "3gp7", "3g2a", "dash", "avc1", "f4a ", "f4v ", "MSNV",
    ]

    /// What an MP4 file holds, for messages: `AAC in MP4 (.m4a)`, `ALAC in MP4 (.m4a)`, or the
    /// sample entry's code for another codec. Read from the first sound track's `stsd` box.
    static func mp4Audio(of bytes: [UInt8]) -> String {
        switch mp4SoundEntry(bytes) {
        case "mp4a": return "AAC in MP4 (.m4a)"
        case "alac": return "ALAC (Apple Lossless) in MP4 (.m4a)"
        case let code?: return "'\(code.quoted(limit: 4))' audio in MP4"
        case nil: return "MP4 (.m4a) without a readable sound track"
        }
    }

    /// The sample entry code (`mp4a`, `alac`, …) of the first track whose handler is `soun`.
    private static func mp4SoundEntry(_ bytes: [UInt8]) -> String? {
        /// The boxes in `range`: type and payload range; stops at the first malformed size.
        func boxes(_ range: Range<Int>) -> [(type: String, payload: Range<Int>)] {
            var found: [(String, Range<Int>)] = []
            var offset = range.lowerBound
            while range.upperBound - offset >= 8, found.count < 4_096 {
                var reader = ByteReader(bytes, offset: offset)
                guard let size32 = try? reader.uint32BE(), let type = try? reader.fourCC() else { break }
                var size = Int(size32), header = 8
                if size32 == 1 {
                    guard let large = try? reader.int64BE(), large >= 16, large <= Int64(range.upperBound - offset) else { break }
                    (size, header) = (Int(large), 16)
                } else if size32 == 0 {
                    size = range.upperBound - offset
                }
                guard size >= header, size <= range.upperBound - offset else { break }
                found.append((type, (offset + header)..<(offset + size)))
                offset += size
            }
            return found
        }
        func child(_ type: String, in range: Range<Int>) -> Range<Int>? { boxes(range).first { $0.type == type }?.payload }
        func fourCC(at offset: Int, in range: Range<Int>) -> String? {
            guard range.upperBound - offset >= 4, offset >= range.lowerBound else { return nil }
            return String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
        }
        guard let movie = child("moov", in: 0..<bytes.count) else { return nil }
        for track in boxes(movie) where track.type == "trak" {
            guard let media = child("mdia", in: track.payload), let handler = child("hdlr", in: media),
                  fourCC(at: handler.lowerBound + 8, in: handler) == "soun",
                  let info = child("minf", in: media), let table = child("stbl", in: info),
                  let description = child("stsd", in: table) else { continue }
            // stsd: version and flags, entry count, then the first entry's size and code.
            return fourCC(at: description.lowerBound + 12, in: description)
        }
        return nil
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

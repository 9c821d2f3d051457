// Bounds-checked reads of big- and little-endian integers from a file's bytes.

struct ByteReader {
    let bytes: [UInt8]
    var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }

    mutating func take(_ count: Int) throws(AudioError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else {
            throw AudioError("truncated: needs \(count) bytes at offset \(offset), file has \(remaining) left")
        }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func fourCC() throws(AudioError) -> String {
        String(decoding: try take(4), as: UTF8.self)
    }

    mutating func uint16BE() throws(AudioError) -> UInt16 { UInt16(try uintBE(2)) }
    mutating func uint32BE() throws(AudioError) -> UInt32 { UInt32(try uintBE(4)) }
    mutating func int64BE() throws(AudioError) -> Int64 { Int64(bitPattern: try uintBE(8)) }
    mutating func uint32LE() throws(AudioError) -> UInt32 {
        let b = try take(4)
        return b.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    mutating func float64BE() throws(AudioError) -> Double { Double(bitPattern: try uintBE(8)) }

    private mutating func uintBE(_ width: Int) throws(AudioError) -> UInt64 {
        try take(width).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
}

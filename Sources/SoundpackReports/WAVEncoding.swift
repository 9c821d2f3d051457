// 16-bit PCM WAV bytes in memory, for players embedded in the HTML report (browsers do not play CAF).

enum WAVEncoding {
    static func encode(_ samples: [Float], sampleRate: Int, channels: Int) -> [UInt8] {
        let dataBytes = samples.count * 2
        var out: [UInt8] = []
        out.reserveCapacity(44 + dataBytes)
        func ascii(_ text: String) { out += Array(text.utf8) }
        func u32(_ v: Int) { out += (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func u16(_ v: Int) { out += (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        ascii("RIFF"); u32(36 + dataBytes); ascii("WAVE")
        ascii("fmt "); u32(16); u16(1); u16(channels); u32(sampleRate); u32(sampleRate * channels * 2); u16(channels * 2); u16(16)
        ascii("data"); u32(dataBytes)
        for sample in samples {
            let value = Int16(clamping: Int((sample * 32_768).rounded()))
            u16(Int(UInt16(bitPattern: value)))
        }
        return out
    }
}

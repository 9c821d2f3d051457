// Hand-built tar archives, including the hostile ones a real tool would never write.

import Foundation

public struct TarBuilder {
    public enum Kind: UInt8 { case file = 0x30, hardLink = 0x31, symlink = 0x32, folder = 0x35 }
    private var bytes: [UInt8] = []

    public init() {}

    /// Adds an entry. `declaredSize` overrides the header's size (a lie); `data` follows it.
    public mutating func add(_ name: String, _ data: [UInt8] = [], kind: Kind = .file, link: String = "", declaredSize: Int64? = nil) {
        var header = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int, width: Int) {
            for (i, b) in text.utf8.prefix(width).enumerated() { header[offset + i] = b }
        }
        func octal(_ value: Int64, width: Int) -> String {
            let digits = String(value, radix: 8)
            return String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits
        }
        put(name, at: 0, width: 100)
        put(octal(kind == .folder ? 0o755 : 0o644, width: 8), at: 100, width: 8)
        put(octal(0, width: 8), at: 108, width: 8)
        put(octal(0, width: 8), at: 116, width: 8)
        put(octal(declaredSize ?? Int64(data.count), width: 12), at: 124, width: 12)
        put(octal(0, width: 12), at: 136, width: 12)
        header[156] = kind.rawValue
        put(link, at: 157, width: 100)
        put("ustar", at: 257, width: 6)
        put("00", at: 263, width: 2)
        for i in 148..<156 { header[i] = 0x20 }
        let sum = header.reduce(0) { $0 + Int($1) }
        put(octal(Int64(sum), width: 7), at: 148, width: 7)
        bytes += header
        bytes += data
        if data.count % 512 != 0 { bytes += [UInt8](repeating: 0, count: 512 - data.count % 512) }
    }

    public func finished() -> Data { Data(bytes + [UInt8](repeating: 0, count: 1024)) }
}

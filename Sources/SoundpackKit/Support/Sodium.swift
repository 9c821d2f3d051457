// SHA-256 through libsodium; the only file that imports CSodium.

import CSodium
import Foundation

/// Cryptographic digests used for clip hashes and pack digests.
public enum Digest {
    private static let ready: Bool = sodium_init() >= 0

    /// Lowercase hex SHA-256 of `bytes`.
    public static func sha256Hex<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String {
        precondition(ready, "libsodium failed to initialise")
        var out = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        bytes.withUnsafeBytes { raw in
            _ = crypto_hash_sha256(&out, raw.bindMemory(to: UInt8.self).baseAddress, UInt64(raw.count))
        }
        return hex(out)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for b in bytes {
            text.append(digits[Int(b >> 4)])
            text.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

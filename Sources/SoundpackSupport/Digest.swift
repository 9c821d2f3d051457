// SHA-256 through OpenSSL's EVP, whole or streamed, and MD5 to read S3 listings; the only file
// that imports COpenSSL.

import COpenSSL
import Foundation

/// Cryptographic digests used for clip hashes and pack digests: SHA-256 through OpenSSL's EVP,
/// which uses the CPU's SHA extensions where there are any (several times libsodium's speed here).
package enum Digest {
    /// Lowercase hex SHA-256 of `bytes`.
    package static func sha256Hex<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), raw.count, &out, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1 && length == 32, "OpenSSL's SHA-256 failed")
        return hex(out)
    }

    /// Lowercase hex MD5 of `bytes`: what S3 lists as the ETag of an object written in one PUT
    /// (unencrypted or SSE-S3), taken only of bytes whose SHA-256 was checked, to tell that a
    /// listing names them. MD5 stands against accident, not against a collision made on purpose
    /// (`verify` hashes every byte with SHA-256). Nil where OpenSSL offers no MD5 (FIPS-only).
    package static func md5Hex<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String? {
        var out = [UInt8](repeating: 0, count: 16)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), raw.count, &out, &length, EVP_md5(), nil)
        }
        guard ok == 1, length == 16 else { return nil }
        return hex(out)
    }

    /// SHA-256 fed in pieces: a file of any size is hashed in a bounded buffer.
    package final class Stream {
        private let context: OpaquePointer
        package private(set) var count: Int64 = 0

        package init() {
            guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
                preconditionFailure("OpenSSL cannot start a SHA-256")
            }
            self.context = context
        }

        deinit { EVP_MD_CTX_free(context) }

        package func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            precondition(EVP_DigestUpdate(context, base, bytes.count) == 1, "OpenSSL's SHA-256 failed")
            count += Int64(bytes.count)
        }

        /// The lowercase hex digest of everything fed; the stream cannot be fed after.
        package func finish() -> String {
            var out = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            precondition(EVP_DigestFinal_ex(context, &out, &length) == 1 && length == 32, "OpenSSL's SHA-256 failed")
            return hex(out)
        }
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

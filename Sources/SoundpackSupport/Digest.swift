// SHA-256 through OpenSSL's EVP, whole or streamed, and MD5 to read S3 listings; the only file
// that imports COpenSSL.

import COpenSSL
import Foundation

/// Cryptographic digests used for clip hashes and pack digests: SHA-256 through OpenSSL's EVP,
/// which uses the CPU's SHA extensions where there are any (several times libsodium's speed here).
package enum Digest {
    /// The algorithms, fetched from OpenSSL's default provider once. `EVP_sha256()` is fetched
    /// again by every digest started with it (about 1.8 µs and a score of allocations each); a
    /// fetched one is shared by every thread. Nil where the provider has none (MD5 under FIPS).
    private struct Algorithm: @unchecked Sendable { let md: OpaquePointer? }
    private static let sha256 = Algorithm(md: EVP_MD_fetch(nil, "SHA256", nil) ?? EVP_sha256())
    private static let md5 = Algorithm(md: EVP_MD_fetch(nil, "MD5", nil))

    /// Lowercase hex SHA-256 of `bytes`.
    package static func sha256Hex<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String {
        digestHex(bytes, sha256.md, length: 32) ?? { preconditionFailure("OpenSSL's SHA-256 failed") }()
    }

    /// Lowercase hex digest of `bytes` by `md`, which gives `length` bytes; nil when it fails.
    private static func digestHex<Bytes: ContiguousBytes>(_ bytes: Bytes, _ md: OpaquePointer?, length expected: Int) -> String? {
        guard let md else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(EVP_MAX_MD_SIZE)) { out -> String? in
            var length: UInt32 = 0
            let ok = bytes.withUnsafeBytes { raw in
                EVP_Digest(raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), raw.count, out.baseAddress, &length, md, nil)
            }
            guard ok == 1, Int(length) == expected else { return nil }
            return hex(UnsafeBufferPointer(rebasing: out[0..<expected]))
        }
    }

    /// Lowercase hex MD5 of `bytes`: what S3 lists as the ETag of an object written in one PUT
    /// (unencrypted or SSE-S3), taken only of bytes whose SHA-256 was checked, to tell that a
    /// listing names them. MD5 stands against accident, not against a collision made on purpose
    /// (`verify` hashes every byte with SHA-256). Nil where OpenSSL offers no MD5 (FIPS-only).
    package static func md5Hex<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String? {
        digestHex(bytes, md5.md, length: 16)
    }

    /// SHA-256 fed in pieces: a file of any size is hashed in a bounded buffer.
    package final class Stream {
        private let context: OpaquePointer
        package private(set) var count: Int64 = 0

        package init() {
            guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, Digest.sha256.md, nil) == 1 else {
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

    static func hex<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            let digits: StaticString = "0123456789abcdef"
            var at = 0
            for b in bytes {
                text[at] = digits.utf8Start[Int(b >> 4)]
                text[at + 1] = digits.utf8Start[Int(b & 0x0F)]
                at += 2
            }
            return at
        }
    }
}

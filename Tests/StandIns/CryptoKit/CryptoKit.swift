// A Linux stand-in for the part of Apple's CryptoKit the example extension uses: SHA-256 and
// Curve25519 (Ed25519) signature checks, over SoundpackKit's OpenSSL and libsodium wrappers, so
// the example's own CryptoKit calls compile and run in our tests. In no product.

#if os(Linux)
import Foundation
import SoundpackKit

/// Apple: "An implementation of Secure Hashing Algorithm 2 (SHA-2) hashing with a 256-bit digest."
public enum SHA256 {
    /// Apple: "Computes the SHA256 digest of the bytes in the given data instance and returns the
    /// computed digest."
    public static func hash<D: DataProtocol>(data: D) -> SHA256Digest {
        let bytes = Array(data)
        let hex = Digest.sha256Hex(bytes)
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            digest.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return SHA256Digest(bytes: digest)
    }
}

/// Apple: "The output of a Secure Hashing Algorithm 2 (SHA-2) hash with a 256-bit digest." A
/// sequence of its 32 bytes, as Apple's digest types are.
public struct SHA256Digest: Sequence, Hashable, Sendable {
    fileprivate let bytes: [UInt8]
    public static let byteCount = 32
    public func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }
}

/// Apple: "An elliptic curve that enables X25519 key agreement and Ed25519 signatures."
public enum Curve25519 {
    public enum Signing {
        /// Apple: "A Curve25519 public key used to verify cryptographic signatures."
        public struct PublicKey: Sendable {
            public let rawRepresentation: Data

            /// Apple: "Creates a Curve25519 public key for signing from a data representation of the
            /// key." It throws for a representation that is not a key; Apple documents the throw, not
            /// its error, so this one throws `CryptoKitError.incorrectKeySize` for any length but 32.
            public init<D: ContiguousBytes>(rawRepresentation data: D) throws {
                let bytes = data.withUnsafeBytes { Data($0) }
                guard bytes.count == 32 else { throw CryptoKitError.incorrectKeySize }
                rawRepresentation = bytes
            }

            /// Apple: "Verifies an EdDSA signature over Curve25519."
            public func isValidSignature<S: DataProtocol, D: DataProtocol>(_ signature: S, for data: D) -> Bool {
                SigningKey.verify(Array(signature), of: Array(data), publicKey: Array(rawRepresentation))
            }
        }
    }
}

/// Apple: "General cryptography errors used by CryptoKit." (the case the stand-in throws).
public enum CryptoKitError: Error, Sendable {
    case incorrectKeySize
}
#endif

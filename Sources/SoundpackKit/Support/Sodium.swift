// Ed25519 through libsodium and SHA-256 through OpenSSL; the only file that imports CSodium or
// COpenSSL.

import COpenSSL
import CSodium
import Foundation

/// An Ed25519 key pair for signing store manifests.
public struct SigningKey: Sendable {
    public let publicKey: [UInt8]
    let secretKey: [UInt8]

    /// libsodium must be initialised before any other call; once per process.
    static let sodiumReady: Bool = sodium_init() >= 0

    /// A new random key pair.
    public static func generate() -> SigningKey {
        precondition(sodiumReady, "libsodium failed to initialise")
        var publicKey = [UInt8](repeating: 0, count: Int(crypto_sign_PUBLICKEYBYTES))
        var secretKey = [UInt8](repeating: 0, count: Int(crypto_sign_SECRETKEYBYTES))
        crypto_sign_keypair(&publicKey, &secretKey)
        return SigningKey(publicKey: publicKey, secretKey: secretKey)
    }

    /// The key pair from a secret key (64 bytes: seed and public key, as libsodium stores it).
    public init?(secretKey: [UInt8]) {
        guard Self.sodiumReady, secretKey.count == Int(crypto_sign_SECRETKEYBYTES) else { return nil }
        var publicKey = [UInt8](repeating: 0, count: Int(crypto_sign_PUBLICKEYBYTES))
        guard crypto_sign_ed25519_sk_to_pk(&publicKey, secretKey) == 0 else { return nil }
        self.init(publicKey: publicKey, secretKey: secretKey)
    }

    private init(publicKey: [UInt8], secretKey: [UInt8]) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    public var secretKeyBytes: [UInt8] { secretKey }

    /// The first 16 hex digits of the SHA-256 of the public key; manifests name their key by it.
    public var keyID: String { Self.keyID(publicKey: publicKey) }

    public static func keyID(publicKey: [UInt8]) -> String { String(Digest.sha256Hex(publicKey).prefix(16)) }

    /// A detached Ed25519 signature of `message`.
    public func sign(_ message: [UInt8]) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: Int(crypto_sign_BYTES))
        crypto_sign_detached(&signature, nil, message, UInt64(message.count), secretKey)
        return signature
    }

    /// Whether `signature` is a valid Ed25519 signature of `message` by `publicKey`.
    public static func verify(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard sodiumReady, signature.count == Int(crypto_sign_BYTES), publicKey.count == Int(crypto_sign_PUBLICKEYBYTES) else { return false }
        return crypto_sign_verify_detached(signature, message, UInt64(message.count), publicKey) == 0
    }
}

/// Cryptographic digests used for clip hashes and pack digests: SHA-256 through OpenSSL's EVP,
/// which uses the CPU's SHA extensions where there are any (several times libsodium's speed here).
public enum Digest {
    /// Lowercase hex SHA-256 of `bytes`.
    public static func sha256Hex<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), raw.count, &out, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1 && length == 32, "OpenSSL's SHA-256 failed")
        return hex(out)
    }

    /// SHA-256 fed in pieces: a file of any size is hashed in a bounded buffer.
    public final class Stream {
        private let context: OpaquePointer
        public private(set) var count: Int64 = 0

        public init() {
            guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
                preconditionFailure("OpenSSL cannot start a SHA-256")
            }
            self.context = context
        }

        deinit { EVP_MD_CTX_free(context) }

        public func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            precondition(EVP_DigestUpdate(context, base, bytes.count) == 1, "OpenSSL's SHA-256 failed")
            count += Int64(bytes.count)
        }

        /// The lowercase hex digest of everything fed; the stream cannot be fed after.
        public func finish() -> String {
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

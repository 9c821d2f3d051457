// Ed25519 signatures through libsodium; the only file that imports CSodium.

import CSodium
import Foundation

/// An Ed25519 key pair for signing store manifests.
public struct SigningKey: Sendable {
    /// The 32-byte Ed25519 public key; manifests are verified against it.
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

    /// The 64-byte secret key (seed and public key, as libsodium stores it), for writing the key to a file.
    public var secretKeyBytes: [UInt8] { secretKey }

    /// The first 16 hex digits of the SHA-256 of the public key; manifests name their key by it.
    public var keyID: String { Self.keyID(publicKey: publicKey) }

    /// The key ID of `publicKey`: the first 16 hex digits of its SHA-256.
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

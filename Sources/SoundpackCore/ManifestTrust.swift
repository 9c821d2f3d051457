// Which store manifests a phone accepts: those signed by one of the app's keys, or, when the app says
// on purpose that its store is unsigned, any whose SHA-256 matches the index. A configured key that
// is not a key is a set-up error, never dropped: dropping it used to turn "signed" into "anything".

import Foundation

/// An Ed25519 public key: the 32 bytes whose base64 `soundpack keygen -o release.key` writes to
/// `release.key.pub` (CryptoKit's `Curve25519.Signing.PublicKey.rawRepresentation`).
public struct Ed25519PublicKey: Sendable, Hashable {
    /// The key's 32 raw bytes.
    public let rawRepresentation: Data

    /// Nil unless `rawRepresentation` is 32 bytes.
    public init?(rawRepresentation: Data) {
        guard rawRepresentation.count == 32 else { return nil }
        self.rawRepresentation = rawRepresentation
    }
}

/// The signature policy a `ManifestRefresher` applies to every manifest it fetches.
public enum ManifestTrust: Sendable, Equatable {
    /// Every manifest must carry a valid Ed25519 signature (`manifest.json.sig`) by one of `keys`.
    /// With no keys every manifest is refused: an empty list never means "accept any".
    case signed(by: [Ed25519PublicKey])
    /// The store is not signed, on purpose: a manifest is checked against the SHA-256 the store's
    /// `index.json` gives, so whoever can rewrite `index.json` can change what phones play.
    case unsigned

    /// The signed policy for keys as configured: the text of `release.key.pub` (base64; the trailing
    /// newline the file ends with, and any surrounding whitespace, are ignored). Throws for an empty
    /// list and for the first entry that is not a 32-byte key, naming it: a key is never dropped.
    public static func signed(publicKeys: [String]) throws(ManifestTrustError) -> ManifestTrust {
        guard !publicKeys.isEmpty else { throw .noKeys }
        var keys: [Ed25519PublicKey] = []
        for (index, configured) in publicKeys.enumerated() {
            let text = configured.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { throw .emptyKey(index: index) }
            guard let bytes = Data(base64Encoded: text) else { throw .notBase64(index: index, excerpt: ManifestTrustError.excerpt(of: text)) }
            guard bytes.count != ManifestTrustError.secretKeyBytes else { throw .secretKey(index: index) }
            guard let key = Ed25519PublicKey(rawRepresentation: bytes) else {
                throw .wrongLength(index: index, excerpt: ManifestTrustError.excerpt(of: text), bytes: bytes.count)
            }
            keys.append(key)
        }
        return .signed(by: keys)
    }
}

/// Why configured keys do not make a signed policy. Each names the key by its index in the list
/// given to `ManifestTrust.signed(publicKeys:)` and says what to paste instead.
public enum ManifestTrustError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The list is empty: every manifest would be refused.
    case noKeys
    /// The entry is empty, or whitespace only.
    case emptyKey(index: Int)
    /// The entry is not base64 (the example's placeholder is not). `excerpt`: its first characters.
    case notBase64(index: Int, excerpt: String)
    /// The entry decodes, but not to the 32 bytes of an Ed25519 public key.
    case wrongLength(index: Int, excerpt: String, bytes: Int)
    /// The entry decodes to 64 bytes, the size of the secret key keygen writes to `release.key`
    /// (quoted nowhere, not even in part).
    case secretKey(index: Int)

    /// Bytes in the secret key `soundpack keygen` writes (libsodium's Ed25519 secret key).
    static let secretKeyBytes = 64

    /// The first few characters of a configured key, made safe to print: enough to tell a
    /// placeholder or a wrong paste apart, never a whole key.
    static func excerpt(of text: String) -> String { text.quoted(limit: 8) }

    static let hint = "paste the contents of release.key.pub, which `soundpack keygen -o release.key` writes, or declare the store unsigned on purpose"

    public var description: String {
        switch self {
        case .noKeys:
            return "the signed policy names no public key — every manifest would be refused (\(Self.hint))"
        case .emptyKey(let index):
            return "publicKeys[\(index)] is empty — it is not an Ed25519 public key (\(Self.hint))"
        case .notBase64(let index, let excerpt):
            return "publicKeys[\(index)] ('\(excerpt)') is not an Ed25519 public key — it is not base64 (\(Self.hint))"
        case .wrongLength(let index, let excerpt, let bytes):
            return "publicKeys[\(index)] ('\(excerpt)') is not an Ed25519 public key — it decodes to \(bytes) bytes, not 32 (\(Self.hint))"
        case .secretKey(let index):
            return "publicKeys[\(index)] is a secret key, not a public one — it decodes to 64 bytes, as release.key does "
                + "(never ship release.key in an app, and make a new key pair if it has left CI's secrets; paste the contents of release.key.pub)"
        }
    }

    public var errorDescription: String? { description }
}

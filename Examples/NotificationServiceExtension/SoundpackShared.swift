// What the app and its Notification Service Extension share: where the packs are published, the
// key that signs them, the App Group, and SoundpackCore's injected pieces on iOS (URLSession for
// the network, CryptoKit for SHA-256 and Ed25519). Add this file to both targets.

#if canImport(CryptoKit) && os(iOS)
import CryptoKit
import Foundation
import SoundpackCore

/// SHA-256 through CryptoKit, for SoundpackCore's verification of manifests and clips.
struct CryptoKitSHA256: SHA256Hashing {
    func sha256Hex(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}

/// Ed25519 through CryptoKit, for the refresher's check of manifest.json.sig.
struct CryptoKitEd25519: SignatureVerifying {
    func isValidSignature(_ signature: Data, of message: Data, publicKey: Data) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
        return key.isValidSignature(signature, for: message)
    }
}

/// GETs through URLSession: `data(for:)` where iOS has it (15), a data task bridged to async before.
struct URLSessionTransport: HTTPTransport {
    let session: URLSession

    func get(_ url: URL, ifNoneMatch: String?) async throws -> HTTPResponse {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
        if let ifNoneMatch { request.setValue(ifNoneMatch, forHTTPHeaderField: "If-None-Match") }
        let result: (Data, URLResponse)
        if #available(iOS 15.0, *) {
            result = try await session.data(for: request)
        } else {
            result = try await withCheckedThrowingContinuation { continuation in
                session.dataTask(with: request) { data, response, error in
                    if let data, let response {
                        continuation.resume(returning: (data, response))
                    } else {
                        continuation.resume(throwing: error ?? URLError(.badServerResponse))
                    }
                }.resume()
            }
        }
        let (data, response) = result
        let http = response as? HTTPURLResponse
        return HTTPResponse(status: http?.statusCode ?? 0, body: data, etag: http?.value(forHTTPHeaderField: "ETag"))
    }

    /// An ephemeral session (no URL cache: the refresher keeps its own ETag) that gives up after `seconds`.
    static func ephemeral(seconds: TimeInterval) -> URLSessionTransport {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.timeoutIntervalForResource = seconds
        configuration.waitsForConnectivity = false
        return URLSessionTransport(session: URLSession(configuration: configuration))
    }
}

/// Where this app's packs are published and which key signs them; one place for both targets.
enum SoundpackConfiguration {
    /// The App Group shared with the main app (Signing & Capabilities → App Groups).
    static let appGroup = "group.com.example.payments"
    /// Written into the group container by the main app (see MainAppSetup.swift).
    static let manifestFile = "SoundpackManifest.plist"
    /// The store as the CDN serves it: what `soundpack export --base-url` was given.
    static let storeURL = "https://cdn.example.com/voice"
    /// `soundpack keygen`'s `release.key.pub` (base64). Empty: manifests are checked against the
    /// index's SHA-256 only.
    static let publicKeys = ["REPLACE-WITH-THE-CONTENTS-OF-release.key.pub"]

    static func group() throws -> URL {
        guard let group = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup) else {
            throw CocoaError(.fileNoSuchFile)  // the App Group is missing from a target or its profile
        }
        return group
    }

    static func sounds(in group: URL) -> URL { group.appendingPathComponent("Library/Sounds", isDirectory: true) }

    static func refresher(in group: URL, transport: URLSessionTransport) -> ManifestRefresher {
        ManifestRefresher(storeURL: storeURL, folder: group.appendingPathComponent("Library/Application Support/Soundpack", isDirectory: true),
                          trustedKeys: publicKeys.compactMap { Data(base64Encoded: $0) }.filter { $0.count == 32 },
                          transport: transport, verifier: CryptoKitEd25519(), hasher: CryptoKitSHA256())
    }
}
#endif

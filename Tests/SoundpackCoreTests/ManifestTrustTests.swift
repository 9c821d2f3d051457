// The signature policy a phone's refresher applies: configured keys are parsed or refused by index,
// never dropped, and a signed policy with no key refuses every manifest.

import Foundation
import Testing
@testable import SoundpackCore

@Suite struct ManifestTrustTests {
    /// A public key's base64, as `soundpack keygen` writes it into FILE.pub (without its newline).
    static let key = Data((0..<32).map { UInt8($0) })
    static let keyText = key.base64EncodedString()

    @Test func theExamplesPlaceholderIsAConfigurationErrorThatSaysWhatToPaste() {
        #expect(throws: ManifestTrustError.notBase64(index: 0, excerpt: "REPLACE-…")) {
            try ManifestTrust.signed(publicKeys: ["REPLACE-WITH-THE-CONTENTS-OF-release.key.pub"])
        }
        let message = ManifestTrustError.notBase64(index: 0, excerpt: "REPLACE-…").description
        #expect(message.contains("publicKeys[0]") && message.contains("release.key.pub") && message.contains("soundpack keygen -o release.key"))
        // A pasted control sequence is quoted as visible escapes, cut short.
        #expect(throws: ManifestTrustError.notBase64(index: 0, excerpt: "\\u{1B}[31mhel…")) {
            try ManifestTrust.signed(publicKeys: ["\u{1B}[31mhello world"])
        }
    }

    @Test(arguments: ["\n", "\r\n", " \n\n"])
    func releaseKeyPubAsWrittenIsAcceptedWithItsNewline(_ ending: String) throws {
        let trust = try ManifestTrust.signed(publicKeys: [" " + Self.keyText + ending])
        #expect(trust == .signed(by: [try #require(Ed25519PublicKey(rawRepresentation: Self.key))]))
    }

    @Test func aKeyThatIsNotThirtyTwoBytesIsRefusedByItsIndex() {
        let short = Data(repeating: 7, count: 31).base64EncodedString()
        #expect(throws: ManifestTrustError.wrongLength(index: 1, excerpt: "BwcHBwcH…", bytes: 31)) {
            try ManifestTrust.signed(publicKeys: [Self.keyText, short])
        }
        #expect(Ed25519PublicKey(rawRepresentation: Data(count: 31)) == nil)
        #expect(Ed25519PublicKey(rawRepresentation: Data(count: 33)) == nil)
    }

    @Test func aSecretKeyIsRefusedWithoutQuotingIt() {
        let secret = Data((0..<64).map { UInt8(255 - $0) }).base64EncodedString()
        #expect(throws: ManifestTrustError.secretKey(index: 0)) { try ManifestTrust.signed(publicKeys: [secret + "\n"]) }
        #expect(!ManifestTrustError.secretKey(index: 0).description.contains(String(secret.prefix(4))))
    }

    @Test func noKeyOrAnEmptyOneIsAConfigurationError() {
        #expect(throws: ManifestTrustError.noKeys) { try ManifestTrust.signed(publicKeys: []) }
        #expect(throws: ManifestTrustError.emptyKey(index: 1)) { try ManifestTrust.signed(publicKeys: [Self.keyText, " \n"]) }
    }

    // MARK: The refresher under a policy

    /// A store in memory: index.json and one version's manifest.json (signed by `signingKey`'s id when given).
    struct MemoryStore: HTTPTransport {
        let files: [String: Data]

        init(signingKey: String?) throws {
            var manifest: [String: Any] = [
                "schemaVersion": 1, "id": "wechat", "version": "1.0.0", "grammar": "zh-Hans", "two": "er", "maxAmount": "99.99",
                "profile": "ios-notification", "texts": [:], "digest": "00",
                "clips": ["5": ["file": "clips/5.caf", "bytes": 1, "sha256": "00", "frames": 1, "durationSeconds": 0.1,
                                "container": "caf", "codec": "lpcm", "sampleRate": 22050, "channels": 1]],
                "packJSON": ["file": "pack.json", "bytes": 1, "sha256": "00"], "archives": [:],
            ]
            manifest["signingKey"] = signingKey
            let manifestData = try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys])
            let index: [String: Any] = ["schemaVersion": 1, "packs": ["wechat": ["latest": "1.0.0", "versions": ["1.0.0": [
                "digest": "00", "manifest": "wechat/1.0.0/manifest.json", "manifestSha256": PortableSHA256().sha256Hex(manifestData),
                "publishedAt": "2026-01-01T00:00:00Z", "yanked": false,
            ]]]]]
            files = ["/index.json": try JSONSerialization.data(withJSONObject: index),
                     "/wechat/1.0.0/manifest.json": manifestData,
                     "/wechat/1.0.0/manifest.json.sig": Data((Data(count: 64).base64EncodedString() + "\n").utf8)]
        }

        func get(_ url: URL, ifNoneMatch: String?) async throws -> HTTPResponse {
            files[url.path].map { HTTPResponse(status: 200, body: $0) } ?? HTTPResponse(status: 404, body: Data())
        }
    }

    /// A verifier that accepts any signature: what stands between a manifest and the phone is then the policy alone.
    struct AcceptingVerifier: SignatureVerifying {
        func isValidSignature(_ signature: Data, of message: Data, publicKey: Data) -> Bool { true }
    }

    static func refresher(_ trust: ManifestTrust, store: MemoryStore) -> ManifestRefresher {
        ManifestRefresher(storeURL: "https://cdn.example.com",
                          folder: FileManager.default.temporaryDirectory.appendingPathComponent("soundpack-trust-\(UUID().uuidString)"),
                          trust: trust, transport: store, verifier: AcceptingVerifier())
    }

    @Test func aSignedPolicyWithNoKeysRefusesEveryManifest() async throws {
        let wechat = try #require(PackRef("wechat"))
        let unsigned = Self.refresher(.signed(by: []), store: try MemoryStore(signingKey: nil))
        defer { try? FileManager.default.removeItem(at: unsigned.folder) }
        await #expect(throws: RefreshError.unsigned("wechat@1.0.0")) { try await unsigned.refresh(wechat) }

        let keyID = String(PortableSHA256().sha256Hex(Self.key).prefix(16))
        let signed = Self.refresher(.signed(by: []), store: try MemoryStore(signingKey: keyID))
        defer { try? FileManager.default.removeItem(at: signed.folder) }
        await #expect(throws: RefreshError.untrustedKey("wechat@1.0.0", keyID: keyID)) { try await signed.refresh(wechat) }
        #expect(signed.newestOnDisk("wechat") == nil)

        // The same store under a policy that trusts the key, and under the unsigned policy, is accepted.
        let trusting = Self.refresher(try .signed(publicKeys: [Self.keyText]), store: try MemoryStore(signingKey: keyID))
        defer { try? FileManager.default.removeItem(at: trusting.folder) }
        #expect(try await trusting.refresh(wechat).signingKey == keyID)
        let declared = Self.refresher(.unsigned, store: try MemoryStore(signingKey: nil))
        defer { try? FileManager.default.removeItem(at: declared.folder) }
        #expect(try await declared.refresh(wechat).version.description == "1.0.0")
    }
}

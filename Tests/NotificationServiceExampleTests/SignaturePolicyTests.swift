// The example's signature policy, run end to end: a configured key that is not a key is a set-up
// error (reported at install, no manifest fetched, the push still delivered from what the app
// shipped); a key pasted with release.key.pub's newline is in force; under the signed policy an
// unsigned manifest is refused, and a store signed with the trusted key reaches the phone.

import Foundation
import Testing
import SoundpackCore
import SoundpackTestSupport
@testable import NotificationServiceExample

@Suite struct SignaturePolicyTests {
    /// Requests for index.json or a version's manifest (or its signature): what a refresh fetches.
    static func manifestRequests(_ phone: Phone) -> [String] {
        phone.server.requests.filter { $0.hasSuffix("/index.json") || $0.contains("/manifest.json") }
    }

    /// The file the refresher keeps for a verified manifest.
    static func kept(_ version: String, _ phone: Phone) -> Bool {
        FileManager.default.fileExists(atPath: phone.configuration.support(in: phone.group).appendingPathComponent("wechat@\(version).json").path)
    }

    /// (a) The placeholder the example ships with: reported at install, `refreshAndPrefetch` refuses
    /// before any request, and a push (pinned to a newer version) is still delivered, spoken from the
    /// manifest the app shipped, without a manifest fetched.
    @Test func theShippedPlaceholderIsASetUpErrorAndNothingIsRefreshed() async throws {
        var phone = try Phone.make()
        defer { phone.tearDown() }
        phone.configuration.signature = SoundpackConfiguration.app.signature
        try phone.install()
        #expect(phone.reports.description.contains("publicKeys[0] ('REPLACE-…') is not an Ed25519 public key — it is not base64"),
                "\(phone.reports)")
        #expect(phone.reports.description.contains("release.key.pub"))

        try phone.publishWithNewClip3(as: "1.0.1")
        let request = try phone.request("3.33", pack: "wechat@1.0.1")
        phone.server.resetLog()
        await #expect(throws: ManifestTrustError.notBase64(index: 0, excerpt: "REPLACE-…")) {
            try await SoundpackSetup.refreshAndPrefetch(packID: "wechat", seconds: 60, configuration: phone.configuration)
        }
        #expect(phone.server.requests.isEmpty, "\(phone.server.requests)")

        let (shown, calls) = await phone.push(request)
        #expect(calls.count == 1)
        #expect(shown.soundName == "soundpack-wechat-1.0.0-3.33.caf", "\(phone.reports)")
        #expect(Self.manifestRequests(phone).isEmpty, "\(phone.server.requests)")
        #expect(!Self.kept("1.0.1", phone))
    }

    /// (b) The key exactly as release.key.pub holds it, newline included: accepted, and in force —
    /// the signature is fetched and checked, and a manifest whose signature does not match is refused.
    @Test func aKeyPastedWithItsNewlineIsTrustedAndChecked() async throws {
        let keys = try KeyPair.generate()
        var phone = try Phone.make(signedWith: keys)
        defer { phone.tearDown() }
        let pasted = try keys.publicKeyText()
        #expect(pasted.hasSuffix("\n"))
        phone.configuration.signature = .signed(publicKeys: [pasted])
        try phone.install()
        #expect(phone.reports.description.isEmpty, "\(phone.reports)")

        phone.server.resetLog()
        try await SoundpackSetup.refreshAndPrefetch(packID: "wechat", seconds: 60, configuration: phone.configuration)
        #expect(phone.server.requests.contains("/wechat/1.0.0/manifest.json.sig"), "\(phone.server.requests)")
        #expect(Self.kept("1.0.0", phone))

        // 1.0.1's signature replaced by one that does not match its manifest: refused, not kept.
        try phone.publishWithNewClip3(as: "1.0.1")
        try Data((Data(repeating: 1, count: 64).base64EncodedString() + "\n").utf8)
            .write(to: URL(fileURLWithPath: phone.project.file("dist/wechat/1.0.1/manifest.json.sig")))
        await #expect(throws: RefreshError.badSignature("wechat@1.0.1")) {
            try await SoundpackSetup.refreshAndPrefetch(packID: "wechat", seconds: 60, configuration: phone.configuration)
        }
        #expect(!Self.kept("1.0.1", phone))
    }

    /// (c) A key one byte short (a truncated paste): a set-up error naming it, and no refresh.
    @Test func aKeyOfThirtyOneBytesIsASetUpError() async throws {
        var phone = try Phone.make()
        defer { phone.tearDown() }
        let short = Data(repeating: 7, count: 31).base64EncodedString()
        phone.configuration.signature = .signed(publicKeys: [short])
        try phone.install()
        #expect(phone.reports.description.contains("publicKeys[0] ('BwcHBwcH…') is not an Ed25519 public key — it decodes to 31 bytes, not 32"),
                "\(phone.reports)")
        phone.server.resetLog()
        await #expect(throws: ManifestTrustError.wrongLength(index: 0, excerpt: "BwcHBwcH…", bytes: 31)) {
            try await SoundpackSetup.refreshAndPrefetch(packID: "wechat", seconds: 60, configuration: phone.configuration)
        }
        #expect(phone.server.requests.isEmpty, "\(phone.server.requests)")
        #expect(!Self.kept("1.0.0", phone))
    }

    /// (d) The phone trusts a key and the store publishes unsigned manifests: the app's refresh
    /// refuses 1.0.1, and a push pinned to it is spoken from the manifest the app shipped (1.0.0).
    @Test func anUnsignedManifestIsRefusedUnderTheSignedPolicy() async throws {
        let keys = try KeyPair.generate()
        var phone = try Phone.make()
        defer { phone.tearDown() }
        phone.configuration.signature = .signed(publicKeys: [try keys.publicKeyText()])
        try phone.install()
        try phone.publishWithNewClip3(as: "1.0.1")
        await #expect(throws: RefreshError.unsigned("wechat@1.0.1")) {
            try await SoundpackSetup.refreshAndPrefetch(packID: "wechat", seconds: 60, configuration: phone.configuration)
        }
        #expect(!Self.kept("1.0.1", phone))

        let (shown, calls) = await phone.push(try phone.request("3.33", pack: "wechat@1.0.1"))
        #expect(calls.count == 1)
        #expect(shown.soundName == "soundpack-wechat-1.0.0-3.33.caf", "\(phone.reports)")
        #expect(!Self.kept("1.0.1", phone))
    }

    /// (e) The signed happy path: CI publishes with `--sign-key release.key`, the app trusts
    /// release.key.pub, and a push pinned to the new version plays it, its new clip 3 included.
    @Test func aSignedStoreReachesAPhoneThatTrustsItsKey() async throws {
        let keys = try KeyPair.generate()
        var phone = try Phone.make(signedWith: keys)
        defer { phone.tearDown() }
        phone.configuration.signature = .signed(publicKeys: [try keys.publicKeyText()])
        try phone.install()
        try phone.publishWithNewClip3(as: "1.0.1")
        phone.server.resetLog()
        let (shown, calls) = await phone.push(try phone.request("3.33", pack: "wechat@1.0.1"))
        #expect(calls.count == 1)
        let name = try #require(shown.soundName, "\(phone.reports)")
        #expect(name == "soundpack-wechat-1.0.1-3.33.caf")
        #expect(try phone.played(name) == phone.clipsEndToEnd("3.33"))  // 3.caf is 1.0.1's new take
        #expect(phone.server.requests.contains("/wechat/1.0.1/manifest.json.sig"), "\(phone.server.requests)")
        #expect(Self.kept("1.0.1", phone))
    }

    /// (f) A manifest kept under another policy (an earlier build that trusted anything, or
    /// `.unsigned`) is not trusted by the signed policy: the pinned version is not played from disk,
    /// it is fetched and checked again, and refused when unsigned.
    @Test func aManifestKeptUnderAnotherPolicyIsCheckedAgain() async throws {
        let keys = try KeyPair.generate()
        var phone = try Phone.make()
        defer { phone.tearDown() }
        try phone.install()
        try phone.publishWithNewClip3(as: "1.0.1")
        try await SoundpackSetup.refreshAndPrefetch(packID: "wechat", seconds: 60, configuration: phone.configuration)
        #expect(Self.kept("1.0.1", phone), "kept under .unsigned")

        phone.configuration.signature = .signed(publicKeys: [try keys.publicKeyText()])
        phone.server.resetLog()
        let (shown, calls) = await phone.push(try phone.request("3.33", pack: "wechat@1.0.1"))
        #expect(calls.count == 1)
        #expect(shown.soundName == "soundpack-wechat-1.0.0-3.33.caf", "not planned from the unsigned 1.0.1 on disk: \(phone.reports)")
        #expect(phone.server.requests.contains("/wechat/1.0.1/manifest.json"), "fetched again to be checked: \(phone.server.requests)")
    }
}

// The path from `soundpack publish` to a phone, simulated on Linux: the store served over HTTP on
// loopback, SoundpackCore's ManifestRefresher and ClipPrefetcher with a URLSession transport and a
// libsodium signature check (CryptoKit's part on iOS), and the extension's plan, download and join.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import SoundpackCore
@testable import SoundpackKit
import SoundpackTestSupport

/// GETs through an ephemeral URLSession with no cache, so a 304 reaches the refresher as a 304.
struct URLSessionTransport: HTTPTransport {
    let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    func get(_ url: URL, ifNoneMatch: String?) async throws -> HTTPResponse {
        var request = URLRequest(url: url)
        if let ifNoneMatch { request.setValue(ifNoneMatch, forHTTPHeaderField: "If-None-Match") }
        let (data, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        let etag = http?.allHeaderFields.first { ($0.key as? String)?.lowercased() == "etag" }?.value as? String
        return HTTPResponse(status: http?.statusCode ?? 0, body: data, etag: etag)
    }
}

/// Ed25519 through libsodium, standing in for CryptoKit's `Curve25519.Signing`.
struct SodiumVerifier: SignatureVerifying {
    func isValidSignature(_ signature: Data, of message: Data, publicKey: Data) -> Bool {
        SigningKey.verify(Array(signature), of: Array(message), publicKey: Array(publicKey))
    }
}

/// A pack pin the test spells out; a typo fails the test instead of trapping.
func pin(_ text: String) throws -> PackRef {
    guard let pin = PackRef(text) else { throw CocoaError(.coderInvalidValue) }
    return pin
}

@Suite struct PublishedUpdatesSimulatorTests {
    /// A published project served on loopback, and a phone's App Group container.
    struct Phone {
        let project: TemporaryFolder
        let server: LoopbackHTTPServer
        let group: URL

        static func make(publishArguments: [String] = []) throws -> Phone {
            let project = try PublishEndToEndTests.project()
            let publish = try Executable.run(["publish"] + publishArguments, in: project.path)
            #expect(publish.status == 0, "\(publish.stdout)\(publish.stderr)")
            let server = try LoopbackHTTPServer(serving: project.file("dist"))
            let group = URL(fileURLWithPath: project.file("AppGroup"))
            try FileManager.default.createDirectory(at: group.appendingPathComponent("Library/Sounds"), withIntermediateDirectories: true)
            return Phone(project: project, server: server, group: group)
        }

        var sounds: URL { group.appendingPathComponent("Library/Sounds") }

        /// A refresher that trusts the public key files `keys` (as written, newline included); none: the store is unsigned.
        func refresher(trusting keys: [String] = [], folder: String = "Soundpack") throws -> ManifestRefresher {
            let trust = keys.isEmpty ? ManifestTrust.unsigned
                : try .signed(publicKeys: keys.map { try String(contentsOfFile: project.file($0), encoding: .utf8) })
            return ManifestRefresher(storeURL: server.baseURL, folder: group.appendingPathComponent(folder), trust: trust,
                                     transport: URLSessionTransport(), verifier: SodiumVerifier())
        }

        func run(_ arguments: [String]) throws -> ExecutionResult {
            let result = try Executable.run(arguments, in: project.path)
            #expect(result.status == 0, "\(arguments) → \(result.stdout)\(result.stderr)")
            return result
        }

        /// Publishes the pack again as `version`, with clip 3 re-recorded (one sample changed).
        func publishWithNewClip3(as version: String) throws {
            let pack = project.file("packs/wechat")
            let audio = try AudioProbe().decode(path: pack + "/clips/3.caf")
            var samples = audio.samples
            samples[samples.count / 2] += 0.01
            try Fixtures.writeClip(samples, to: pack + "/clips/3.caf")
            try PublishEndToEndTests.setVersion(pack, version)
            _ = try run(["publish"])
        }

        /// The extension's work for one amount with a pack: plan, download and verify, join.
        func announce(_ amount: String, with pack: SharedPack, bundled: [String] = [], into cache: JoinedSoundCache? = nil) async throws -> URL {
            let manifest = SharedManifest(bundledFiles: bundled, packs: [pack.id: pack])
            let plan = try ClipPlanner(manifest: manifest, packID: pack.id, soundsFolder: sounds).plan(amount: amount)
            let report = await ClipPrefetcher(soundsFolder: sounds, transport: URLSessionTransport())
                .prefetch(SharedPack(id: pack.id, version: pack.version, grammar: pack.grammar, maxAmount: pack.maxAmount, texts: pack.texts,
                                     yanked: false, clips: Dictionary(uniqueKeysWithValues: plan.downloads.map { d in (d.token, pack.clips[d.token]!) })))
            #expect(report.isComplete, "\(report.failed)")
            let paths = plan.clips.map { clip -> String in
                clip.source == .bundled ? project.file("packs/wechat/clips/\(clip.file)") : sounds.appendingPathComponent(clip.file).path
            }
            if let cache {
                let temporary = cache.temporaryURL()
                try ClipJoiner.join(paths, to: temporary.path)
                return try cache.store(fileAt: temporary, named: plan.soundName)
            }
            let output = sounds.appendingPathComponent(plan.soundName)
            try ClipJoiner.join(paths, to: output.path)
            return output
        }
    }

    @Test func aNewlyPublishedVersionReachesThePhone() async throws {
        let phone = try Phone.make()
        defer { phone.server.stop() }
        // The app shipped with 1.0.0's export, every clip bundled.
        let shipped = try SharedManifest(data: Data(try phone.run(["export", "wechat", "--format", "json", "--base-url", phone.server.baseURL]).stdout.utf8))
        let refresher = try phone.refresher()
        let first = try await refresher.refresh(try pin("wechat"))
        #expect(first.version.description == "1.0.0")
        #expect(refresher.manifestOnDisk("wechat", first.version) == first)

        // Nothing new: one conditional GET, answered 304.
        phone.server.resetLog()
        #expect(try await refresher.refresh(try pin("wechat")) == first)
        #expect(phone.server.responses.map(\.path) == ["/index.json"])
        #expect(phone.server.responses.map(\.status) == [304])

        // 1.0.1 re-records clip 3: the refresher picks it up, and the phone downloads the new 3.caf
        // instead of taking the old one from the bundle.
        try phone.publishWithNewClip3(as: "1.0.1")
        phone.server.resetLog()
        let second = try await refresher.refresh(try pin("wechat"))
        #expect(second.version.description == "1.0.1")
        #expect(phone.server.responses.map(\.path) == ["/index.json", "/wechat/1.0.1/manifest.json"])
        #expect(phone.server.responses.map(\.status) == [200, 200])
        let pack = SharedPack(published: second, storeURL: phone.server.baseURL)
        let bundled = shipped.bundled(shipped.bundledFiles, stillUsedBy: pack)
        #expect(!bundled.contains("3.caf") && bundled.contains("5.caf") && bundled.contains("prefix.caf"))
        let plan = try ClipPlanner(manifest: shipped.replacing(with: pack), packID: "wechat", bundledFiles: bundled).plan(amount: "3")
        #expect(plan.soundName == "soundpack-wechat-1.0.1-3.00.caf" || plan.soundName.hasPrefix("soundpack-wechat-1.0.1-"))
        #expect(plan.downloads.map(\.file) == ["3.caf"])

        // What the phone joins for 1.0.1 is what `render` makes from the 1.0.1 pack.
        let joined = try await phone.announce("33.3", with: pack, bundled: bundled.filter { $0 != "3.caf" })
        _ = try phone.run(["render", "--pack", "packs/wechat", "33.3", "-o", "rendered.caf"])
        #expect(try Data(contentsOf: joined) == Data(contentsOf: URL(fileURLWithPath: phone.project.file("rendered.caf"))))
    }

    @Test func aTamperedManifestIsRefusedAndNothingIsKept() async throws {
        let phone = try Phone.make()
        defer { phone.server.stop() }
        let path = phone.project.file("dist/wechat/1.0.0/manifest.json")
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let range = try #require(text.range(of: "\"maxAmount\" : \"") ?? text.range(of: "\"maxAmount\":\""))
        text.insert("9", at: range.upperBound)  // a larger maximum the publisher never vouched for
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let refresher = try phone.refresher()
        await #expect {
            try await refresher.refresh(try pin("wechat"))
        } throws: { error in
            guard case .manifestHashMismatch(let pin, _, _) = error as? RefreshError else { return false }
            return pin == "wechat@1.0.0"
        }
        #expect(refresher.manifestOnDisk("wechat", try #require(SemanticVersion("1.0.0"))) == nil)
        #expect(refresher.newestOnDisk("wechat") == nil)
    }

    @Test func signaturesAreCheckedAgainstTheTrustedKeys() async throws {
        let keys = try Phone.make()
        defer { keys.server.stop() }
        _ = try keys.run(["keygen", "-o", "release.key"])
        _ = try keys.run(["keygen", "-o", "other.key"])

        // The store above is unsigned: an app that trusts a key refuses it.
        await #expect(throws: RefreshError.unsigned("wechat@1.0.0")) {
            try await keys.refresher(trusting: ["release.key.pub"]).refresh(try pin("wechat"))
        }

        // Signed with release.key: trusted with release.key.pub, refused with other.key.pub.
        let phone = try Phone.make()
        defer { phone.server.stop() }
        for name in ["release.key", "release.key.pub", "other.key", "other.key.pub"] {
            try FileManager.default.copyItem(atPath: keys.project.file(name), toPath: phone.project.file(name))
        }
        try FileManager.default.removeItem(atPath: phone.project.file("dist"))
        try FileManager.default.removeItem(atPath: phone.project.file(".soundpack"))
        _ = try phone.run(["publish", "--sign-key", "release.key"])
        let keyID = try #require(try Self.manifestKeyID(phone.project.file("dist/wechat/1.0.0/manifest.json")))
        await #expect(throws: RefreshError.untrustedKey("wechat@1.0.0", keyID: keyID)) {
            try await phone.refresher(trusting: ["other.key.pub"], folder: "A").refresh(try pin("wechat"))
        }
        let trusted = try await phone.refresher(trusting: ["other.key.pub", "release.key.pub"], folder: "B").refresh(try pin("wechat"))
        #expect(trusted.signingKey == keyID)

        // A signature made by another key over the same manifest is refused.
        let manifest = try Data(contentsOf: URL(fileURLWithPath: phone.project.file("dist/wechat/1.0.0/manifest.json")))
        let otherSecret = try String(contentsOfFile: phone.project.file("other.key"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let other = try #require(SigningKey(secretKey: Array(Data(base64Encoded: otherSecret) ?? Data())))
        try Data((Data(other.sign(Array(manifest))).base64EncodedString() + "\n").utf8).write(to: URL(fileURLWithPath: phone.project.file("dist/wechat/1.0.0/manifest.json.sig")))
        let forged = try phone.refresher(trusting: ["release.key.pub"], folder: "C")
        await #expect(throws: RefreshError.badSignature("wechat@1.0.0")) { try await forged.refresh(try pin("wechat")) }
        #expect(forged.newestOnDisk("wechat") == nil)
    }

    static func manifestKeyID(_ path: String) throws -> String? {
        try JSONDecoder().decode(StoreManifest.self, from: Data(contentsOf: URL(fileURLWithPath: path))).signingKey
    }

    @Test func aYankedVersionIsNeverDownloaded() async throws {
        let phone = try Phone.make()
        defer { phone.server.stop() }
        try phone.publishWithNewClip3(as: "1.0.1")
        _ = try phone.run(["yank", "wechat@1.0.1", "--reason", "clip 3 clipped"])
        let refresher = try phone.refresher()
        phone.server.resetLog()
        await #expect(throws: RefreshError.yanked("wechat@1.0.1", reason: "clip 3 clipped")) {
            try await refresher.refresh(try pin("wechat@1.0.1"))
        }
        #expect(!phone.server.requests.contains { $0.contains("1.0.1") })
        // A push pinned to the yanked version gets the newest that is not yanked.
        let resolved = try #require(await refresher.resolve(try pin("wechat@1.0.1"), budget: 10))
        #expect(resolved.manifest.version.description == "1.0.0")
        #expect(resolved.source == .fallback(.yanked("wechat@1.0.1", reason: "clip 3 clipped")))
        #expect(!phone.server.requests.contains { $0.contains("1.0.1") })
        // And the planner refuses a pack the export marks yanked.
        let exported = try SharedManifest(data: Data(try phone.run(["export", "wechat@1.0.1", "--format", "json"]).stdout.utf8))
        #expect(throws: PlanError.yankedPack("wechat@1.0.1")) { try ClipPlanner(manifest: exported, packID: "wechat") }
    }

    @Test func aPinnedVersionOnDiskIsUsedWithoutTheNetwork() async throws {
        let phone = try Phone.make()
        try phone.publishWithNewClip3(as: "1.0.1")
        let refresher = try phone.refresher()
        _ = try await refresher.refresh(try pin("wechat@1.0.0"))
        _ = try await refresher.refresh(try pin("wechat@1.0.1"))
        phone.server.resetLog()
        let pinned = try #require(await refresher.resolve(try pin("wechat@1.0.0"), budget: 10))
        #expect(pinned.manifest.version.description == "1.0.0" && pinned.source == .pinnedOnDisk)
        #expect(phone.server.requests.isEmpty)

        // With the store unreachable, a pin the phone has not seen falls back to the newest on disk.
        phone.server.stop()
        let offline = try #require(await refresher.resolve(try pin("wechat@1.0.2"), budget: 5))
        #expect(offline.manifest.version.description == "1.0.1")
        guard case .fallback(.transport) = offline.source else { Issue.record("unexpected \(offline.source)"); return }
        // A pin that is not a pack id and version never reaches the network or the disk.
        #expect(PackRef("../../etc@1.0.0") == nil && PackRef("wechat@one") == nil && PackRef("wechat") != nil)
    }

    @Test func thePrefetcherIsBudgetedResumableAndVerifies() async throws {
        let phone = try Phone.make()
        defer { phone.server.stop() }
        let manifest = try await phone.refresher().refresh(try pin("wechat"))
        let pack = SharedPack(published: manifest, storeURL: phone.server.baseURL)
        let files = Set(pack.clips.values.map(\.file))
        let prefetcher = ClipPrefetcher(soundsFolder: phone.sounds, transport: URLSessionTransport())

        // Out of time before it starts: nothing fetched, everything left for the next run.
        let none = await prefetcher.prefetch(pack, bundled: ["prefix.caf"], until: .distantPast)
        #expect(none.downloaded.isEmpty && Set(none.remaining) == files.subtracting(["prefix.caf"]) && none.present == ["prefix.caf"])

        // A corrupted clip on the server is refused and not kept; the others are.
        let served = phone.project.file("dist/wechat/1.0.0/clips/5.caf")
        let good = try Data(contentsOf: URL(fileURLWithPath: served))
        var bad = good
        bad[bad.count - 10] ^= 0xFF
        try bad.write(to: URL(fileURLWithPath: served))
        let first = await prefetcher.prefetch(pack, bundled: ["prefix.caf"])
        #expect(Array(first.failed.keys) == ["5.caf"])
        #expect(first.failed["5.caf"]?.contains("SHA-256") == true)
        #expect(!FileManager.default.fileExists(atPath: phone.sounds.appendingPathComponent("5.caf").path))
        #expect(Set(first.downloaded) == files.subtracting(["prefix.caf", "5.caf"]))

        // Fixed on the server: the next run fetches only what is missing.
        try good.write(to: URL(fileURLWithPath: served))
        phone.server.resetLog()
        let second = await prefetcher.prefetch(pack, bundled: ["prefix.caf"])
        #expect(second.downloaded == ["5.caf"] && second.isComplete)
        #expect(phone.server.requests == ["/wechat/1.0.0/clips/5.caf"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: phone.sounds.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)

        // The extension then downloads nothing for any amount.
        let planner = try ClipPlanner(manifest: SharedManifest(bundledFiles: ["prefix.caf"], packs: ["wechat": pack]), packID: "wechat", soundsFolder: phone.sounds)
        #expect(try planner.plan(amount: "98765432.1").downloads.isEmpty)
    }

    @Test func joinedSoundsStayUnderTheCacheBudget() async throws {
        let phone = try Phone.make()
        defer { phone.server.stop() }
        let manifest = try await phone.refresher().refresh(try pin("wechat"))
        let pack = SharedPack(published: manifest, storeURL: phone.server.baseURL)
        let cache = JoinedSoundCache(folder: phone.sounds, budgetBytes: 600_000)
        var sizes: [Int] = []
        for amount in ["1.01", "22.02", "333.03", "4444.04", "55555.05", "666666.06", "7777777.07", "12345.67", "9.99", "10.1"] {
            let sound = try await phone.announce(amount, with: pack, into: cache)
            sizes.append(try Data(contentsOf: sound).count)
            #expect(FileManager.default.fileExists(atPath: sound.path))
            #expect(cache.totalBytes <= 600_000)
        }
        #expect(sizes.reduce(0, +) > 600_000, "the amounts must exceed the budget for eviction to be tested")
        // The clips the joins used are not joined sounds, and are never evicted.
        #expect(FileManager.default.fileExists(atPath: phone.sounds.appendingPathComponent("5.caf").path))
    }
}

// The main app's half: put the shared manifest into the App Group container, copy the bundled
// clips there and list them in the shared UserDefaults, so the extension knows what it has before
// it downloads anything; and, when the app runs, fetch the newest published version and its
// missing clips, so the extension rarely has to. Needs SoundpackShared.swift in the app target.

#if canImport(CryptoKit) && (os(iOS) || os(Linux))
import Foundation
import SoundpackCore

nonisolated enum SoundpackSetup {
    /// Call at launch: it copies the manifest and the bundled clips into the App Group container.
    /// A bundled clip is checked against the manifest's SHA-256 (one that does not match is not
    /// listed, so the extension downloads the published one) and copied when the group's copy has
    /// other bytes, even at the same size: a clip re-recorded at the same length is replaced. Each
    /// copy is written under a temporary name and renamed into place, so the extension, which may
    /// be reading the folder at that moment, sees the old clip or the new one, never part of one.
    ///
    /// A signature policy that is a set-up error (a configured key that is not `release.key.pub`'s
    /// contents) is reported to `configuration.report`; the install goes on, since the shipped
    /// manifest and clips are what the extension speaks with until it is fixed, but no manifest is
    /// fetched from the store (`refreshAndPrefetch` throws, the extension does not refresh).
    static func install(configuration: SoundpackConfiguration = .app, bundle: Bundle = .main) throws {
        do { _ = try configuration.manifestTrust() } catch { configuration.report("set-up: \(error)") }
        let group = try configuration.group()
        let name = (configuration.sharedManifestFile as NSString).deletingPathExtension
        let type = (configuration.sharedManifestFile as NSString).pathExtension
        guard let bundled = bundle.url(forResource: name, withExtension: type) else { throw CocoaError(.fileNoSuchFile) }
        let data = try Data(contentsOf: bundled)
        let manifest = try SharedManifest(data: data)  // refuse a manifest this app cannot read
        let sounds = configuration.sounds(in: group)
        let support = configuration.support(in: group)
        try FileManager.default.createDirectory(at: sounds, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: support, withIntermediateDirectories: true)
        configuration.protectFolders(in: group)
        try data.write(to: group.appendingPathComponent(configuration.sharedManifestFile), options: .atomic)

        // The extension runs from its own bundle and cannot read the app's: copy every clip the app
        // bundles into the group's Library/Sounds (where iOS also looks for notification sounds),
        // then list only those, so the extension downloads the others.
        let hasher = CryptoKitSHA256()
        let published = Dictionary(manifest.packs.values.flatMap { $0.clips.values }.map { ($0.file, $0.sha256) }, uniquingKeysWith: { first, _ in first })
        var present: [String] = []
        for file in manifest.bundledFiles {
            guard let source = bundle.url(forResource: file, withExtension: nil), let expected = published[file],
                  let bytes = try? Data(contentsOf: source), hasher.sha256Hex(bytes) == expected else { continue }
            let target = sounds.appendingPathComponent(file)
            if (try? Data(contentsOf: target)).map(hasher.sha256Hex) != expected {
                try replace(target, with: bytes)
            }
            present.append(file)
        }
        configuration.defaults?.set(present, forKey: manifest.key)  // kMainAppMp3FileKey by default
    }

    /// Writes `bytes` beside `target` under a hidden name with the same extension, then renames it
    /// over `target` in one step (rename(2)).
    private static func replace(_ target: URL, with bytes: Data) throws {
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".soundpack-\(UUID().uuidString).partial.\(target.pathExtension)")
        do {
            try bytes.write(to: temporary)
            guard rename(temporary.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// Call when the app becomes active (and from a background refresh task): fetches index.json
    /// (one 304 when nothing changed), the newest version's manifest if it is new, then every clip
    /// of it that is neither bundled nor already downloaded, until `seconds` have passed. A run cut
    /// short keeps what it finished; the next run fetches the rest. Throws `ManifestTrustError`,
    /// before any request, while the signature policy is a set-up error.
    @discardableResult
    static func refreshAndPrefetch(packID: String, seconds: TimeInterval = 20, configuration: SoundpackConfiguration = .app) async throws -> ClipPrefetcher.Report {
        let group = try configuration.group()
        let shipped = try SharedManifest(data: Data(contentsOf: group.appendingPathComponent(configuration.sharedManifestFile)))
        let listed = configuration.defaults?.stringArray(forKey: shipped.key) ?? []
        let transport = URLSessionTransport.ephemeral(seconds: seconds)
        defer { transport.session.finishTasksAndInvalidate() }
        guard let pin = PackRef(packID) else { throw CocoaError(.coderInvalidValue) }
        let refresher: ManifestRefresher
        do { refresher = try configuration.refresher(in: group, transport: transport) } catch {
            configuration.report("no refresh: \(error)")
            throw error
        }
        let manifest = try await refresher.refresh(pin)
        let pack = SharedPack(published: manifest, storeURL: configuration.storeURL)
        let prefetcher = ClipPrefetcher(soundsFolder: configuration.sounds(in: group), transport: transport, hasher: CryptoKitSHA256())
        return await prefetcher.prefetch(pack, bundled: Set(shipped.bundled(listed, stillUsedBy: pack)), until: Date(timeIntervalSinceNow: seconds))
    }

    /// For the app's `userNotificationCenter(_:willPresent:withCompletionHandler:)`: whether the
    /// extension already spoke this payment (then leave `.sound` out rather than speak it again).
    static func wasAnnounced(paymentID: String, configuration: SoundpackConfiguration = .app) -> Bool {
        guard let group = try? configuration.group() else { return false }
        return configuration.announcedPayments(in: group).wasAnnounced(paymentID)
    }
}
#endif

// The main app's half: put the shared manifest into the App Group container, copy the bundled
// clips there and list them in the shared UserDefaults, so the extension knows what it has before
// it downloads anything; and, when the app runs, fetch the newest published version and its
// missing clips, so the extension rarely has to. Needs SoundpackShared.swift in the app target.

#if canImport(UIKit) && canImport(CryptoKit) && os(iOS)
import Foundation
import SoundpackCore

enum SoundpackSetup {
    /// Call at launch: it copies the manifest and the bundled clips into the App Group container
    /// (a clip already there with the same size is kept), so they survive app updates cheaply.
    static func install() throws {
        let group = try SoundpackConfiguration.group()
        guard let bundled = Bundle.main.url(forResource: "SoundpackManifest", withExtension: "plist") else {
            throw CocoaError(.fileNoSuchFile)
        }
        let data = try Data(contentsOf: bundled)
        let manifest = try SharedManifest(data: data)  // refuse a manifest this app cannot read
        try data.write(to: group.appendingPathComponent(SoundpackConfiguration.manifestFile), options: .atomic)

        // The extension runs from its own bundle and cannot read the app's: copy every clip the app
        // bundles into the group's Library/Sounds (where iOS also looks for notification sounds),
        // then list only those, so the extension downloads the others.
        let sounds = SoundpackConfiguration.sounds(in: group)
        try FileManager.default.createDirectory(at: sounds, withIntermediateDirectories: true)
        var present: [String] = []
        for file in manifest.bundledFiles {
            guard let source = Bundle.main.url(forResource: file, withExtension: nil) else { continue }
            let target = sounds.appendingPathComponent(file)
            let size = { (url: URL) in (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue }
            if size(target) == nil || size(target) != size(source) {
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.copyItem(at: source, to: target)
            }
            present.append(file)
        }
        UserDefaults(suiteName: SoundpackConfiguration.appGroup)?.set(present, forKey: manifest.key)  // kMainAppMp3FileKey by default
    }

    /// Call when the app becomes active (and from a background refresh task): fetches index.json
    /// (one 304 when nothing changed), the newest version's manifest if it is new, then every clip
    /// of it that is neither bundled nor already downloaded, until `seconds` have passed. A run cut
    /// short keeps what it finished; the next run fetches the rest.
    @discardableResult
    static func refreshAndPrefetch(packID: String, seconds: TimeInterval = 20) async throws -> ClipPrefetcher.Report {
        let group = try SoundpackConfiguration.group()
        let shipped = try SharedManifest(data: Data(contentsOf: group.appendingPathComponent(SoundpackConfiguration.manifestFile)))
        let listed = UserDefaults(suiteName: SoundpackConfiguration.appGroup)?.stringArray(forKey: shipped.key) ?? []
        let transport = URLSessionTransport.ephemeral(seconds: seconds)
        defer { transport.session.finishTasksAndInvalidate() }
        guard let pin = PackPin(packID) else { throw CocoaError(.coderInvalidValue) }
        let manifest = try await SoundpackConfiguration.refresher(in: group, transport: transport).refresh(pin)
        let pack = SharedPack(published: manifest, storeURL: SoundpackConfiguration.storeURL)
        let prefetcher = ClipPrefetcher(soundsFolder: SoundpackConfiguration.sounds(in: group), transport: transport, hasher: CryptoKitSHA256())
        return await prefetcher.prefetch(pack, bundled: Set(shipped.bundled(listed, stillUsedBy: pack)), until: Date(timeIntervalSinceNow: seconds))
    }
}
#endif

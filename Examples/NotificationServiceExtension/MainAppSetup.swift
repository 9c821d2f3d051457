// The main app's half: put the shared manifest into the App Group container and write the list
// of clips the app bundles into the shared UserDefaults, so the extension knows what it has
// before it downloads anything.

#if canImport(UIKit) && os(iOS)
import Foundation
import SoundpackCore

enum SoundpackSetup {
    static let appGroup = "group.com.example.payments"
    static let manifestFile = "SoundpackManifest.plist"

    /// Call at launch: it copies the manifest and the bundled clips into the App Group container
    /// (a clip already there with the same size is kept), so they survive app updates cheaply.
    static func install() throws {
        guard let group = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup),
              let bundled = Bundle.main.url(forResource: "SoundpackManifest", withExtension: "plist") else {
            throw CocoaError(.fileNoSuchFile)
        }
        let data = try Data(contentsOf: bundled)
        let manifest = try SharedManifest(data: data)  // refuse a manifest this app cannot read
        try data.write(to: group.appendingPathComponent(manifestFile), options: .atomic)

        // The extension runs from its own bundle and cannot read the app's: copy every clip the app
        // bundles into the group's Library/Sounds (where iOS also looks for notification sounds),
        // then list only those, so the extension downloads the others.
        let sounds = group.appendingPathComponent("Library/Sounds", isDirectory: true)
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
        UserDefaults(suiteName: appGroup)?.set(present, forKey: manifest.key)  // kMainAppMp3FileKey by default
    }
}
#endif

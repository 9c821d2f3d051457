// The main app's half: put the shared manifest into the App Group container and write the list
// of clips the app bundles into the shared UserDefaults, so the extension knows what it has
// before it downloads anything.

#if canImport(UIKit) && os(iOS)
import Foundation
import SoundpackCore

enum SoundpackSetup {
    static let appGroup = "group.com.example.payments"
    static let manifestFile = "SoundpackManifest.plist"

    /// Call once at launch (and after an update that ships a new manifest).
    static func install() throws {
        guard let group = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup),
              let bundled = Bundle.main.url(forResource: "SoundpackManifest", withExtension: "plist") else {
            throw CocoaError(.fileNoSuchFile)
        }
        let data = try Data(contentsOf: bundled)
        let manifest = try SharedManifest(data: data)  // refuse a manifest this app cannot read
        try data.write(to: group.appendingPathComponent(manifestFile), options: .atomic)

        // Only the clips really in the bundle: the extension downloads the others.
        let present = manifest.bundledFiles.filter { Bundle.main.url(forResource: $0, withExtension: nil) != nil }
        UserDefaults(suiteName: appGroup)?.set(present, forKey: manifest.key)  // kMainAppMp3FileKey by default
    }
}
#endif

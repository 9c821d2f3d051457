// Fuzz target: pack.json bytes through the loader, the duplicate-key scan and what validation
// derives from a manifest (required tokens, framing); the shared manifest an app reads; and the
// store's index.json and manifest.json as a phone's ManifestRefresher decodes them.
import Foundation
import SoundpackCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    _ = JSONDuplicateKeys.first(in: bytes)
    if let manifest = try? PackFile(json: bytes) {
        let required = manifest.announcement.requiredTokens(upTo: manifest.maxAmount)
        precondition(required.contains(.prefix), "a pack's announcement always needs its prefix")
        _ = manifest.grammar.text(of: manifest.announcement.tokens(for: manifest.maxAmount), texts: manifest.texts).visible
    }
    if let shared = try? SharedManifest(data: bytes) {
        for pack in shared.packs.values { _ = try? ClipPlanner(manifest: shared, packID: pack.id).plan(amount: "15.40") }
    }
    _ = try? ManifestRefresher.decodeIndex(bytes)
    if let published = try? ManifestRefresher.decodeManifest(bytes) {
        for clip in published.clips.values {
            precondition(ManifestRefresher.isSafeStorePath(clip.file), "a decoded manifest's clip path stays in its folder")
        }
        let pack = SharedPack(published: published, storeURL: "https://cdn.example.com/voice")
        for clip in pack.clips.values {
            precondition(!clip.file.contains("/") && clip.file != ".." && clip.file != ".", "a clip file name is one path component")
            if let url = clip.url { precondition(url.host == "cdn.example.com", "a clip URL stays on the store's host") }
        }
        _ = try? ClipPlanner(manifest: SharedManifest(bundledFiles: [], packs: [pack.id: pack]), packID: pack.id).plan(amount: "15.40")
    }
    return 0
}

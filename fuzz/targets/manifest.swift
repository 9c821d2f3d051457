// Fuzz target: pack.json bytes through the loader, the duplicate-key scan and what validation
// derives from a manifest (required tokens, framing); and the shared manifest an app reads.
import Foundation
import SoundpackCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    _ = JSONDuplicateKeys.first(in: bytes)
    if let manifest = try? PackManifest(json: bytes) {
        let required = manifest.announcement.requiredTokens(upTo: manifest.maxAmount)
        precondition(required.contains(.prefix), "a pack's announcement always needs its prefix")
        _ = manifest.grammar.text(of: manifest.announcement.tokens(for: manifest.maxAmount), texts: manifest.texts).visible
    }
    if let shared = try? SharedManifest(data: bytes) {
        for pack in shared.packs.values { _ = try? ClipPlanner(manifest: shared, packID: pack.id).plan(amount: "15.40") }
    }
    return 0
}

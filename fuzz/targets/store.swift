// Fuzz target: a folder store whose index.json, ID/1.0.0/manifest.json and pack.json are the
// input (split at NUL bytes, in that order; ID is the manifest's id when it is one, else wechat), read back as catalog rebuild and verify read a store:
// a version rebuild records has a manifest phones take and the one publish writes for its
// pack.json (every path inside the store, the digest recomputed), and verify finds no fault in the
// manifest rebuild took. A file beside the store stands where a path that left it would lead.
import Foundation
import SoundpackCore
@testable import SoundpackKit

let fuzzRoot: String = {
    let base = (ProcessInfo.processInfo.environment["SOUNDPACK_FUZZ_TMP"] ?? "/tmp") + "/soundpack-fuzz-store-\(getpid())"
    try? FileManager.default.createDirectory(atPath: base + "/outside", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: base + "/outside/x.caf", contents: Data("outside".utf8))
    return base
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStore(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = Data(bytes: data, count: size).split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map { Data($0) }
    let root = fuzzRoot + "/dist"
    let id = ((try? ManifestRefresher.decodeManifest(parts.count > 1 ? parts[1] : Data()))?.id).flatMap { PackFile.isValidID($0) ? $0 : nil } ?? "wechat"
    try? FileManager.default.removeItem(atPath: root)
    try? FileManager.default.createDirectory(atPath: root + "/\(id)/1.0.0", withIntermediateDirectories: true)
    for (part, file) in zip(parts, ["index.json", "\(id)/1.0.0/manifest.json", "\(id)/1.0.0/pack.json"]) {
        _ = FileManager.default.createFile(atPath: root + "/" + file, contents: part)
    }
    let store = Store.directory(root)
    guard let catalog = try? CatalogLocation.inMemory.open() else { return 0 }
    let index = try? store.readIndex()
    for (id, pack) in index?.packs ?? [:] {
        precondition(PackFile.isValidID(id) && pack.versions.keys.allSatisfy { SemanticVersion($0) != nil }, "an index that was read names only pack ids and versions")
    }
    guard let report = try? StoreRecovery(store: store, catalog: catalog).recover(packID: nil, index: index, listing: true) else { return 0 }
    for name in report.recorded {
        precondition(name == "\(id)@1.0.0", "only the version in the store is recorded: \(name.visible)")
        let bytes = FileManager.default.contents(atPath: root + "/\(id)/1.0.0/manifest.json") ?? Data()
        let manifest: StoreManifest
        do { manifest = try ManifestRefresher.decodeManifest(bytes) } catch { preconditionFailure("rebuild recorded a manifest phones refuse: \(error)") }
        let pack = FileManager.default.contents(atPath: root + "/\(id)/1.0.0/pack.json") ?? Data()
        precondition(manifest.disagreement(withPackJSON: Array(pack)) == nil, "rebuild recorded a manifest that is not its pack.json's")
        for clip in manifest.clips.values { precondition(ManifestRefresher.isSafeStorePath(clip.file), "a recorded clip stays in its folder") }
        guard let result = try? StoreVerifier(catalog: catalog, store: store).verify() else { continue }
        let faults = result.drifts.filter { $0.file == "\(id)/1.0.0/manifest.json" || $0.file == "\(id)/1.0.0/pack.json" }
        precondition(faults.isEmpty, "verify faults the manifest rebuild recorded: \(faults.map(\.message))")
    }
    return 0
}

// Fuzz target: archive bytes (tar, tar.gz, zip, anything) through the safe extractor, in a fresh
// folder each time; nothing may land outside it.
import Foundation
import SoundpackCore
@testable import SoundpackKit

let fuzzRoot: String = {
    let base = (ProcessInfo.processInfo.environment["SOUNDPACK_FUZZ_TMP"] ?? "/tmp") + "/soundpack-fuzz-archive-\(getpid())"
    try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    return base
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchive(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let archive = fuzzRoot + "/input"
    let folder = fuzzRoot + "/out"
    _ = FileManager.default.createFile(atPath: archive, contents: Data(bytes: data, count: size))
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var limits = ExtractionLimits()
    limits.maxTotalBytes = 4 << 20
    limits.maxEntryBytes = 1 << 20
    _ = try? SafeExtractor.extract(archive, into: folder, limits: limits)
    // Everything extracted is inside the folder and a regular file or folder.
    for entry in Folders.walk(folder) {
        precondition(entry.kind != .other, "a special file was extracted: \(entry.path)")
    }
    // And nothing landed beside it.
    precondition(Set(Folders.walk(fuzzRoot).map(\.path).filter { !$0.hasBytePrefix("out/") }).isSubset(of: ["input", "out"]), "a file landed outside the folder")
    try? FileManager.default.removeItem(atPath: folder)
    return 0
}

// Fuzz target: archive bytes (tar, tar.gz, zip, anything) through the safe extractor, in a fresh
// folder each time; nothing may land outside it.
import Foundation
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
    if let walker = FileManager.default.enumerator(atPath: folder) {
        for case let relative as String in walker {
            var info = stat()
            precondition(lstat(folder + "/" + relative, &info) == 0, "an entry vanished")
            let type = info.st_mode & S_IFMT
            precondition(type == S_IFREG || type == S_IFDIR, "a special file was extracted: \(relative)")
        }
    }
    try? FileManager.default.removeItem(atPath: folder)
    return 0
}

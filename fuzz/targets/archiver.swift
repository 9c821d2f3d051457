// Fuzz target: the reproducible archive writer with names from the input (non-ASCII, combining
// marks, NFC and NFD spellings, long names), then the safe extractor on what it wrote: every file
// comes back under its exact name (bytes, not canonical equivalence) with its exact bytes from the
// tar.gz; from the zip, whose reader normalizes names to NFC, every file or a refusal of two names
// that became one. Publish once crashed in libarchive on a name like 五.caf, and wrote NFC and
// NFD spellings of a name as one name.
import Foundation
import SoundpackCore
@testable import SoundpackKit
@testable import SoundpackStore

let fuzzRoot: String = {
    let base = (ProcessInfo.processInfo.environment["SOUNDPACK_FUZZ_TMP"] ?? "/tmp") + "/soundpack-fuzz-archiver-\(getpid())"
    try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    return base
}()

/// Files from the input: records separated by 0x00; in each, the name up to 0x01, the contents after.
func files(from bytes: [UInt8]) -> [(path: String, bytes: [UInt8])] {
    var out: [(path: String, bytes: [UInt8])] = []
    var seen = Set<[UInt8]>()
    for record in bytes.split(separator: 0, omittingEmptySubsequences: true).prefix(16) {
        let parts = record.split(separator: 1, maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(decoding: parts[0].prefix(200), as: UTF8.self)
        // Only names a pack may hold: one or two components, none empty (no `//`), `.`, `..` or hidden.
        // Split on bytes: a combining mark after `/` makes one Character of the two.
        let components = name.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard (1...2).contains(components.count), components.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") && $0.utf8.count <= 100 }),
              SafeExtractor.unsafeReason(name) == nil, !name.hasSuffix("/"), name != "pack.json" else { continue }
        // A file and a folder of one name cannot both exist.
        let folders = components.count == 2 ? [components[0].pathKey] : []
        guard !seen.contains(name.pathKey), !folders.contains(where: { folder in out.contains { $0.path.pathKey == folder } }),
              !out.contains(where: { $0.path.slashSeparated.count == 2 && $0.path.slashSeparated[0].pathKey == name.pathKey }) else { continue }
        seen.insert(name.pathKey)
        out.append((name, parts.count > 1 ? Array(parts[1].prefix(4_096)) : []))
    }
    return out
}

/// A precondition whose message survives -O (which drops precondition messages): printed, then a trap.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("archiver: \(message)\n".utf8))
    fatalError()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchiver(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = files(from: Array(UnsafeBufferPointer(start: data, count: size)))
    guard !input.isEmpty else { return 0 }
    for kind in ArchiveKind.allCases {
        let archive: [UInt8]
        do { archive = try ReproducibleArchive.make(input, under: "p-1.0.0", kind: kind, mtime: 0) } catch {
            fail("a pack's names cannot be archived (\(kind.rawValue)): \(error.description.visible)")
        }
        let again = try? ReproducibleArchive.make(input, under: "p-1.0.0", kind: kind, mtime: 0)
        check(again == archive, "the archive is not reproducible")
        let file = fuzzRoot + "/archive." + kind.rawValue
        let folder = fuzzRoot + "/out"
        try? FileManager.default.removeItem(atPath: folder)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: file, contents: Data(archive))
        let extracted: [String]
        do { extracted = try SafeExtractor.extract(file, into: folder) } catch {
            // libarchive's zip reader turns UTF-8 names into NFC (it cannot be turned off), so two
            // names that differ only in normalization meet as one: refused, never merged.
            if kind == .zip, error.description.contains("appears twice") { continue }
            fail("what the writer made, the extractor refuses (\(kind.rawValue)): \(error.description.visible)")
        }
        check(extracted.count == input.count, "files were lost in \(kind.rawValue)")
        if kind == .zip {
            // Names may come back normalized; ASCII ones exactly, with their bytes.
            for entry in input where entry.path.utf8.allSatisfy({ $0 < 0x80 }) {
                let back = try? CappedFile.read(folder + "/p-1.0.0/" + entry.path, cap: 1 << 20, what: "an extracted file")
                check(back == entry.bytes, "the bytes of '\(entry.path.visible)' changed in zip")
            }
            continue
        }
        check(Set(extracted.map(\.pathKey)) == Set(input.map { ("p-1.0.0/" + $0.path).pathKey }), "names changed in \(kind.rawValue)")
        for entry in input {
            // Read with CappedFile: FileManager.contents(atPath:) leaks its buffer for an empty file
            // (LeakSanitizer, swift-corelibs Foundation in Swift 6.3), which would stop the run.
            let back = try? CappedFile.read(folder + "/p-1.0.0/" + entry.path, cap: 1 << 20, what: "an extracted file")
            check(back == entry.bytes, "the bytes of '\(entry.path.visible)' changed in \(kind.rawValue)")
        }
    }
    return 0
}

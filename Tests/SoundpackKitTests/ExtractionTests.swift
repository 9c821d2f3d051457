// The extractor is library code: it runs beside other threads and must leave the process's
// working folder alone (libarchive resolves relative names against it).

import Foundation
import Synchronization
import Testing
import SoundpackTestSupport
@testable import SoundpackKit

@Suite struct ExtractionTests {
    @Test func extractingNeverChangesTheWorkingFolder() throws {
        let folder = TemporaryFolder()
        let files = (0..<400).map { (path: "clips/\($0).caf", bytes: [UInt8](repeating: UInt8($0 & 0xFF), count: 2_048)) }
        let archive = try ReproducibleArchive.make(files, under: "p-1.0.0", kind: .tarGzip, mtime: 0)
        try Data(archive).write(to: URL(fileURLWithPath: folder.file("p.tar.gz")))
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: true)
        let before = FileManager.default.currentDirectoryPath
        let done = Atomic<Bool>(false)
        let seen = Mutex<Set<String>>([])
        let watcher = Thread {
            // Whatever the working folder is while the extraction runs, it is seen here.
            while !done.load(ordering: .acquiring) {
                let now = FileManager.default.currentDirectoryPath
                seen.withLock { _ = $0.insert(now) }
            }
        }
        watcher.start()
        let extracted = try SafeExtractor.extract(folder.file("p.tar.gz"), into: folder.file("out"))
        done.store(true, ordering: .releasing)
        #expect(extracted.count == 400)
        #expect(seen.withLock { $0 }.allSatisfy { $0 == before }, "the working folder changed during extraction: \(seen.withLock { $0 })")
        #expect(FileManager.default.currentDirectoryPath == before)
    }
}

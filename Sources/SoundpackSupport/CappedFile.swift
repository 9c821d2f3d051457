// Reading a file named by someone else: only a regular file, only up to a cap, never blocking on a
// FIFO or a device, and the cap checked before a byte is read.

import Foundation

package enum CappedFile {
    /// The whole file at `path`, refused when it is not a regular file or holds more than `cap`
    /// bytes (`what` names it in that message: "a clip", "pack.json"). Without `followingLinks`, a
    /// symbolic link at `path` is refused, even one swapped in after a look (O_NOFOLLOW).
    package static func read(_ path: String, cap: Int, what: String, followingLinks: Bool = true) throws(SoundpackError) -> [UInt8] {
        try read(path, cap: cap, what: what, followingLinks: followingLinks) { size, fill in
            [UInt8](unsafeUninitializedCapacity: size) { buffer, filled in filled = fill(UnsafeMutableRawBufferPointer(buffer)) }
        }
    }

    /// `read(_:cap:what:followingLinks:)` into a Data: a file of megabytes is not copied again.
    package static func readData(_ path: String, cap: Int, what: String, followingLinks: Bool = true) throws(SoundpackError) -> Data {
        try read(path, cap: cap, what: what, followingLinks: followingLinks) { size, fill in
            var data = Data(count: size)
            data.count = data.withUnsafeMutableBytes { fill($0) }
            return data
        }
    }

    /// Whether the file at `path` holds exactly `known`'s bytes: read a piece at a time into one
    /// small buffer and compared, so a big file that did not change costs no copy of its own.
    /// Opened and refused as `read` opens and refuses it.
    package static func holds(_ path: String, exactly known: Data, cap: Int, what: String) throws(SoundpackError) -> Bool {
        var same = true
        _ = try read(path, cap: cap, what: what, followingLinks: true) { (size: Int, fill: (UnsafeMutableRawBufferPointer) -> Int) -> Void in
            guard size == known.count else { same = false; return }
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: min(max(size, 1), 1 << 16) + 1, alignment: 16)
            defer { chunk.deallocate() }
            known.withUnsafeBytes { (expected: UnsafeRawBufferPointer) in
                var at = 0
                while same {
                    let n = fill(chunk)
                    // Past the known bytes (the file grew meanwhile), or different: not the same.
                    guard at + n <= expected.count else { same = false; return }
                    if n > 0, memcmp(chunk.baseAddress!, expected.baseAddress! + at, n) != 0 { same = false }
                    at += n
                    if n < chunk.count { break }
                }
                if at != expected.count { same = false }
            }
        }
        return same
    }

    /// The file read by `make`, given its size and a function that fills a buffer of that size
    /// and says how many bytes it read (fewer when the file shrank meanwhile).
    private static func read<Bytes>(_ path: String, cap: Int, what: String, followingLinks: Bool,
                                    into make: (Int, (UnsafeMutableRawBufferPointer) -> Int) -> Bytes) throws(SoundpackError) -> Bytes {
        // Looked at first: a FIFO or a device is refused without being opened.
        if case .other(let kind)? = followingLinks ? FileKind.of(path) : FileKind.at(path) { throw SoundpackError.environment("not a regular file: \(kind)") }
        // O_NONBLOCK: one swapped in meanwhile must not make the open wait for a writer either.
        let fd = SystemCall.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followingLinks ? 0 : O_NOFOLLOW))
        guard fd >= 0 else { throw SoundpackError.environment("cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SoundpackError.environment("cannot stat: \(String(cString: strerror(errno)))") }
        if case .other(let kind) = FileKind(mode: info.st_mode) { throw SoundpackError.environment("not a regular file: \(kind)") }
        guard info.st_size <= cap else {
            let limit = cap >= 1_048_576 ? "\(cap / 1_048_576) MiB" : "\(cap) byte"
            throw SoundpackError.environment("\(info.st_size) bytes is above the \(limit) cap for \(what)")
        }
        // Read straight into the storage `make` gives: only the bytes read become its elements.
        var failure: SoundpackError?
        let bytes = make(Int(info.st_size)) { buffer in
            var filled = 0
            while filled < buffer.count {
                let n = SystemCall.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    if n < 0 { failure = SoundpackError.environment("read failed: \(String(cString: strerror(errno)))") }
                    return filled
                }
                filled += n
            }
            return filled
        }
        if let failure { throw failure }
        return bytes
    }
}

// Reading a file named by someone else: only a regular file, only up to a cap, never blocking on a
// FIFO or a device, and the cap checked before a byte is read.

import Foundation

public enum CappedFile {
    /// The whole file at `path`, refused when it is not a regular file or holds more than `cap`
    /// bytes (`what` names it in that message: "a clip", "pack.json").
    public static func read(_ path: String, cap: Int, what: String) throws(CappedFileError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO planted where a file should be must not wait for a writer.
        let fd = SystemCall.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw CappedFileError("cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw CappedFileError("cannot stat: \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw CappedFileError("not a regular file") }
        guard info.st_size <= cap else {
            let limit = cap >= 1_048_576 ? "\(cap / 1_048_576) MiB" : "\(cap) byte"
            throw CappedFileError("\(info.st_size) bytes is above the \(limit) cap for \(what)")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { SystemCall.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                if n == 0 { break }
                throw CappedFileError("read failed: \(String(cString: strerror(errno)))")
            }
            filled += n
        }
        bytes.removeSubrange(filled...)
        return bytes
    }
}

// Writing where a user pointed `-o`: a regular file is replaced whole (readers never see half of
// it), but a device, a FIFO or a socket that already stands there is written into, never replaced:
// `-o /dev/null` must not turn /dev/null into a regular file.

import Foundation

package enum OutputFile {
    /// Writes `data` to `path`: into an existing FIFO, character device or socket as it is; over a
    /// regular file (or a new name) through `AtomicFile`. A folder or a block device is refused.
    /// The parent folder must exist: a typo in it is an error, not a new folder.
    package static func write(_ data: Data, to path: String) throws(POSIXFailure) {
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFIFO, S_IFCHR, S_IFSOCK:
                try writeInto(data, path, isFIFO: info.st_mode & S_IFMT == S_IFIFO)
                return
            case S_IFDIR:
                throw POSIXFailure(path + " is a folder", code: EISDIR)
            default:
                throw POSIXFailure(path + " is a block device or another special file; refusing to write into it", code: EPERM)
            }
        }
        let parent = (path as NSString).deletingLastPathComponent
        var folder = stat()
        guard stat(parent.isEmpty ? "." : parent, &folder) == 0, folder.st_mode & S_IFMT == S_IFDIR else {
            throw POSIXFailure("the folder \(parent) does not exist (create it first)", code: ENOENT)
        }
        do { try AtomicFile.write(data, to: path) } catch let failure as POSIXFailure { throw failure } catch {
            throw POSIXFailure("cannot write \(path): \(error.localizedDescription)", code: EIO)
        }
    }

    /// Appends `data` to `path` (`GITHUB_STEP_SUMMARY`): a regular file is appended to, a FIFO or
    /// device written into as `write` does; a missing file is an error (the runner creates it).
    package static func append(_ data: Data, to path: String) throws(POSIXFailure) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw POSIXFailure("cannot append to \(path)") }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else { throw POSIXFailure("cannot append to \(path)") }
            defer { close(fd) }
            try FileBytes.writeAll(data, to: fd, path: path)
        case S_IFIFO, S_IFCHR: try writeInto(data, path, isFIFO: info.st_mode & S_IFMT == S_IFIFO)
        default: throw POSIXFailure(path + " is not a file soundpack can append to", code: EPERM)
        }
    }

    /// How long a FIFO may go without a reader, or with a reader that takes nothing, before the
    /// write gives up: a FIFO nobody reads must not hold a CI job forever.
    static let fifoPatience: Duration = .seconds(10)

    private static func writeInto(_ data: Data, _ path: String, isFIFO: Bool) throws(POSIXFailure) {
        guard isFIFO else {
            let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else { throw POSIXFailure("cannot open \(path)") }
            defer { close(fd) }
            try FileBytes.writeAll(data, to: fd, path: path)
            return
        }
        // A FIFO: opened without blocking (ENXIO while nobody reads it, retried until the
        // patience runs out), then written with poll(2) bounding every wait for room.
        let clock = ContinuousClock()
        let deadline = clock.now + fifoPatience
        var fd: Int32 = -1
        while true {
            fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            if fd >= 0 { break }
            guard errno == ENXIO || errno == EINTR else { throw POSIXFailure("cannot open \(path)") }
            guard clock.now < deadline else { throw POSIXFailure("\(path) is a FIFO that nobody reads (waited \(fifoPatience))", code: ENXIO) }
            usleep(20_000)
        }
        defer { close(fd) }
        let failure: POSIXFailure? = data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = SystemCall.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 { offset += n; continue }
                if n < 0 && errno == EINTR { continue }
                guard n < 0 && errno == EAGAIN else { return POSIXFailure("cannot write \(path)") }
                let left = deadline - clock.now
                guard left > .zero else { return POSIXFailure("the reader of the FIFO \(path) stopped reading (waited \(fifoPatience))", code: EAGAIN) }
                var request = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let millis = Int32(clamping: left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
                if poll(&request, 1, millis) < 0 && errno != EINTR { return POSIXFailure("cannot wait for \(path)") }
                if request.revents & Int16(POLLERR | POLLHUP) != 0 { return POSIXFailure("the reader of the FIFO \(path) went away", code: EPIPE) }
            }
            return nil
        }
        if let failure { throw failure }
    }
}

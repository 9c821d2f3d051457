// Writing where a user pointed `-o`: a regular file is replaced whole (readers never see half of
// it), but a device, a FIFO or a socket that already stands there is written into, never replaced:
// `-o /dev/null` must not turn /dev/null into a regular file.

import Foundation

public enum OutputFile {
    /// Writes `data` to `path`: into an existing FIFO, character device or socket as it is; over a
    /// regular file (or a new name) through `AtomicFile`. A folder or a block device is refused.
    /// The parent folder must exist: a typo in it is an error, not a new folder.
    public static func write(_ data: Data, to path: String) throws(POSIXFailure) {
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFIFO, S_IFCHR, S_IFSOCK:
                try writeInto(data, path)
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

    private static func writeInto(_ data: Data, _ path: String) throws(POSIXFailure) {
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw POSIXFailure("cannot open \(path)") }
        defer { close(fd) }
        try FileBytes.writeAll(data, to: fd, path: path)
    }
}

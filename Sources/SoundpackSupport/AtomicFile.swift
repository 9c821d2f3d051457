// Writing a file so that readers see the old content or the new, never half of it.

#if os(Linux)
import CSyscalls
#endif
import Foundation

package enum AtomicFile {
    /// Writes `data` to a temporary name in the same folder, fsyncs it, renames it over `path`,
    /// then fsyncs the folder. The file has `mode` from its creation, before its first byte (a
    /// secret key is never readable by others, not even for a moment); with `replacing` false an
    /// existing `path` is an error (EEXIST), even one that appears while writing.
    package static func write(_ data: Data, to path: String, mode: mode_t = 0o644, replacing: Bool = true) throws {
        try write(pieces: [data], to: path, mode: mode, replacing: replacing)
    }

    /// `write(_:to:mode:replacing:)` of the pieces' bytes one after another.
    package static func write(pieces: [Data], to path: String, mode: mode_t = 0o644, replacing: Bool = true) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = "\(folder)/.\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw POSIXFailure("cannot create \(temporary)") }
        var ok = false
        defer {
            if !ok { unlink(temporary) }
        }
        do {
            defer { close(fd) }
            for piece in pieces { try FileBytes.writeAll(piece, to: fd, path: temporary) }
            guard fsync(fd) == 0 else { throw POSIXFailure("cannot fsync \(temporary)") }
        }
        if replacing {
            guard rename(temporary, path) == 0 else { throw POSIXFailure("cannot rename \(temporary) to \(path)") }
        } else {
            // link(2) never replaces: it fails with EEXIST where rename would overwrite.
            guard link(temporary, path) == 0 else { throw POSIXFailure("cannot create \(path)") }
            unlink(temporary)
        }
        ok = true
        let dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            fsync(dir)
            close(dir)
        }
    }
}

/// A failed system call, with errno's text.
package struct POSIXFailure: Error, LocalizedError, CustomStringConvertible {
    package let message: String
    /// errno when the failure happened.
    package let code: Int32
    init(_ what: String) {
        code = errno
        message = "\(what): \(String(cString: strerror(code)))"
    }
    /// A failure described in full by `message`, with the errno it stands for.
    init(_ message: String, code: Int32) {
        self.message = message
        self.code = code
    }
    package var description: String { message }
    package var errorDescription: String? { message }
}

/// Plain writes for files assembled in a private folder (a staging folder), made durable in a batch.
package enum FileBytes {
    /// Creates `path` (which must not exist) with `data`; no sync.
    package static func write(_ data: Data, to path: String) throws(POSIXFailure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXFailure("cannot create \(path)") }
        defer { close(fd) }
        try writeAll(data, to: fd, path: path)
    }

    /// Writes every byte of `data` to the open descriptor `fd` (retrying short writes and EINTR);
    /// `path` names the file in the error.
    static func writeAll(_ data: Data, to fd: Int32, path: String) throws(POSIXFailure) {
        let failure: POSIXFailure? = data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = SystemCall.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return POSIXFailure("cannot write \(path)") }
                offset += n
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Makes `files` and the entries of `folders` durable as one batch. On Linux: one syncfs(2) of
    /// the file system that holds them, one device flush for the whole version instead of one per
    /// file (it also writes out other processes' dirty pages on that file system; measured with
    /// scripts/bench.sh it still costs less than the per-file fsyncs). Elsewhere: an fsync of each
    /// file, then of each folder.
    package static func syncAll(_ files: [String], folders: Set<String>) throws(POSIXFailure) {
        #if os(Linux)
        if let first = files.first ?? folders.first {
            let fd = open(first, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw POSIXFailure("cannot open \(first)") }
            defer { close(fd) }
            guard soundpack_syncfs(fd) == 0 else { throw POSIXFailure("cannot syncfs \(first)") }
            return
        }
        #endif
        var descriptors: [(path: String, fd: Int32)] = []
        defer { for entry in descriptors { close(entry.fd) } }
        for file in files {
            let fd = open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw POSIXFailure("cannot open \(file)") }
            descriptors.append((file, fd))
        }
        for entry in descriptors {
            guard fsync(entry.fd) == 0 else { throw POSIXFailure("cannot fsync \(entry.path)") }
        }
        for folder in folders { syncFolder(folder) }
    }

    /// fsync of a folder, so renames and new names in it are on disk; best effort (some file
    /// systems cannot sync a folder).
    package static func syncFolder(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

// Reproducible pack archives and safe extraction through libarchive; the only file that imports CArchive.

import CArchive
import Foundation
import SoundpackCore
import SoundpackSupport

/// libarchive's AE_IFREG and AE_IFDIR are macros with casts, which Swift does not import.
private let regularFileType: UInt32 = 0o100000
private let folderType: UInt32 = 0o040000

/// Runs `body` with a UTF-8 LC_CTYPE on this thread only. libarchive converts entry names through the
/// C library's current locale, and in the "C" locale a non-ASCII name has no multibyte form: the pax
/// and zip writers then pass NULL to strlen (libarchive/libarchive#2233), and the reader cannot name
/// a pax `path=` entry. The process locale is left alone.
private func withUTF8Names<T>(_ body: () throws(SoundpackError) -> T) throws(SoundpackError) -> T {
    guard let utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) else {
        throw SoundpackError.environment("the C.UTF-8 locale is not available, so libarchive cannot handle non-ASCII file names")
    }
    defer { freelocale(utf8) }
    let previous = uselocale(utf8)
    defer { uselocale(previous) }
    return try body()
}

package enum ArchiveKind: String, Sendable, CaseIterable {
    case tarGzip = "tar.gz"
    case zip
}

/// Builds archives whose bytes depend only on the files given: every entry under one top-level
/// folder (`wechat-1.0.0/`, so extracting never spills into the current folder), entries sorted by
/// path, one fixed mtime (tar; zip entries carry none, so their DOS date is 1980-01-01 in every
/// time zone), uid/gid 0 without owner names, modes 0644 for files and 0755 for folders, no gzip
/// timestamp, and no padding after the end of the gzip stream or the zip's end record.
package enum ReproducibleArchive {
    /// `deflateZip` deflates zip entries (publish stores them; tests make deflated zips to import).
    package static func make(_ files: [(path: String, bytes: [UInt8])], under root: String, kind: ArchiveKind, mtime: Int64,
                            deflateZip: Bool = false) throws(SoundpackError) -> [UInt8] {
        try withUTF8Names { () throws(SoundpackError) in try write(files, under: root, kind: kind, mtime: mtime, deflateZip: deflateZip) }
    }

    private static func write(_ files: [(path: String, bytes: [UInt8])], under root: String, kind: ArchiveKind, mtime: Int64,
                              deflateZip: Bool) throws(SoundpackError) -> [UInt8] {
        guard let archive = archive_write_new() else { throw SoundpackError.environment("libarchive could not allocate a writer") }
        defer { archive_write_free(archive) }
        let asciiNames = files.allSatisfy { $0.path.utf8.allSatisfy { $0 < 0x80 } }
        try selectFormat(of: archive, kind: kind, asciiNames: asciiNames, deflateZip: deflateZip)
        // Write into memory through callbacks, so the caller decides where the bytes go.
        let sink = ByteSink()
        let opened = archive_write_open(
            archive, Unmanaged.passUnretained(sink).toOpaque(), nil,
            { _, user, buffer, length in
                guard let user, let buffer else { return -1 }
                Unmanaged<ByteSink>.fromOpaque(user).takeUnretainedValue().bytes.append(
                    contentsOf: UnsafeRawBufferPointer(start: buffer, count: length))
                return length
            }, nil)
        try check(archive, opened, "cannot open the archive")
        for entry in entries(files, under: root) {
            try add(entry, to: archive, kind: kind, mtime: mtime)
        }
        try check(archive, archive_write_close(archive), "cannot finish the archive")
        return sink.bytes
    }

    private static func check(_ archive: OpaquePointer, _ status: Int32, _ what: String) throws(SoundpackError) {
        guard status == ARCHIVE_OK else {
            throw SoundpackError.environment("\(what): \(archive_error_string(archive).map { String(cString: $0) } ?? "libarchive error \(status)")")
        }
    }

    /// The format and filters of `kind`, with no padding after the end of the format.
    private static func selectFormat(of archive: OpaquePointer, kind: ArchiveKind, asciiNames: Bool, deflateZip: Bool) throws(SoundpackError) {
        switch kind {
        case .tarGzip:
            try check(archive, archive_write_set_format_pax_restricted(archive), "cannot select the tar format")
            // pax `path=` records carry the name's bytes unconverted (hdrcharset=BINARY), not a
            // normalized copy. Only when a name needs it: with ASCII names the archive has no pax
            // header at all, byte for byte what earlier releases wrote.
            if !asciiNames {
                try check(archive, archive_write_set_format_option(archive, "pax", "hdrcharset", "BINARY"), "cannot keep names as bytes")
            }
            try check(archive, archive_write_add_filter_gzip(archive), "cannot add gzip")
            try check(archive, archive_write_set_filter_option(archive, "gzip", "timestamp", nil), "cannot drop the gzip timestamp")
        case .zip:
            try check(archive, archive_write_set_format_zip(archive), "cannot select the zip format")
            // Entries stored, not deflated: PCM barely compresses (the tar.gz, which is deflated
            // once, carries the saving), and deflating it a second time was most of publish's CPU.
            try check(archive, archive_write_set_format_option(archive, "zip", "compression", deflateZip ? "deflate" : "store"), "cannot set the zip compression")
        }
        // libarchive pads the last block to 10240 bytes by default: bytes after the end of the
        // format that zipdetails and gzip report as trailing garbage.
        try check(archive, archive_write_set_bytes_in_last_block(archive, 1), "cannot drop the last block's padding")
    }

    /// Every file and every folder on the way to one, under `root`, sorted by the bytes of their paths
    /// (a folder's path ends in `/`; it has no bytes).
    private static func entries(_ files: [(path: String, bytes: [UInt8])], under root: String) -> [(path: String, bytes: [UInt8]?)] {
        var entries: [(path: String, bytes: [UInt8]?)] = files.map { ("\(root)/\($0.path)", $0.bytes) }
        var folders: Set<String> = ["\(root)/"]
        for file in files {
            var parts = ([root] + file.path.slashSeparated).dropLast()
            while !parts.isEmpty {
                folders.insert(parts.joined(separator: "/") + "/")
                parts = parts.dropLast()
            }
        }
        entries += folders.map { ($0, nil) }
        entries.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        return entries
    }

    /// Writes one entry's header, owned by 0:0 with a fixed mode (and mtime for tar), and its bytes.
    private static func add(_ entry: (path: String, bytes: [UInt8]?), to archive: OpaquePointer, kind: ArchiveKind, mtime: Int64) throws(SoundpackError) {
        guard let header = archive_entry_new() else { throw SoundpackError.environment("libarchive could not allocate an entry") }
        defer { archive_entry_free(header) }
        // The name's bytes as they are: libarchive's UTF-8 conversions normalize to NFC, which
        // would give `é` (U+00E9) and `e` + U+0301, two files, one name in the archive.
        archive_entry_copy_pathname(header, entry.path)
        // Without a multibyte form of the name the tar and zip writers dereference NULL.
        guard archive_entry_pathname(header) != nil else { throw SoundpackError.environment("cannot add \(entry.path.quoted(limit: 80)): its name has no form libarchive can write") }
        archive_entry_set_uid(header, 0)
        archive_entry_set_gid(header, 0)
        if kind == .tarGzip { archive_entry_set_mtime(header, time_t(mtime), 0) }
        if let bytes = entry.bytes {
            archive_entry_set_filetype(header, regularFileType)
            archive_entry_set_perm(header, 0o644)
            archive_entry_set_size(header, la_int64_t(bytes.count))
        } else {
            archive_entry_set_filetype(header, folderType)
            archive_entry_set_perm(header, 0o755)
            archive_entry_set_size(header, 0)
        }
        try check(archive, archive_write_header(archive, header), "cannot add \(entry.path)")
        if let bytes = entry.bytes, !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { archive_write_data(archive, $0.baseAddress, $0.count) }
            guard written == bytes.count else { throw SoundpackError.environment("cannot write \(entry.path) into the archive") }
        }
    }
}

private final class ByteSink {
    var bytes: [UInt8] = []
}

/// Limits that keep a hostile archive from filling the disk or exhausting memory.
public struct ExtractionLimits: Sendable {
    var maxArchiveBytes = 256 * 1024 * 1024
    package var maxEntries = 2_000
    package var maxEntryBytes: Int64 = 16 * 1024 * 1024
    package var maxTotalBytes: Int64 = 256 * 1024 * 1024
    /// The default limits: 2,000 entries, 16 MiB an entry, 256 MiB in all.
    public init() {}
}

/// Extracts tar, tar.gz and zip archives into an empty folder, refusing anything that could
/// write outside it or exhaust the disk.
package enum SafeExtractor {
    /// Extracts `archivePath` into `folder` (which must exist and be empty). Returns the paths of
    /// the extracted files. On error, files already written stay in `folder` for the caller to remove.
    package static func extract(_ archivePath: String, into folder: String, limits: ExtractionLimits = ExtractionLimits()) throws(SoundpackError) -> [String] {
        try withUTF8Names { () throws(SoundpackError) in try read(archivePath, into: folder, limits: limits) }
    }

    private static func read(_ archivePath: String, into folder: String, limits: ExtractionLimits) throws(SoundpackError) -> [String] {
        try checkArchiveFile(archivePath, limits: limits)
        guard let reader = archive_read_new() else { throw SoundpackError.environment("libarchive could not allocate a reader") }
        defer { archive_read_free(reader) }
        guard let writer = archive_write_disk_new() else { throw SoundpackError.environment("libarchive could not allocate a disk writer") }
        defer { archive_write_free(writer) }
        // Only the formats a pack arrives in; no ISO, cpio, rar or 7z parsers are exposed.
        archive_read_support_format_tar(reader)
        archive_read_support_format_zip(reader)
        archive_read_support_filter_gzip(reader)
        archive_read_support_filter_none(reader)
        archive_write_disk_set_options(writer, ARCHIVE_EXTRACT_SECURE_NODOTDOT | ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_NO_OVERWRITE)
        guard archive_read_open_filename(reader, archivePath, 64 * 1024) == ARCHIVE_OK else {
            throw SoundpackError.environment("not a tar, tar.gz or zip archive: \(message(reader))")
        }

        // libarchive's disk writer resolves a relative name against the process's working folder,
        // which a library must not change (another thread may be using it). Each entry is written
        // at its absolute path under the folder's real path (no symlink on the way for
        // SECURE_SYMLINKS to refuse); its name is checked as a relative one first (`unsafeReason`),
        // so the absolute path never leaves the folder.
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SoundpackError.environment("cannot extract into \(folder): not a folder")
        }
        let root = Folders.realPath(folder)

        var seen = Set<[UInt8]>()  // by bytes: NFC and NFD names are two files
        var extracted: [String] = []
        var total: Int64 = 0
        var entry: OpaquePointer?
        while true {
            let status = archive_read_next_header(reader, &entry)
            if status == ARCHIVE_EOF { break }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                throw SoundpackError.environment("damaged archive: \(message(reader))")
            }
            guard seen.count < limits.maxEntries else {
                throw SoundpackError.environment("more than \(limits.maxEntries) entries")
            }
            guard let (name, path) = try entryPath(entry) else { continue }
            let isFolder = try checkEntry(entry, name: name, path: path, seen: &seen, limits: limits)
            archive_entry_set_pathname(entry, root + (root.hasSuffix("/") ? "" : "/") + path)
            archive_entry_set_perm(entry, isFolder ? 0o755 : 0o644)
            archive_entry_set_uid(entry, la_int64_t(getuid()))
            archive_entry_set_gid(entry, la_int64_t(getgid()))
            guard archive_write_header(writer, entry) == ARCHIVE_OK else {
                throw SoundpackError.environment("entry '\(name.quoted(limit: 80))' refused: \(message(writer))")
            }
            if !isFolder {
                try copyData(of: name, from: reader, to: writer, total: &total, limits: limits)
                extracted.append(path)
            }
            guard archive_write_finish_entry(writer) == ARCHIVE_OK else { throw SoundpackError.environment("cannot finish '\(name.quoted(limit: 80))': \(message(writer))") }
        }
        return extracted
    }

    private static func message(_ archive: OpaquePointer?) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "unknown libarchive error"
    }

    /// The archive must be a regular file within the size cap.
    private static func checkArchiveFile(_ archivePath: String, limits: ExtractionLimits) throws(SoundpackError) {
        let attributes = try? FileManager.default.attributesOfItem(atPath: archivePath)
        guard let size = (attributes?[.size] as? NSNumber)?.intValue else { throw SoundpackError.environment("cannot read \(archivePath)") }
        guard attributes?[.type] as? FileAttributeType == .typeRegular else { throw SoundpackError.environment("\(archivePath) is not a regular file") }
        guard size <= limits.maxArchiveBytes else {
            throw SoundpackError.environment("the archive is \(size) bytes, above the \(limits.maxArchiveBytes / 1_048_576) MiB cap")
        }
    }

    /// The entry's name as written and its path in the pack, spelled one way; nil for the
    /// archive's own top folder (`./`), which is skipped.
    private static func entryPath(_ entry: OpaquePointer) throws(SoundpackError) -> (name: String, path: String)? {
        guard let raw = archive_entry_pathname(entry) else { throw SoundpackError.environment("an entry has no name") }
        // A name that is not UTF-8 would be written to disk as raw bytes no pack path can name.
        guard let name = String(validatingCString: raw) else {
            throw SoundpackError.environment("entry '\(String(cString: raw).quoted(limit: 80))' refused: its name is not UTF-8")
        }
        // `tar -C pack -czf p.tgz .` names entries `./`, `./pack.json`: the same layout.
        var stripped = name
        while stripped.hasBytePrefix("./") { stripped = String(decoding: stripped.utf8.dropFirst(2), as: UTF8.self) }
        if (stripped.isEmpty || stripped == ".") && archive_entry_filetype(entry) == folderType && !name.isEmpty { return nil }
        // One spelling per path: `clips//5.caf` and `clips/./5.caf` are `clips/5.caf` on disk,
        // so they are that name here too (two of them are one file, refused below as twice).
        let parts = stripped.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
            .filter { !$0.elementsEqual(".".utf8) }.map { String(decoding: $0, as: UTF8.self) }
        return (name, parts.joined(separator: "/") + (stripped.hasSuffix("/") && !parts.isEmpty ? "/" : ""))
    }

    /// Refuses an entry whose path is unsafe, that is a link, device or FIFO, that appears twice or
    /// declares too many bytes; whether it is a folder.
    private static func checkEntry(
        _ entry: OpaquePointer, name: String, path: String, seen: inout Set<[UInt8]>, limits: ExtractionLimits
    ) throws(SoundpackError) -> Bool {
        if let reason = unsafeReason(path) { throw SoundpackError.environment("entry '\(name.quoted(limit: 80))' refused: \(reason)") }
        if archive_entry_hardlink(entry) != nil { throw SoundpackError.environment("entry '\(name.quoted(limit: 80))' refused: hard links are not allowed in a pack") }
        let type = archive_entry_filetype(entry)
        let isFolder = type == folderType
        guard isFolder || type == regularFileType else {
            throw SoundpackError.environment("entry '\(name.quoted(limit: 80))' refused: only regular files and folders are allowed (symlinks, devices and FIFOs are not)")
        }
        let key = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard seen.insert(key.pathKey).inserted else { throw SoundpackError.environment("entry '\(name.quoted(limit: 80))' appears twice") }
        if archive_entry_size_is_set(entry) != 0, archive_entry_size(entry) > limits.maxEntryBytes {
            throw SoundpackError.environment("entry '\(name.quoted(limit: 80))' declares \(archive_entry_size(entry)) bytes, above the \(limits.maxEntryBytes / 1_048_576) MiB cap")
        }
        return isFolder
    }

    /// Streams the current entry's data to disk. Counts what really streams out, not what the
    /// header claims: a bomb lies.
    private static func copyData(
        of name: String, from reader: OpaquePointer, to writer: OpaquePointer, total: inout Int64, limits: ExtractionLimits
    ) throws(SoundpackError) {
        var written: Int64 = 0
        var block: UnsafeRawPointer?
        var length = 0
        var offset: la_int64_t = 0
        while true {
            let read = archive_read_data_block(reader, &block, &length, &offset)
            if read == ARCHIVE_EOF { break }
            guard read == ARCHIVE_OK else { throw SoundpackError.environment("damaged entry '\(name.quoted(limit: 80))': \(message(reader))") }
            written += Int64(length)
            total += Int64(length)
            guard written <= limits.maxEntryBytes else { throw SoundpackError.environment("entry '\(name.quoted(limit: 80))' holds more than \(limits.maxEntryBytes / 1_048_576) MiB") }
            guard total <= limits.maxTotalBytes else { throw SoundpackError.environment("the archive holds more than \(limits.maxTotalBytes / 1_048_576) MiB") }
            guard archive_write_data_block(writer, block, length, offset) == ARCHIVE_OK else {
                throw SoundpackError.environment("cannot write '\(name.quoted(limit: 80))': \(message(writer))")
            }
        }
    }

    /// Why an entry name may not be extracted, or nil.
    static func unsafeReason(_ path: String) -> String? {
        if path.isEmpty { return "empty name" }
        if path.hasBytePrefix("/") { return "absolute path" }
        if path.utf8.contains(UInt8(ascii: "\\")) { return "backslash in the name" }
        if path.containsControlCharacter() { return "control character in the name" }
        if path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).contains(where: { $0.elementsEqual("..".utf8) }) { return "'..' in the path" }
        return nil
    }
}

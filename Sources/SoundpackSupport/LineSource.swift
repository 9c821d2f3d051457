// Lines of a file descriptor (standard input, an amounts file), with bounded memory whatever
// the input.

import Foundation

/// Lines of standard input, read in 64 KiB chunks.
public final class LineSource: @unchecked Sendable {
    private let fd: Int32?
    private var pending: [UInt8]
    private var position = 0
    private var finished = false

    package init(fileDescriptor: Int32) {
        fd = fileDescriptor
        pending = []
    }

    /// A source over fixed text, for tests.
    package init(text: String) {
        fd = nil
        pending = Array(text.utf8)
        finished = true
    }

    /// One line of input, or what is left of one that was too long to hold.
    package enum Line: Equatable {
        case text(String)
        /// A line of `bytes` bytes, above the limit; only its start is kept, for the message.
        case tooLong(start: String, bytes: Int)
    }

    /// The next line without its terminator, or nil at the end. A line longer than `maxBytes` is
    /// read through without being kept (memory stays bounded whatever the input) and returned as
    /// `.tooLong`.
    package func nextLine(maxBytes: Int = Int.max) -> Line? {
        switch nextLineBytes(maxBytes: maxBytes) {
        case .bytes(let bytes): return .text(String(decoding: bytes, as: UTF8.self))
        case .tooLong(let start, let bytes): return .tooLong(start: start, bytes: bytes)
        case nil: return nil
        }
    }

    /// A line's bytes (valid until the next call), or what is left of one too long to hold.
    package enum LineBytes {
        case bytes(ArraySlice<UInt8>)
        case tooLong(start: String, bytes: Int)
    }

    /// `nextLine` without making a String: for readers of many short lines.
    package func nextLineBytes(maxBytes: Int = Int.max) -> LineBytes? {
        var skipped = 0, start = ""
        while true {
            if let newline = pending[position...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > position && pending[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                defer { position = newline + 1 }
                if skipped > 0 || end - position > maxBytes {
                    if skipped == 0 { start = String(decoding: pending[position..<min(end, position + 64)], as: UTF8.self) }
                    return .tooLong(start: start, bytes: skipped + end - position)
                }
                return .bytes(pending[position..<end])
            }
            if pending.count - position > maxBytes {
                // No end in sight: keep the start for the message, drop the rest as it comes.
                if skipped == 0 { start = String(decoding: pending[position..<(position + min(64, pending.count - position))], as: UTF8.self) }
                skipped += pending.count - position
                position = pending.count
            }
            if finished {
                guard position < pending.count || skipped > 0 else { return nil }
                defer { position = pending.count }
                if skipped > 0 || pending.count - position > maxBytes {
                    if skipped == 0 { start = String(decoding: pending[position..<min(pending.count, position + 64)], as: UTF8.self) }
                    return .tooLong(start: start, bytes: skipped + pending.count - position)
                }
                return .bytes(pending[position...])
            }
            pending.removeSubrange(0..<position)
            position = 0
            let count = pending.count
            pending.append(contentsOf: repeatElement(0, count: 1 << 16))
            let n = pending.withUnsafeMutableBytes { SystemCall.read(fd ?? 0, $0.baseAddress! + count, 1 << 16) }
            pending.removeSubrange((count + max(n, 0))...)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { finished = true }
        }
    }

    /// Everything left, or nil when it is more than `maxBytes` (reading stops there).
    package func readAll(maxBytes: Int) -> [UInt8]? {
        while !finished {
            guard pending.count - position <= maxBytes else { return nil }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = chunk.withUnsafeMutableBytes { SystemCall.read(fd ?? 0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { finished = true } else { pending.append(contentsOf: chunk[0..<n]) }
        }
        guard pending.count - position <= maxBytes else { return nil }
        defer { position = pending.count }
        return Array(pending[position...])
    }
}

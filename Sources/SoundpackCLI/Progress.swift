// A progress line for long work, drawn on a terminal only: count, total, rate.

import Foundation

/// Safe to advance from several threads.
final class Progress: @unchecked Sendable {
    private let lock = NSLock()
    private let sink: OutputSink
    private let label: String
    private var total: Int?
    private let enabled: Bool
    private let started = Date()
    private var lastDrawn = Date.distantPast
    private(set) var done = 0

    /// Longest line drawn, for clearing it with spaces on a terminal that takes no escapes.
    private var drawnWidth = 0
    /// `TERM=dumb`: a carriage return, but no escape sequence.
    private let plain: Bool

    /// Draws on `sink` when it is a terminal; otherwise every call does nothing.
    init(_ label: String, total: Int?, sink: OutputSink, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.sink = sink
        self.label = label
        self.total = total
        enabled = sink.isTerminal
        plain = environment["TERM"] == "dumb"
    }

    func advance(by count: Int = 1) {
        lock.lock()
        defer { lock.unlock() }
        done += count
        guard enabled else { return }
        let now = Date()
        if now.timeIntervalSince(lastDrawn) >= 0.1 { draw(now) }
    }

    /// Sets the count done, and the total when the caller learns it (for callers that report
    /// totals, not steps).
    func update(to count: Int, of total: Int? = nil) {
        lock.lock()
        if let total { self.total = total }
        let step = max(0, count - done)
        lock.unlock()
        advance(by: step)
    }

    /// Clears the line: the work is done, and what follows starts on a clean line.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        guard enabled, lastDrawn != .distantPast else { return }
        sink.write(plain ? "\r" + String(repeating: " ", count: drawnWidth) + "\r" : "\r\u{1B}[2K")
        sink.flush()
    }

    private func draw(_ now: Date) {
        lastDrawn = now
        let elapsed = max(now.timeIntervalSince(started), 0.001)
        let rate = Double(done) / elapsed
        var line = "\r\(label) "
        if let total, total > 0 {
            let width = 24, filled = min(width, done * width / total)
            line += "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(done)/\(total)"
        } else {
            line += "\(done)"
        }
        line += String(format: "  %.0f/s ", rate)
        drawnWidth = max(drawnWidth, line.count)
        sink.write(line)
        sink.flush()
    }
}

// What a command needs from the outside world, passed in so tests can capture it: output sinks,
// standard input, environment, working folder and clock.

import Foundation
import SoundpackKit

/// A buffered byte sink: a file descriptor or, in tests, memory.
public final class OutputSink: @unchecked Sendable {
    private let fd: Int32?
    private var buffer: [UInt8] = []
    private let lock = NSLock()
    /// Whether the sink is a terminal (colour and progress only then).
    public let isTerminal: Bool
    private var captured: [UInt8] = []
    /// errno of the first write that failed; nothing more is written after it.
    public private(set) var failure: Int32?

    /// Writes through at once, as C's stderr does: error lines keep their place among the output.
    private let unbuffered: Bool

    public init(fileDescriptor: Int32, unbuffered: Bool = false) {
        fd = fileDescriptor
        isTerminal = isatty(fileDescriptor) == 1
        self.unbuffered = unbuffered
        buffer.reserveCapacity(1 << 16)
    }

    /// A sink that keeps everything written, for tests.
    public init(capturingAsTerminal terminal: Bool = false) {
        fd = nil
        isTerminal = terminal
        unbuffered = false
    }

    public func write(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        buffer.append(contentsOf: text.utf8)
        if unbuffered || buffer.count >= 1 << 16 { flushLocked() }
    }

    public func write(bytes: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        buffer.append(contentsOf: bytes)
        if unbuffered || buffer.count >= 1 << 16 { flushLocked() }
    }

    public func flush() {
        lock.lock()
        defer { lock.unlock() }
        flushLocked()
    }

    private func flushLocked() {
        guard !buffer.isEmpty, failure == nil else {
            buffer.removeAll(keepingCapacity: true)
            return
        }
        guard let fd else {
            captured.append(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
            return
        }
        var offset = 0
        buffer.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = SystemCall.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    // A full disk, a closed pipe: the output is lost, and the exit code says so.
                    failure = n < 0 ? errno : EIO
                    break
                }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Everything written so far (capturing sinks only).
    public var text: String {
        flush()
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: captured, as: UTF8.self)
    }
}

/// `--color WHEN`.
public enum ColourChoice: String, Sendable, CaseIterable {
    case auto, always, never
}

/// The outside world of one command run.
public struct CLIContext: Sendable {
    public var stdout: OutputSink
    public var stderr: OutputSink
    public var stdin: LineSource
    public var environment: [String: String]
    public var workingDirectory: String
    public var now: @Sendable () -> Date
    /// The soundpack program a command starts for work it keeps out of its own process (synth's
    /// espeak-ng worker): the running binary; in tests the built one. nil: such work runs in-process.
    public var soundpackProgram: String?
    /// Whether this context is the whole process (the soundpack binary): a command may then catch
    /// SIGINT and SIGTERM to stop its child processes and clean up before the process ends with the signal.
    public var ownsProcess = false

    public init(stdout: OutputSink, stderr: OutputSink, stdin: LineSource, environment: [String: String],
                workingDirectory: String, now: @escaping @Sendable () -> Date = { Date() }) {
        self.stdout = stdout
        self.stderr = stderr
        self.stdin = stdin
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.now = now
    }

    /// The process's real streams and environment.
    public static func process() -> CLIContext {
        var context = CLIContext(stdout: OutputSink(fileDescriptor: 1), stderr: OutputSink(fileDescriptor: 2, unbuffered: true),
                                 stdin: LineSource(fileDescriptor: 0), environment: ProcessInfo.processInfo.environment,
                                 workingDirectory: FileManager.default.currentDirectoryPath)
        context.soundpackProgram = ChildProcess.runningProgram
        context.ownsProcess = true
        return context
    }

    /// `--color`: auto unless a command line says otherwise.
    public var colour: ColourChoice = .auto

    /// The options every command takes (`--catalog`, `--store`, …), as the command line gives them.
    var global = GlobalOptions()

    /// Whether to colour `sink`: `--color always|never` decides; `auto` colours a terminal unless
    /// `NO_COLOR` is set to something (no-color.org: an empty value does not count) or `TERM=dumb`.
    func colours(_ sink: OutputSink) -> Bool {
        switch colour {
        case .always: return true
        case .never: return false
        case .auto:
            return sink.isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        }
    }

    /// Writes a command's output where `-o`/`--output` points: `-` is standard output; an existing
    /// device or FIFO is written into, never replaced; anything else is replaced whole.
    func writeOutput(_ data: Data, to argument: String) throws(SoundpackError) {
        if argument == "-" {
            stdout.write(bytes: Array(data))
            return
        }
        do { try OutputFile.write(data, to: absolute(argument)) } catch {
            throw .environment("cannot write \(argument)", error.message)
        }
    }

    /// A path as given, made absolute against the working folder.
    func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: workingDirectory).appendingPathComponent(path).path
    }
}

// Runs soundpack commands the way a user or CI does, capturing output and exit status: in this
// process through `SoundpackCommand.run` (the default, fast), or as the built binary where the
// process itself is under test (signals, pipes, the exit status of a real process).

import Foundation
import SoundpackCLI
import SoundpackKit

public struct ExecutionResult: Sendable {
    public var stdout: String
    public var stderr: String
    public var status: Int32
    /// The process was killed after `spawn`'s timeout: it hung.
    public var timedOut = false
    /// The signal that ended the process (`spawn`); nil when it exited.
    public var signal: Int32?
}

public enum Executable {
    /// The `soundpack` binary built next to the test bundle: the `.xctest` bundle's folder (macOS
    /// runs the bundle inside Xcode's `xctest`), else the running test binary's (Linux).
    public static var path: String {
        let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL
        let running = URL(fileURLWithPath: CommandLine.arguments.first ?? "/", relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        for start in [bundle, running.standardizedFileURL.resolvingSymlinksInPath()].compactMap({ $0 }) {
            var folder = start.deletingLastPathComponent()
            while folder.path != "/" {
                let candidate = folder.appendingPathComponent("soundpack").path
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder), !isFolder.boolValue { return candidate }
                folder.deleteLastPathComponent()
            }
        }
        return "soundpack"
    }

    /// The environment a command sees: this process's, without a catalog setting, without colour,
    /// with the project-root search kept below the temporary folder (a stray `packs/` or
    /// `.soundpack/` in it, or above it, is no test's project), and with `overrides`.
    static func environment(_ overrides: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["SOUNDPACK_CATALOG"] = nil
        env["NO_COLOR"] = "1"
        env["SOUNDPACK_CEILING_DIRECTORIES"] = FileManager.default.temporaryDirectory.standardizedFileURL.path
        for (key, value) in overrides { env[key] = value }
        return env
    }

    /// Runs `soundpack arguments…` in this process, as if in `directory` with `input` on stdin
    /// (empty when nil): the command gets its streams, environment and working folder from a
    /// `CLIContext`, never from the process.
    public static func run(_ arguments: [String], in directory: String, input: String? = nil,
                           environment: [String: String] = [:]) throws -> ExecutionResult {
        let out = OutputSink(capturingAsTerminal: false), err = OutputSink(capturingAsTerminal: false)
        var context = CLIContext(stdout: out, stderr: err, stdin: LineSource(text: input ?? ""),
                                 environment: Self.environment(environment), workingDirectory: directory)
        // What the command starts as a worker of its own (synth's espeak-ng) is the built binary.
        context.soundpackProgram = path
        let code = SoundpackCommand.run(arguments, context)
        return ExecutionResult(stdout: out.text, stderr: err.text, status: code.rawValue)
    }

    /// Runs the built binary `soundpack arguments…` in `directory` with `input` on stdin (nothing
    /// when nil): for tests of the process itself. After `timeout` seconds it is killed and the
    /// result says `timedOut`, so a command that hangs fails its test instead of holding the run.
    /// `whileRunning` is called with the process id on another thread once it started (to signal it).
    public static func spawn(_ arguments: [String], in directory: String, input: String? = nil,
                             environment: [String: String] = [:], timeout: Double? = nil,
                             whileRunning: (@Sendable (pid_t) -> Void)? = nil) throws -> ExecutionResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = Self.environment(environment)
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        let pid = process.processIdentifier
        let killer = DispatchWorkItem { kill(pid, SIGKILL) }
        if let timeout { DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer) }
        let watcher = DispatchGroup()
        if let whileRunning { DispatchQueue.global().async(group: watcher) { whileRunning(pid) } }
        // Read both pipes while the process runs so a large output cannot block it.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        DispatchQueue.global().async(group: group) { outData = readToEnd(out.fileHandleForReading) }
        DispatchQueue.global().async(group: group) { errData = readToEnd(err.fileHandleForReading) }
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inPipe.fileHandleForWriting.close()
        group.wait()
        process.waitUntilExit()
        killer.cancel()
        watcher.wait()
        // Nothing else sends the binary SIGKILL: killed means the timeout fired.
        let signalled = process.terminationReason == .uncaughtSignal
        let killed = signalled && process.terminationStatus == SIGKILL
        return ExecutionResult(stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
                               status: process.terminationStatus, timedOut: timeout != nil && killed,
                               signal: signalled ? process.terminationStatus : nil)
    }

    /// Reads a pipe to its end with read(2), retrying on EINTR. FileHandle.readDataToEndOfFile
    /// traps (`try!`) when a signal interrupts its read; that was seen in a test run that also
    /// used URLSession.
    public static func readToEnd(_ handle: FileHandle) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if n > 0 { data.append(contentsOf: buffer[0..<n]); continue }
            if n < 0 && errno == EINTR { continue }
            return data
        }
    }
}

/// Runs another program (a consumer of what soundpack writes: bsdtar, a shell, python3), by its full path.
public enum Tool {
    /// nil when `path` is not installed.
    public static func run(_ path: String, _ arguments: [String], in directory: String = "/") throws -> ExecutionResult? {
        guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        DispatchQueue.global().async(group: group) { outData = Executable.readToEnd(out.fileHandleForReading) }
        DispatchQueue.global().async(group: group) { errData = Executable.readToEnd(err.fileHandleForReading) }
        group.wait()
        process.waitUntilExit()
        return ExecutionResult(stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
                               status: process.terminationStatus)
    }
}

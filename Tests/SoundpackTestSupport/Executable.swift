// Runs the built soundpack binary the way a user or CI does, capturing its output and exit status.

import Foundation

public struct ExecutionResult: Sendable {
    public var stdout: String
    public var stderr: String
    public var status: Int32
}

public enum Executable {
    /// The `soundpack` binary built next to the test bundle.
    public static var path: String {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = exe.deletingLastPathComponent()
        // The test bundle may sit inside a `.xctest` folder on some platforms.
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("soundpack").path), folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("soundpack").path
    }

    /// Runs `soundpack arguments…` in `directory` with `input` on stdin (nothing when nil).
    public static func run(_ arguments: [String], in directory: String, input: String? = nil,
                           environment: [String: String] = [:]) throws -> ExecutionResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        env["SOUNDPACK_CATALOG"] = nil
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        // Read both pipes while the process runs so a large output cannot block it.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        DispatchQueue.global().async(group: group) { outData = readToEnd(out.fileHandleForReading) }
        DispatchQueue.global().async(group: group) { errData = readToEnd(err.fileHandleForReading) }
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inPipe.fileHandleForWriting.close()
        group.wait()
        process.waitUntilExit()
        return ExecutionResult(stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
                               status: process.terminationStatus)
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

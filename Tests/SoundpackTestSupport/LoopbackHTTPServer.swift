// A tiny HTTP/1.1 file server on 127.0.0.1 and a free port, serving a folder, for tests that
// download from "the CDN". GET only, one request per connection. Every 200 carries a strong ETag
// (the body's SHA-256), and `If-None-Match` with that tag answers 304, as a CDN does.

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SoundpackKit

public final class LoopbackHTTPServer: @unchecked Sendable {
    public let port: UInt16
    private let listener: Int32
    private let root: String
    private let thread: Thread
    private let finished = DispatchSemaphore(value: 0)
    private var stopped = false
    /// Paths requested, in order.
    public private(set) var requests: [String] = []
    /// Each request's path and the status it got, in order.
    public private(set) var responses: [(path: String, status: Int)] = []
    private let lock = NSLock()
    private let serve: ServeLoop

    public init(serving root: String) throws {
        self.root = root
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        let serve = ServeLoop(fd: fd, root: root)
        self.serve = serve
        let finished = self.finished
        thread = Thread { serve.run(); finished.signal() }
        serve.onRequest = { [weak self] path, status in self?.record(path, status) }
        thread.start()
    }

    private func record(_ path: String, _ status: Int) {
        lock.lock()
        requests.append(path)
        responses.append((path, status))
        lock.unlock()
    }

    /// Forgets the requests so far.
    public func resetLog() {
        lock.lock()
        requests = []
        responses = []
        lock.unlock()
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// A slow store: every request whose path `matches` waits `seconds` before its answer (the
    /// server answers one request at a time, so later ones wait behind it).
    public func slowDown(_ seconds: Double, where matches: @escaping @Sendable (String) -> Bool) {
        serve.setDelay { matches($0) ? seconds : 0 }
    }

    /// A store slower than any deadline, however loaded the machine: every request whose path
    /// `matches` gets no answer until `release()` (the server answers one request at a time, so
    /// later ones wait behind it). A delay in seconds can pass inside a test's limit when the test
    /// process is starved and its clock is stretched to match; a held request cannot.
    public func hold(where matches: @escaping @Sendable (String) -> Bool) {
        serve.gate.close(matching: matches)
    }

    /// Answers every held request and those that come later at once, until `hold` again.
    public func release() {
        serve.gate.open()
    }

    /// A server that answers by itself: every GET for which `respond` gives a body (it gets the
    /// path with its query, percent-decoded) is a 200 with that body; the others are served from
    /// the folder as before. For a server that answers anything (an S3 listing that never ends).
    public func answer(_ respond: @escaping @Sendable (String) -> Data?) {
        serve.setAnswer(respond)
    }

    /// Stops accepting and closes the listening socket, once. The accept loop is waited for before
    /// the descriptor is closed: a number closed twice, or still used by the loop after `close`, could
    /// by then belong to another test's socket.
    public func stop() {
        lock.lock()
        let first = !stopped
        stopped = true
        lock.unlock()
        guard first else { return }
        serve.gate.open()
        shutdown(listener, Int32(SHUT_RDWR))
        finished.wait()
        close(listener)
    }

    deinit { stop() }
}

private final class ServeLoop: @unchecked Sendable {
    let fd: Int32
    let root: String
    var onRequest: ((String, Int) -> Void)?
    private let lock = NSLock()
    private var delay: @Sendable (String) -> Double = { _ in 0 }
    private var answer: @Sendable (String) -> Data? = { _ in nil }
    let gate = Gate()
    init(fd: Int32, root: String) { self.fd = fd; self.root = root }

    func setAnswer(_ answer: @escaping @Sendable (String) -> Data?) {
        lock.lock()
        self.answer = answer
        lock.unlock()
    }

    func setDelay(_ delay: @escaping @Sendable (String) -> Double) {
        lock.lock()
        self.delay = delay
        lock.unlock()
    }

    func run() {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 { if errno == EINTR { continue }; return }
            handle(client)
            close(client)
        }
    }

    func handle(_ client: Int32) {
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while !request.suffix(4).elementsEqual("\r\n\r\n".utf8) && request.count < 65_536 {
            let n = read(client, &buffer, buffer.count)
            if n <= 0 { return }
            request += buffer[0..<n]
        }
        let line = String(decoding: request.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let parts = line.split(separator: " ")
        let path = parts.count > 1 ? String(parts[1]) : "/"
        let headers = String(decoding: request, as: UTF8.self).split(separator: "\r\n").dropFirst()
        let ifNoneMatch = headers.first { $0.lowercased().hasPrefix("if-none-match:") }
            .map { $0.dropFirst("if-none-match:".count).trimmingCharacters(in: .whitespaces) }
        let decoded = path.removingPercentEncoding ?? path
        lock.lock()
        let wait = delay(decoded)
        let answered = parts.first == "GET" ? answer(decoded) : nil
        lock.unlock()
        if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
        gate.pass(decoded)
        var response: [UInt8]
        let status: Int
        if let answered {
            status = 200
            response = Array("HTTP/1.1 200 OK\r\nContent-Length: \(answered.count)\r\nContent-Type: application/xml\r\nConnection: close\r\n\r\n".utf8) + answered
        } else if parts.first == "GET", !decoded.split(separator: "/").contains(".."),
           let body = FileManager.default.contents(atPath: root + decoded) {
            let etag = "\"\(Digest.sha256Hex(body))\""
            if ifNoneMatch == etag {
                status = 304
                response = Array("HTTP/1.1 304 Not Modified\r\nETag: \(etag)\r\nConnection: close\r\n\r\n".utf8)
            } else {
                status = 200
                response = Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nContent-Type: application/octet-stream\r\nETag: \(etag)\r\nConnection: close\r\n\r\n".utf8) + body
            }
        } else {
            status = 404
            response = Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        }
        onRequest?(path, status)
        var sent = 0
        while sent < response.count {
            let n = response.withUnsafeBytes { write(client, $0.baseAddress! + sent, $0.count - sent) }
            if n <= 0 { return }
            sent += n
        }
    }
}

/// Requests held until the test opens the gate.
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var held: (@Sendable (String) -> Bool)?

    func close(matching matches: @escaping @Sendable (String) -> Bool) {
        condition.lock()
        held = matches
        condition.unlock()
    }

    func open() {
        condition.lock()
        held = nil
        condition.broadcast()
        condition.unlock()
    }

    /// Returns once `path` is not held.
    func pass(_ path: String) {
        condition.lock()
        while let held, held(path) { condition.wait() }
        condition.unlock()
    }
}

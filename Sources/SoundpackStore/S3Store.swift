// The store on S3-compatible object storage (`--store s3://bucket/prefix`) through libcurl, which
// signs each request with AWS Signature V4 (CURLOPT_AWS_SIGV4): AWS S3, Aliyun OSS, Tencent COS,
// Cloudflare R2, Ceph, OpenStack Swift's s3api. Path-style URLs on the endpoint. The only file
// that imports CCurl.
//
// Publish order makes a crash harmless: a version's files first (each one PUT, never over an existing
// object), its manifest.json after them, and index.json last, rewritten from the catalog. Objects carry Content-Type and Cache-Control: version
// files never change (immutable), index.json is short-lived.

import CCurl
import Foundation
import SoundpackCatalog
import SoundpackCore
import SoundpackSupport
import Synchronization

/// Where an S3 store is and how to sign for it.
package struct S3Location: Sendable, Equatable {
    package var endpoint: String
    package var region: String
    package var bucket: String
    /// Key prefix without leading or trailing slash; "" for the bucket root.
    package var prefix: String
    var accessKey: String
    package var secretKey: String
    var sessionToken: String?
    /// Where this user's locks of S3 stores on this machine go: `TMPDIR` when it names a folder
    /// (an absolute path), else /tmp.
    package var temporaryFolder: String

    /// Reads `s3://bucket/prefix`, the endpoint (`--s3-endpoint`, else `AWS_ENDPOINT_URL_S3`, else
    /// `AWS_ENDPOINT_URL`, else AWS's for the region), the region (`AWS_REGION`, else
    /// `AWS_DEFAULT_REGION`, else us-east-1) and the credentials (`AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY`, optional `AWS_SESSION_TOKEN`).
    package init(url: String, endpoint: String?, environment: [String: String]) throws(SoundpackError) {
        guard url.hasBytePrefix("s3://") else { throw SoundpackError.environment("'\(url.visible)' is not an s3:// URL") }
        let rest = String(url.dropFirst("s3://".count))
        let parts = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        bucket = parts[0]
        prefix = parts.count > 1 ? parts[1].split(separator: "/").joined(separator: "/") : ""
        guard Self.isBucketName(bucket) else {
            throw SoundpackError(.environment, "'\(bucket.visible)' is not an S3 bucket name (3–63 of a-z 0-9 . -)", hint: "name the store s3://bucket/prefix")
        }
        guard !prefix.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }), !prefix.containsControlCharacter() else {
            throw SoundpackError.environment("the key prefix '\(prefix.visible)' has a . or .. component or a control character")
        }
        region = environment["AWS_REGION"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["AWS_DEFAULT_REGION"].flatMap { $0.isEmpty ? nil : $0 } ?? "us-east-1"
        // A variable set but empty (a CI variable the team never defined) is unset, as for the region.
        let named = endpoint ?? environment["AWS_ENDPOINT_URL_S3"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["AWS_ENDPOINT_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? "https://s3.\(region).amazonaws.com"
        guard let parsed = URLComponents(string: named), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = parsed.host, !host.isEmpty, parsed.query == nil, parsed.fragment == nil else {
            throw SoundpackError.environment("the S3 endpoint '\(named.visible)' is not an http(s) URL such as https://s3.us-east-1.amazonaws.com")
        }
        self.endpoint = named.hasSuffix("/") ? String(named.dropLast()) : named
        guard let access = environment["AWS_ACCESS_KEY_ID"], !access.isEmpty, let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty else {
            throw SoundpackError.environment("an s3:// store needs credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
        }
        accessKey = access
        secretKey = secret
        sessionToken = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        temporaryFolder = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
    }

    static func isBucketName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count) else { return false }
        return bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D }
    }

    /// `s3://bucket/prefix`, for messages.
    package var shown: String { "s3://\(bucket)" + (prefix.isEmpty ? "" : "/\(prefix)") }
}

/// A libcurl easy handle, used by one request at a time (the pool hands it to one thread).
private struct CurlHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
}

/// One HTTP exchange's outcome.
struct S3Response {
    var status: Int
    var body: Data
    var headers: [String: String]
}

/// An S3 store: keys under `prefix/` in `bucket`.
package final class S3Store: StoreBackend, @unchecked Sendable {
    package let s3: S3Location
    /// Idle curl handles, each with its connection kept alive: a request takes one (or makes one)
    /// and puts it back, so requests on several threads each have their own.
    private let handles = Mutex<[CurlHandle]>([])
    /// Keys per listing page (S3's maximum is 1000).
    var listPageSize = 1000
    /// Requests in flight at once while a version's files go up.
    var uploadWorkers = 6
    /// Requests sent so far, retries included (tests count what an operation costs).
    package let requests = Atomic<Int>(0)
    /// Reads answered 304 Not Modified so far.
    package let notModified = Atomic<Int>(0)
    /// Whether the server honours `If-None-Match: *` on PUT; false after its first 501.
    private let conditionalPut = Atomic<Bool>(true)
    /// A valid pointer for an empty body (libcurl reads none of it).
    nonisolated(unsafe) private static let emptyBody = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)

    #if os(macOS)
    /// What to install when libcurl cannot be opened (CCurl/shim.h names where it is looked for).
    static let installHint = "install it with Homebrew: brew install curl"
    #else
    static let installHint = "install Debian's libcurl4 (or your system's libcurl)"
    #endif

    package init(_ location: S3Location) throws(SoundpackError) {
        if let error = soundpack_curl_load_error() {
            throw SoundpackError.environment("cannot use the store \(location.shown): libcurl could not be loaded (\(String(cString: error))); \(Self.installHint)")
        }
        _ = Self.globalInit
        guard let handle = soundpack_curl_easy_init() else { throw SoundpackError.environment("cannot start libcurl") }
        handles.withLock { $0.append(CurlHandle(pointer: handle)) }
        s3 = location
    }

    deinit { handles.withLock { for handle in $0 { soundpack_curl_easy_cleanup(handle.pointer) } } }

    /// An idle handle, or a new one; give it back with `release`.
    private func acquireHandle() throws(SoundpackError) -> UnsafeMutableRawPointer {
        if let idle = handles.withLock({ $0.popLast() }) { return idle.pointer }
        guard let handle = soundpack_curl_easy_init() else { throw SoundpackError.environment("cannot start libcurl") }
        return handle
    }

    private func release(_ handle: UnsafeMutableRawPointer) { handles.withLock { $0.append(CurlHandle(pointer: handle)) } }

    private static let globalInit: Void = { soundpack_curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    package var location: String { s3.shown }

    /// The object key of a store key.
    func objectKey(_ key: String) -> String { s3.prefix.isEmpty ? key : "\(s3.prefix)/\(key)" }

    /// Percent-encodes a path as SigV4's canonical URI wants it: every byte but A-Z a-z 0-9 - . _ ~ and /.
    static func encodePath(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(Character(UnicodeScalar(byte)))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    static func encodeQueryValue(_ value: String) -> String { encodePath(value).replacingOccurrences(of: "/", with: "%2F") }

    /// One signed request, retried on a transport failure or a 5xx other than 501 Not Implemented
    /// (three tries in all).
    /// `streaming` makes a fresh hash for each try; the body goes into it instead of the response.
    func send(_ method: String, key: String?, query: [(String, String)] = [], body: Data? = nil,
              headers: [String: String] = [:], streaming: (() -> Digest.Stream)? = nil, cap: Int = 1 << 30) throws(SoundpackError) -> S3Response {
        if let key { try StoreLayout.checkKey(key, in: location) }
        var attempt = 0
        while true {
            attempt += 1
            requests.add(1, ordering: .relaxed)
            do {
                let response = try PhaseTimes.measure(Self.phase(method, key: key, headers: headers, attempt: attempt)) { () throws(SoundpackError) in
                    try perform(method, key: key, query: query, body: body, headers: headers, stream: streaming?(), cap: cap)
                }
                if response.status >= 500 && response.status != 501 && attempt < 3 { Thread.sleep(forTimeInterval: 0.2 * Double(attempt)); continue }
                return response
            } catch {
                if attempt >= 3 { throw error }
                Thread.sleep(forTimeInterval: 0.2 * Double(attempt))
            }
        }
    }

    /// How `PhaseTimes` names a request: its method, conditional or not, index.json apart, and
    /// whether it is a retry.
    private static func phase(_ method: String, key: String?, headers: [String: String], attempt: Int) -> String {
        let what = key == nil ? " (listing)" : key == StoreLayout.index ? " index.json" : headers["If-None-Match"] != nil ? " If-None-Match" : ""
        return "S3 request: " + method + what + (attempt > 1 ? " (retry)" : "")
    }

    private func perform(_ method: String, key: String?, query: [(String, String)], body: Data?,
                         headers: [String: String], stream: Digest.Stream? = nil, cap: Int = 1 << 30) throws(SoundpackError) -> S3Response {
        let handle = try acquireHandle()
        defer { release(handle) }
        soundpack_curl_easy_reset(handle)
        var path = "/" + s3.bucket
        if let key { path += "/" + objectKey(key) }
        // SigV4 signs the query sorted by name.
        let queryText = query.sorted { $0.0 < $1.0 }.map { "\(Self.encodeQueryValue($0.0))=\(Self.encodeQueryValue($0.1))" }.joined(separator: "&")
        let url = s3.endpoint + Self.encodePath(path) + (queryText.isEmpty ? "" : "?" + queryText)
        let payload = body ?? Data()
        var headerLines = headers.map { "\($0.key): \($0.value)" }
        headerLines.append("x-amz-content-sha256: \(Digest.sha256Hex(payload))")
        if let token = s3.sessionToken { headerLines.append("x-amz-security-token: \(token)") }
        var list: UnsafeMutablePointer<curl_slist>?
        for line in headerLines { list = soundpack_curl_slist_append(list, line) }
        defer { soundpack_curl_slist_free_all(list) }

        let sink = ResponseSink()
        sink.stream = stream
        sink.cap = cap
        var ok = setTransferOptions(of: handle, url: url, headers: list, sink: sink)
        func set(_ code: CURLcode) { if code != CURLE_OK { ok = false } }
        switch method {
        case "GET": break
        case "HEAD": set(soundpack_curl_setopt_long(handle, CURLOPT_NOBODY, 1))
        default: set(soundpack_curl_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, method))
        }
        let code: CURLcode = payload.withUnsafeBytes { raw in
            if method == "PUT" || method == "POST" {
                // POSTFIELDS with a custom method: libcurl sends the bytes and signs their hash.
                set(soundpack_curl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(raw.count)))
                set(soundpack_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, raw.baseAddress ?? UnsafeRawPointer(Self.emptyBody)))
            }
            guard ok else { return CURLE_BAD_FUNCTION_ARGUMENT }
            return soundpack_curl_easy_perform(handle)
        }
        if sink.overCap { throw SoundpackError.environment("\(location)/\(key ?? "") holds more than \(cap) bytes, more than soundpack reads from such a file") }
        guard code == CURLE_OK else {
            throw SoundpackError.environment("cannot reach \(location) at \(s3.endpoint.visible): \(String(cString: soundpack_curl_easy_strerror(code)))")
        }
        var status = 0
        _ = soundpack_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return S3Response(status: status, body: sink.body, headers: sink.headers)
    }

    /// The options every request has: the URL, SigV4 signing with the store's keys, the headers,
    /// timeouts, HTTP(S) only, and the response's body and headers collected into `sink`. False
    /// when libcurl refuses one.
    private func setTransferOptions(
        of handle: UnsafeMutableRawPointer, url: String, headers list: UnsafeMutablePointer<curl_slist>?, sink: ResponseSink
    ) -> Bool {
        let context = Unmanaged.passUnretained(sink).toOpaque()
        var ok = true
        func set(_ code: CURLcode) { if code != CURLE_OK { ok = false } }
        set(soundpack_curl_setopt_pointer(handle, CURLOPT_URL, url))
        set(soundpack_curl_setopt_pointer(handle, CURLOPT_AWS_SIGV4, "aws:amz:\(s3.region):s3"))
        set(soundpack_curl_setopt_pointer(handle, CURLOPT_USERNAME, s3.accessKey))
        set(soundpack_curl_setopt_pointer(handle, CURLOPT_PASSWORD, s3.secretKey))
        set(soundpack_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, list))
        set(soundpack_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        set(soundpack_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, 15))
        set(soundpack_curl_setopt_long(handle, CURLOPT_TIMEOUT, 300))
        set(soundpack_curl_setopt_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(soundpack_curl_setopt_write(handle, CURLOPT_WRITEFUNCTION, { pointer, size, count, context in
            guard let pointer, let context else { return 0 }
            let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
            let chunk = UnsafeRawBufferPointer(start: pointer, count: size * count)
            if let stream = sink.stream {
                stream.update(chunk)
                // An error's XML is short; only its start is kept, to name the error.
                if sink.body.count < 1_024 { sink.body.append(contentsOf: chunk.prefix(1_024 - sink.body.count)) }
            } else {
                // Past the cap the transfer stops (libcurl ends it when fewer bytes are taken).
                guard sink.body.count + chunk.count <= sink.cap else { sink.overCap = true; return 0 }
                sink.body.append(contentsOf: chunk)
            }
            return size * count
        }))
        set(soundpack_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context))
        set(soundpack_curl_setopt_write(handle, CURLOPT_HEADERFUNCTION, { pointer, size, count, context in
            guard let pointer, let context else { return 0 }
            let line = String(decoding: UnsafeRawBufferPointer(start: pointer, count: size * count), as: UTF8.self)
            if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
                Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue().headers[name] = value
            }
            return size * count
        }))
        set(soundpack_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context))
        return ok
    }

    private func failure(_ response: S3Response, _ what: String) -> SoundpackError {
        let code = Self.xmlValues("Code", in: response.body).first ?? "HTTP \(response.status)"
        let message = Self.xmlValues("Message", in: response.body).first.map { ": \($0)" } ?? ""
        return SoundpackError.environment("cannot \(what) in \(location): \(code.visible)\(message.visible)")
    }

    // MARK: StoreBackend

    package func read(_ key: String, atMost cap: Int) throws(SoundpackError) -> Data? {
        let response = try send("GET", key: key, cap: cap)
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw failure(response, "read \(key.visible)") }
        return response.body
    }

    /// What a read that names the ETag of the bytes already held finds.
    package enum ConditionalRead: Sendable {
        /// No object at the key.
        case missing
        /// The object still has that ETag: the server sent no body (304 Not Modified).
        case unchanged
        /// The object's bytes, and the ETag the server gave them.
        case bytes(Data, etag: String?)
    }

    /// `key`, unless it still has `etag`: a GET with `If-None-Match`, which the server answers
    /// 304 Not Modified, with no body, while the object is the one read (a server that ignores
    /// the header sends the bytes, as to any GET).
    package func read(_ key: String, atMost cap: Int, unlessETag etag: String?) throws(SoundpackError) -> ConditionalRead {
        // Only a strong ETag names bytes (a weak one, `W/"…"`, may match other bytes).
        let strong = etag.flatMap { $0.hasPrefix("\"") && $0.count > 2 ? $0 : nil }
        let response = try send("GET", key: key, headers: strong.map { ["If-None-Match": $0] } ?? [:], cap: cap)
        switch response.status {
        case 304 where strong != nil:
            notModified.add(1, ordering: .relaxed)
            return .unchanged
        case 404: return .missing
        case 200: return .bytes(response.body, etag: response.headers["etag"])
        default: throw failure(response, "read \(key.visible)")
        }
    }

    /// A GET whose body is hashed as it arrives and not kept (but for an error's first KiB).
    package func digest(_ key: String) throws(SoundpackError) -> StoredFile? {
        var hash = Digest.Stream()
        let response = try send("GET", key: key, streaming: { hash = Digest.Stream(); return hash })
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw failure(response, "read \(key.visible)") }
        return .file(StoredDigest(bytes: hash.count, sha256: hash.finish()))
    }

    /// Content-Type and Cache-Control for a key: version files are immutable; index.json is not.
    static func headers(for key: String) -> [String: String] {
        let type: String
        switch (key as NSString).pathExtension.lowercased() {
        case "json": type = "application/json"
        case "gz": type = "application/gzip"
        case "zip": type = "application/zip"
        case "caf": type = "audio/x-caf"
        case "wav": type = "audio/wav"
        case "aif", "aiff", "aifc": type = "audio/aiff"
        case "sig": type = "text/plain; charset=utf-8"
        default: type = "application/octet-stream"
        }
        let cache = key == StoreLayout.index ? "public, max-age=60" : "public, max-age=31536000, immutable"
        return ["Content-Type": type, "Cache-Control": cache]
    }

    package func write(_ key: String, _ data: Data) throws(SoundpackError) {
        let response = try send("PUT", key: key, body: data, headers: Self.headers(for: key))
        guard response.status == 200 || response.status == 201 else { throw failure(response, "write \(key.visible)") }
    }

    /// A PUT with `If-None-Match: *`: servers that know it refuse to overwrite (412), in one
    /// request. Where it is not implemented (501: Swift's s3api), a HEAD, then a plain PUT: the
    /// publish lock keeps anyone else from writing the version meanwhile.
    package func writeIfAbsent(_ key: String, _ data: Data) throws(SoundpackError) -> Bool {
        if conditionalPut.load(ordering: .relaxed) {
            var headers = Self.headers(for: key)
            headers["If-None-Match"] = "*"
            let response = try send("PUT", key: key, body: data, headers: headers)
            if response.status == 412 { return false }
            if response.status == 200 || response.status == 201 { return true }
            guard response.status == 501 else { throw failure(response, "write \(key.visible)") }
            PhaseTimes.count("S3: If-None-Match answered 501, HEAD + PUT from then on")
            conditionalPut.store(false, ordering: .relaxed)
        }
        let head = try send("HEAD", key: key)
        if head.status == 200 { return false }
        guard head.status == 404 else { throw failure(head, "look up \(key.visible)") }
        try write(key, data)
        return true
    }

    package func list() throws(SoundpackError) -> [String] {
        try listing(under: nil).keys.sorted()
    }

    /// Every object under `folder/` with the size and MD5 the listing gives it, keyed by its path
    /// in the folder (one request per 1,000 objects, where reading them is one request each).
    package func listedObjects(under folder: String) throws(SoundpackError) -> [[UInt8]: ListedObject] {
        try listing(under: folder).objects
    }

    /// The keys under the store's prefix, or under `folder/` in it, page by page; with a folder,
    /// each object's size and ETag too.
    private func listing(under folder: String?) throws(SoundpackError) -> S3Listing {
        var base = s3.prefix.isEmpty ? "" : s3.prefix + "/"
        if let folder {
            try StoreLayout.checkKey(folder, in: location)
            base += folder + "/"
        }
        var listing = S3Listing(prefix: base, location: location, endpoint: s3.endpoint, facts: folder != nil)
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("max-keys", String(listPageSize))]
            if !base.isEmpty { query.append(("prefix", base)) }
            if let token { query.append(("continuation-token", token)) }
            let response = try send("GET", key: nil, query: query)
            guard response.status == 200 else { throw failure(response, "list the store") }
            token = try listing.add(page: response.body)
        } while token != nil
        return listing
    }

    /// A version's files, each one PUT that never replaces an object, manifest.json last: readers
    /// find a version through index.json, written after the catalog commit, so a crash leaves only
    /// unlisted objects, and the rerun (which makes the same bytes: archives are reproducible and
    /// nothing in them is a time of day) finds them in place and completes the version. Other bytes
    /// under one of its keys are refused, never overwritten. The files before manifest.json go up
    /// `uploadWorkers` at a time; manifest.json only once every one of them is in place.
    package func writeVersion(_ folder: String, files: [(name: String, data: Data)]) throws(SoundpackError) {
        let first = files.filter { $0.name != StoreLayout.manifestFile }
        try WorkerPool.runBlocking(first.count, workers: uploadWorkers) { (index: Int) throws(SoundpackError) in
            try self.writeVersionFile(folder, first[index])
        }
        for file in files where file.name == StoreLayout.manifestFile { try writeVersionFile(folder, file) }
    }

    private func writeVersionFile(_ folder: String, _ file: (name: String, data: Data)) throws(SoundpackError) {
        let key = "\(folder)/\(file.name)"
        if try writeIfAbsent(key, file.data) { return }
        guard try read(key) == file.data else {
            throw SoundpackError.environment("\(location)/\(key) already exists with other bytes, left by an earlier attempt at this version with other content; delete \(location)/\(folder)/ (no catalog lists it) or publish a new version")
        }
    }

    /// Nothing is staged in an object store.
    package func leftovers() throws(SoundpackError) -> [String] { [] }

    package func removeLeftovers() {}

    /// Without a database lock (a SQLite catalog), publishers on this machine wait on a lock file
    /// named after the bucket and prefix, in `$TMPDIR/soundpack-UID/`: a folder only this user made
    /// (a name anyone can guess in a shared /tmp is never used when someone else made it, or
    /// planted a link there). With PostgreSQL, the catalog's lock is taken instead.
    package func lock(_ scope: LockScope) throws(SoundpackError) -> any StoreLock {
        let name = Digest.sha256Hex(Data("\(s3.endpoint)|\(s3.bucket)|\(s3.prefix)".utf8)).prefix(16)
        return try DirectoryStore.FileLock(under: s3.temporaryFolder, folders: ["soundpack-\(geteuid())", "s3-lock-\(name)"], scope: scope, store: location)
    }

    /// Creates the bucket when it does not exist (for tests and first set-up).
    package func createBucket() throws(SoundpackError) {
        let response = try send("PUT", key: nil)
        guard response.status == 200 || response.status == 409 else { throw failure(response, "create the bucket") }
    }

    /// The text of every `<name>…</name>` element, XML entities decoded.
    static func xmlValues(_ name: String, in body: Data) -> [String] {
        xmlValues(name, in: [UInt8](body)[...])
    }

    /// The text of every `<name>…</name>` element of `bytes`, XML entities decoded (an element
    /// with an entity that is none is given as written).
    static func xmlValues(_ name: String, in bytes: ArraySlice<UInt8>) -> [String] {
        xmlElements(name, in: bytes).map { String(decoding: xmlText($0) ?? Array($0), as: UTF8.self) }
    }

    /// An element's text with its entities decoded, byte by byte: the five XML names and character
    /// references (`&#13;`, `&#x1F600;`), which S3 writes for characters XML cannot hold as they
    /// are. Nil for any other `&`: what it stands for is not known, and no guess is made.
    static func xmlText(_ raw: ArraySlice<UInt8>) -> [UInt8]? {
        guard raw.contains(UInt8(ascii: "&")) else { return Array(raw) }
        var out: [UInt8] = [], rest = raw
        out.reserveCapacity(raw.count)
        while let amp = rest.firstIndex(of: UInt8(ascii: "&")) {
            out += rest[..<amp]
            guard let semicolon = rest[amp...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { return nil }
            let name = String(decoding: rest[(amp + 1)..<semicolon], as: UTF8.self)
            switch name {
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "amp": out.append(UInt8(ascii: "&"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            default:
                let (digits, radix) = name.hasPrefix("#x") ? (name.dropFirst(2), 16) : name.hasPrefix("#") ? (name.dropFirst(), 10) : ("", 10)
                // Digits only: `UInt32` would also take a sign.
                guard !digits.isEmpty, digits.utf8.allSatisfy({ radix == 16 ? $0.isHexDigit : $0.isDecimalDigit }),
                      let number = UInt32(digits, radix: radix), let scalar = Unicode.Scalar(number) else { return nil }
                out += Array(String(Character(scalar)).utf8)
            }
            rest = rest[(semicolon + 1)...]
        }
        return out + rest
    }

    /// What every `<name>…</name>` element of `bytes` holds, as it is written (entities and all),
    /// found byte by byte: a listing page of 1,000 keys is read in one pass.
    static func xmlElements(_ name: String, in bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        let open = Array("<\(name)>".utf8), close = Array("</\(name)>".utf8)
        var elements: [ArraySlice<UInt8>] = []
        var rest = bytes
        while let start = find(open, in: rest), let end = find(close, in: rest[start.upperBound...]) {
            elements.append(rest[start.upperBound..<end.lowerBound])
            rest = rest[end.upperBound...]
        }
        return elements
    }

    /// Where `pattern` (a tag, never empty) first occurs in `bytes`.
    private static func find(_ pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Range<Int>? {
        guard let first = pattern.first, pattern.count <= bytes.count else { return nil }
        var index = bytes.startIndex
        let last = bytes.endIndex - pattern.count
        while index <= last {
            guard let found = bytes[index...last].firstIndex(of: first) else { return nil }
            if bytes[found..<found + pattern.count].elementsEqual(pattern) { return found..<found + pattern.count }
            index = found + 1
        }
        return nil
    }
}

/// One ListObjectsV2 listing, a page at a time. The server may answer anything, so the listing
/// must move forward: S3 lists keys in ascending byte order, so every page starts after the last
/// key of the pages before it, and a page that says more follow names a token not seen before. A
/// page that repeats or goes back, a continuation token that comes twice, and a truncated page
/// without keys or without a token end the listing with an error, never a loop or a silent cut.
struct S3Listing {
    /// Keys are kept only under this prefix, without it.
    let prefix: String
    /// The store and its endpoint, for messages.
    let location: String
    let endpoint: String
    /// Whether each object's size and ETag are kept (`objects`) besides its key.
    let facts: Bool
    private(set) var keys: [String] = []
    /// With `facts`: each object under the prefix by its key's bytes without the prefix.
    private(set) var objects: [[UInt8]: ListedObject] = [:]
    /// Keys listed more than once: none of their entries is kept.
    private var ambiguous = Set<[UInt8]>()
    private var tokens = Set<String>()
    /// The greatest key of the pages so far (by bytes), nil before the first key.
    private var lastKey: [UInt8]?
    private var pages = 0

    init(prefix: String, location: String, endpoint: String, facts: Bool = false) {
        self.prefix = prefix
        self.location = location
        self.endpoint = endpoint
        self.facts = facts
    }

    /// Takes one page (the body of a 200); returns the continuation token of the next, or nil
    /// when this page was the last.
    mutating func add(page body: Data) throws(SoundpackError) -> String? {
        pages += 1
        let page = [UInt8](body)[...]
        let found = S3Store.xmlValues("Key", in: page).map { Array($0.utf8) }
        if let lastKey, let first = found.min(by: { $0.lexicographicallyPrecedes($1) }), !lastKey.lexicographicallyPrecedes(first) {
            throw stuck("page \(pages) lists '\(String(decoding: first, as: UTF8.self).quoted(limit: 80))', which is not after the last key of the pages before it (a page repeated, or the listing went back)")
        }
        // The prefix is cut by its bytes: a key whose next character is a combining mark keeps it.
        keys += found.compactMap { $0.starts(with: prefix.utf8) ? String(decoding: $0.dropFirst(prefix.utf8.count), as: UTF8.self) : nil }
        if let greatest = found.max(by: { $0.lexicographicallyPrecedes($1) }) { lastKey = greatest }
        if facts { addObjects(of: page) }
        guard S3Store.xmlValues("IsTruncated", in: page).first == "true" else { return nil }
        guard !found.isEmpty else { throw stuck("page \(pages) lists no key but says more follow") }
        guard let token = S3Store.xmlValues("NextContinuationToken", in: page).first, !token.isEmpty else {
            throw stuck("page \(pages) says more follow but gives no continuation token")
        }
        guard tokens.insert(token).inserted else { throw stuck("page \(pages) gives the continuation token '\(token.quoted(limit: 80))' a page before it gave") }
        return token
    }

    /// Each `<Contents>` of a page with one key under the prefix, a size and an ETag: what the
    /// listing says of that object. Anything else the server wrote is left out, never guessed: an
    /// entry without one key and one size, a key with an entity that is none, and every entry of
    /// a key listed twice (which of them is the object is not known).
    private mutating func addObjects(of page: ArraySlice<UInt8>) {
        for entry in S3Store.xmlElements("Contents", in: page) {
            let keys = S3Store.xmlElements("Key", in: entry), size = S3Store.xmlValues("Size", in: entry)
            guard keys.count == 1, let key = S3Store.xmlText(keys[0]), key.starts(with: prefix.utf8),
                  size.count == 1, let bytes = Int64(size[0]), bytes >= 0 else { continue }
            let path = Array(key.dropFirst(prefix.utf8.count))
            guard !ambiguous.contains(path) else { continue }
            if objects[path] != nil {
                objects[path] = nil
                ambiguous.insert(path)
                continue
            }
            let etags = S3Store.xmlValues("ETag", in: entry)
            objects[path] = ListedObject(bytes: bytes, md5: etags.count == 1 ? ListedObject.md5(etag: etags[0]) : nil)
        }
    }

    private func stuck(_ why: String) -> SoundpackError {
        SoundpackError(.environment, "cannot list \(location): the server's listing does not move forward", why: why,
                   hint: "the server at \(endpoint.visible) does not list as S3's ListObjectsV2 does; check the endpoint")
    }
}

private extension UInt8 {
    /// `0`–`9`.
    var isDecimalDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")) ~= self }
    /// `0`–`9`, `a`–`f` or `A`–`F`.
    var isHexDigit: Bool { isDecimalDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")) ~= self | 0x20 }
}

/// What a store's listing says of one object, without reading it.
package struct ListedObject: Sendable, Equatable {
    /// Its size in bytes.
    package var bytes: Int64
    /// The MD5 of its bytes (lowercase hex) where its ETag is one: S3 gives an object written in
    /// one PUT (unencrypted or SSE-S3) its MD5 as ETag; nil for any other ETag (a multipart
    /// upload's `…-N`, an SSE-KMS object's), which tells nothing about the bytes.
    package var md5: String?

    package init(bytes: Int64, md5: String?) { (self.bytes, self.md5) = (bytes, md5) }

    /// The MD5 an ETag (`"9e10…"`, quotes and all) is, or nil when it is none.
    static func md5(etag: String) -> String? {
        var text = etag[...]
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = text.dropFirst().dropLast() }
        guard text.utf8.count == 32, text.utf8.allSatisfy({ $0.isHexDigit }) else { return nil }
        return text.lowercased()
    }
}

/// Where libcurl's callbacks put a response.
private final class ResponseSink {
    var body = Data()
    /// Where a streamed body goes (`digest`), instead of `body`.
    var stream: Digest.Stream?
    /// The most `body` may hold; `overCap` when a response had more.
    var cap = Int.max
    var overCap = false
    var headers: [String: String] = [:]
}

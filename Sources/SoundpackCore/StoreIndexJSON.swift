// index.json read and written directly in the layout publish gives it (JSONEncoder's pretty
// printing with sorted keys, strings without escapes). A store of thousands of versions has an
// index of megabytes, which every publish reads and rewrites whole: through Foundation's
// JSONDecoder and JSONEncoder that cost grows to ten times the rest of a publish. Anything outside
// that layout is left to Foundation (the reader and the writer give nil), so where these answer
// they answer as Foundation would: the manifest fuzz target and StoreIndexJSONTests hold the two
// against each other.

import Foundation

extension StoreIndex {
    /// The index in `data` when it is laid out plainly: objects with exactly the keys the index
    /// has, each once; strings without escapes or control characters, in valid UTF-8; the schema
    /// version a plain non-negative integer. Nil for anything else, valid or not: a caller then
    /// decodes with JSONDecoder (`ManifestRefresher.decodeIndex` does), which gives the same index
    /// where this one gives one. The ids and versions it names are not checked here.
    public init?(plainJSON data: Data) {
        guard let read = Self.plainLayout(of: data) else { return nil }
        self = read.index
    }

    /// The index in `data` as `init(plainJSON:)` reads it, and where each pack's entry (its value,
    /// `{` to `}`) is in the bytes when they are exactly what `plainJSON()` writes (nil otherwise):
    /// such an entry, unchanged, can be copied rather than written again.
    package static func plainLayout(of data: Data) -> (index: StoreIndex, packBytes: [String: Range<Int>]?)? {
        data.withUnsafeBytes { bytes in
            var reader = PlainJSONReader(bytes: bytes)
            guard let index = reader.index() else { return nil }
            return (index, reader.canonical ? reader.packBytes : nil)
        }
    }

    /// The bytes JSONEncoder writes for this index (pretty-printed, sorted keys, slashes not
    /// escaped) and a final newline, written directly; nil when a string needs an escape or an
    /// object is empty, which a caller leaves to JSONEncoder.
    public func plainJSON() -> Data? { plainJSON(reusing: nil) }

    /// `plainJSON()`, with the entry of each pack that is the same in `earlier` copied from its
    /// bytes (`plainLayout(of:)`'s ranges, the writer's own layout) instead of written again: the
    /// bytes are the same, and an index of thousands of versions is not rewritten for one.
    package func plainJSON(reusing earlier: (data: Data, index: StoreIndex, packBytes: [String: Range<Int>])?) -> Data? {
        var writer = PlainJSONWriter()
        guard !packs.isEmpty, Self.encoderSortsBytewise else { return nil }
        if let earlier { writer.bytes.reserveCapacity(earlier.data.count + (1 << 16)) }
        writer.open()
        writer.key("packs", depth: 1)
        writer.open()
        for (n, (id, pack)) in packs.sorted(by: { Self.bytewise($0.key, $1.key) }).enumerated() {
            guard !pack.versions.isEmpty else { return nil }
            if n > 0 { writer.comma() }
            writer.key(id, depth: 2)
            if let earlier, let range = earlier.packBytes[id], earlier.index.packs[id] == pack {
                earlier.data.withUnsafeBytes { writer.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[range])) }
                continue
            }
            writer.pack(pack)
        }
        writer.close(depth: 1)
        writer.comma()
        writer.key("schemaVersion", depth: 1)
        writer.bytes += Array(String(schemaVersion).utf8)
        writer.close(depth: 0)
        writer.bytes.append(0x0A)
        return writer.failed ? nil : Data(writer.bytes)
    }

    /// JSONEncoder's order of sorted keys: by their UTF-8 bytes.
    fileprivate static func bytewise(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// Whether this Foundation's JSONEncoder sorts keys by their bytes (swift-foundation does;
    /// Apple's Foundation before macOS 14 and iOS 17 compared them as numbers, ignoring case, which
    /// orders "yanked" before "yankReason" and 1.9.0 before 1.10.0). Asked once, of JSONEncoder
    /// itself; where it sorts otherwise, every index is left to it.
    private static let encoderSortsBytewise: Bool = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let keys = ["yanked", "yankReason", "1.9.0", "1.10.0", "a-b", "a0", "B", "a"]
        guard let data = try? encoder.encode(Dictionary(uniqueKeysWithValues: keys.map { ($0, 0) })) else { return false }
        return String(decoding: data, as: UTF8.self) == "{" + keys.sorted(by: bytewise).map { "\"\($0)\":0" }.joined(separator: ",") + "}"
    }()
}

/// Writes JSONEncoder's pretty printing: two spaces a level, `"key" : value`, a comma at a line's end.
private struct PlainJSONWriter {
    var bytes: [UInt8] = []
    /// A string needed an escape: the output is not JSONEncoder's.
    var failed = false

    init() { bytes.reserveCapacity(1 << 16) }

    mutating func open() { bytes += [0x7B, 0x0A] }

    mutating func close(depth: Int) {
        bytes.append(0x0A)
        indent(depth)
        bytes.append(0x7D)
    }

    mutating func comma() { bytes += [0x2C, 0x0A] }

    mutating func indent(_ depth: Int) { bytes += repeatElement(0x20, count: 2 * depth) }

    mutating func key(_ key: String, depth: Int) {
        indent(depth)
        string(key)
        bytes += [0x20, 0x3A, 0x20]
    }

    mutating func string(_ text: String) {
        if text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) { failed = true }
        bytes.append(0x22)
        bytes.append(contentsOf: text.utf8)
        bytes.append(0x22)
    }

    /// `"key" : "value",` and the line's end.
    mutating func member(_ key: String, _ value: String, depth: Int) {
        self.key(key, depth: depth)
        string(value)
        comma()
    }

    /// A pack's entry, at the depth packs are at: `{`, its latest version and its versions, `}`.
    mutating func pack(_ pack: StoreIndex.Pack) {
        open()
        if let latest = pack.latest {
            key("latest", depth: 3)
            string(latest)
            comma()
        }
        key("versions", depth: 3)
        open()
        for (m, (text, version)) in pack.versions.sorted(by: { StoreIndex.bytewise($0.key, $1.key) }).enumerated() {
            if m > 0 { comma() }
            key(text, depth: 4)
            self.version(version, depth: 5)
        }
        close(depth: 3)
        close(depth: 2)
    }

    mutating func version(_ version: StoreIndex.Version, depth: Int) {
        open()
        member("digest", version.digest, depth: depth)
        member("manifest", version.manifest, depth: depth)
        member("manifestSha256", version.manifestSha256, depth: depth)
        member("publishedAt", version.publishedAt, depth: depth)
        if let reason = version.yankReason { member("yankReason", reason, depth: depth) }
        key("yanked", depth: depth)
        bytes += Array((version.yanked ? "true" : "false").utf8)
        close(depth: depth - 1)
    }
}

/// Reads the plain layout of index.json; nil on anything else. It notes whether the bytes are
/// exactly the writer's (`canonical`): its white space, keys in byte order, no null member.
private struct PlainJSONReader {
    let bytes: UnsafeRawBufferPointer
    var at = 0
    /// Objects open at `at`.
    private var depth = 0
    /// Whether everything read so far is laid out as `PlainJSONWriter` writes it.
    private(set) var canonical = true
    /// Where each pack's value is in `bytes`.
    private(set) var packBytes: [String: Range<Int>] = [:]

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func index() -> StoreIndex? {
        var packs: [String: StoreIndex.Pack]?
        var schemaVersion: Int?
        canonical = at == 0 && bytes.first == 0x7B
        let read = members { reader, key in
            switch key {
            case "packs" where packs == nil:
                packs = reader.packs()
                return packs != nil
            case "schemaVersion" where schemaVersion == nil:
                schemaVersion = reader.integer()
                return schemaVersion != nil
            default: return false
            }
        }
        canonical = canonical && bytes.count - at == 1 && bytes[at] == 0x0A
        skipSpace()
        guard read, at == bytes.count, let packs, let schemaVersion else { return nil }
        var index = StoreIndex(packs: packs)
        index.schemaVersion = schemaVersion
        return index
    }

    private mutating func packs() -> [String: StoreIndex.Pack]? {
        var packs: [String: StoreIndex.Pack] = [:]
        let read = members { reader, key in
            let start = reader.at
            guard packs[key] == nil, let pack = reader.pack() else { return false }
            packs[key] = pack
            reader.packBytes[key] = start..<reader.at
            return true
        }
        return read ? packs : nil
    }

    /// An object whose every key (each once) names a value `value` reads.
    private mutating func dictionary<Value>(_ value: (inout PlainJSONReader) -> Value?) -> [String: Value]? {
        var entries: [String: Value] = [:]
        let read = members { reader, key in
            guard entries[key] == nil, let entry = value(&reader) else { return false }
            entries[key] = entry
            return true
        }
        return read ? entries : nil
    }

    private mutating func pack() -> StoreIndex.Pack? {
        var latest: String??
        var versions: [String: StoreIndex.Version]?
        let read = members { reader, key in
            switch key {
            case "latest" where latest == nil:
                latest = reader.optionalString()
                return latest != nil
            case "versions" where versions == nil:
                versions = reader.versions()
                return versions != nil
            default: return false
            }
        }
        guard read, let versions else { return nil }
        if latest == .some(nil) { canonical = false }  // the writer leaves a missing latest out
        return StoreIndex.Pack(latest: latest ?? nil, versions: versions)
    }

    private mutating func versions() -> [String: StoreIndex.Version]? { dictionary { $0.version() } }

    private mutating func version() -> StoreIndex.Version? {
        var digest: String?, manifest: String?, manifestSha256: String?, publishedAt: String?
        var yanked: Bool?
        var yankReason: String??
        /// `field`, read once.
        func once(_ field: inout String?, _ reader: inout PlainJSONReader) -> Bool {
            guard field == nil else { return false }
            field = reader.string()
            return field != nil
        }
        let read = members { reader, key in
            switch key {
            case "digest": return once(&digest, &reader)
            case "manifest": return once(&manifest, &reader)
            case "manifestSha256": return once(&manifestSha256, &reader)
            case "publishedAt": return once(&publishedAt, &reader)
            case "yanked" where yanked == nil:
                yanked = reader.boolean()
                return yanked != nil
            case "yankReason" where yankReason == nil:
                yankReason = reader.optionalString()
                return yankReason != nil
            default: return false
            }
        }
        guard read, let digest, let manifest, let manifestSha256, let publishedAt, let yanked else { return nil }
        if yankReason == .some(nil) { canonical = false }
        return StoreIndex.Version(digest: digest, manifest: manifest, manifestSha256: manifestSha256, publishedAt: publishedAt,
                                  yanked: yanked, yankReason: yankReason ?? nil)
    }

    /// An object: `{`, then `"key" :` and a value `member` reads, separated by commas, then `}`.
    /// False when `member` refuses a key or the syntax is not JSON's.
    private mutating func members(_ member: (inout PlainJSONReader, String) -> Bool) -> Bool {
        guard take(0x7B) else { return false }
        depth += 1
        defer { depth -= 1 }
        var previous: String?
        while true {
            let before = space()
            if previous == nil, at < bytes.count, bytes[at] == 0x7D {
                canonical = false  // the writer writes no empty object
                at += 1
                return true
            }
            guard let key = string() else { return false }
            if !isLineBreak(before, depth: depth) || previous.map({ !StoreIndex.bytewise($0, key) }) ?? false { canonical = false }
            let beforeColon = space()
            guard at < bytes.count, bytes[at] == 0x3A else { return false }
            at += 1
            let afterColon = space()
            if !isOneSpace(beforeColon) || !isOneSpace(afterColon) { canonical = false }
            guard member(&self, key) else { return false }
            previous = key
            let after = space()
            guard at < bytes.count else { return false }
            if bytes[at] == 0x2C {
                if !after.isEmpty { canonical = false }
                at += 1
                continue
            }
            guard bytes[at] == 0x7D else { return false }
            if !isLineBreak(after, depth: depth - 1) { canonical = false }
            at += 1
            return true
        }
    }

    /// The white space at `at`, consumed.
    private mutating func space() -> Range<Int> {
        let start = at
        skipSpace()
        return start..<at
    }

    private func isOneSpace(_ run: Range<Int>) -> Bool { run.count == 1 && bytes[run.lowerBound] == 0x20 }

    /// Whether `run` is a line's end and the indent of `depth` levels, as the writer puts them.
    private func isLineBreak(_ run: Range<Int>, depth: Int) -> Bool {
        guard run.count == 1 + 2 * depth, bytes[run.lowerBound] == 0x0A else { return false }
        return bytes[(run.lowerBound + 1)..<run.upperBound].allSatisfy { $0 == 0x20 }
    }

    private mutating func skipSpace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x0A, 0x0D, 0x09: at += 1
            default: return
            }
        }
    }

    /// `byte` after any white space, consumed; false when something else comes.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }

    /// A string without escapes or control characters, in valid UTF-8.
    private mutating func string() -> String? {
        guard take(0x22) else { return nil }
        let start = at
        var ascii = true
        while at < bytes.count, bytes[at] != 0x22 {
            let byte = bytes[at]
            if byte < 0x20 || byte == 0x5C { return nil }
            if byte >= 0x80 { ascii = false }
            at += 1
        }
        guard at < bytes.count else { return nil }
        let text = UnsafeRawBufferPointer(rebasing: bytes[start..<at])
        at += 1
        let string = String(decoding: text, as: UTF8.self)
        // Decoding repairs invalid UTF-8 (U+FFFD in its place): then the bytes differ. (String's
        // validating initialiser needs iOS 18, and SoundpackCore runs on older phones.)
        return ascii || string.utf8.elementsEqual(text) ? string : nil
    }

    /// A string or null (`.some(nil)`); nil when neither.
    private mutating func optionalString() -> String?? {
        if literal("null") { return .some(nil) }
        return string().map { .some($0) }
    }

    private mutating func boolean() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    /// `0` or a non-negative integer of at most 18 digits without a leading zero.
    private mutating func integer() -> Int? {
        skipSpace()
        let start = at
        var value = 0
        while at < bytes.count, (0x30...0x39).contains(bytes[at]), at - start < 18 {
            value = value * 10 + Int(bytes[at] - 0x30)
            at += 1
        }
        guard at > start, !(bytes[start] == 0x30 && at - start > 1) else { return nil }
        return value
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        skipSpace()
        let count = word.utf8CodeUnitCount
        guard bytes.count - at >= count, memcmp(bytes.baseAddress! + at, word.utf8Start, count) == 0 else { return false }
        at += count
        return true
    }
}

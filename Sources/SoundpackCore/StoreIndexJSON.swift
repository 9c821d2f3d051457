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
        guard let index = Self.plainLayout(of: data) else { return nil }
        self = index
    }

    /// The index in `data` as `init(plainJSON:)` reads it.
    private static func plainLayout(of data: Data) -> StoreIndex? {
        data.withUnsafeBytes { bytes in
            var reader = PlainJSONReader(bytes: bytes)
            return reader.index()
        }
    }

    /// index.json skimmed: each pack's entry checked, counted and located, none built. Nil unless
    /// the bytes are exactly what `plainJSON()` writes and `ManifestRefresher.decodeIndex` accepts
    /// them (schema version 1, every pack id and version one); a caller then decodes them whole.
    package static func skim(_ data: Data) -> IndexSkim? {
        guard data.count <= StoreLimits.indexBytes else { return nil }
        let entries = data.withUnsafeBytes { bytes in
            var reader = PlainJSONReader(bytes: bytes)
            return reader.skim()
        }
        return entries.map { IndexSkim(data: data, entries: $0) }
    }

    /// The bytes JSONEncoder writes for this index (pretty-printed, sorted keys, slashes not
    /// escaped) and a final newline, written directly; nil when a string needs an escape or an
    /// object is empty, which a caller leaves to JSONEncoder.
    public func plainJSON() -> Data? { plainJSON(keeping: nil, replacing: []) }

    /// `plainJSON()` of this index's packs and of every other entry `earlier` lists, unless
    /// `replacing` names it (dropped): those are copied from earlier's bytes, the writer's own
    /// layout, so the output is what writing them again would give, and an index of thousands of
    /// versions is not rewritten for one.
    package func plainJSON(keeping earlier: IndexSkim?, replacing: Set<String>) -> Data? {
        plainJSONPieces(keeping: earlier, replacing: replacing)?.joinedBytes
    }

    /// `plainJSON(keeping:replacing:)` in pieces, in order: each run of entries kept side by side
    /// is one slice of earlier's bytes (sharing them, not copied), between the bytes written for
    /// this index's packs. A store writes the pieces one after another, and a big index is never
    /// assembled in memory for the few entries that change.
    package func plainJSONPieces(keeping earlier: IndexSkim?, replacing: Set<String>) -> [Data]? {
        guard Self.encoderSortsBytewise else { return nil }
        var kept: [String: Range<Int>] = [:]
        for (id, entry) in earlier?.entries ?? [:] where packs[id] == nil && !replacing.contains(id) { kept[id] = entry.bytes }
        let ids = (Array(packs.keys) + Array(kept.keys)).sorted(by: Self.bytewise)
        guard !ids.isEmpty else { return nil }
        var pieces = PlainJSONPieces(earlier: earlier?.data)
        pieces.writer.open()
        pieces.writer.key("packs", depth: 1)
        pieces.writer.open()
        for (n, id) in ids.enumerated() {
            if let pack = packs[id] {
                guard !pack.versions.isEmpty else { return nil }
                if n > 0 { pieces.writer.comma() }
                pieces.writer.key(id, depth: 2)
                pieces.writer.pack(pack)
            } else if let range = kept[id] {
                guard pieces.copy(id, at: range, first: n == 0) else { return nil }
            }
        }
        pieces.writer.close(depth: 1)
        pieces.writer.comma()
        pieces.writer.key("schemaVersion", depth: 1)
        pieces.writer.bytes += Array(String(schemaVersion).utf8)
        pieces.writer.close(depth: 0)
        pieces.writer.bytes.append(0x0A)
        return pieces.writer.failed ? nil : pieces.finished()
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

extension [Data] {
    /// The pieces' bytes one after another, in one buffer of their whole size (the one piece
    /// itself when there is one).
    package var joinedBytes: Data {
        if count == 1 { return self[0] }
        var joined = Data(capacity: reduce(0) { $0 + $1.count })
        for piece in self { joined.append(piece) }
        return joined
    }
}

/// index.json's bytes as pieces: what the writer writes, and runs of an earlier index's entries,
/// each run one slice of its bytes.
private struct PlainJSONPieces {
    var writer = PlainJSONWriter()
    private var pieces: [Data] = []
    /// The earlier index's bytes, in the writer's layout.
    private let earlier: Data
    /// Where the run of earlier entries being copied is in their bytes (offsets from the first).
    private var run: Range<Int>?

    init(earlier: Data?) { self.earlier = earlier ?? Data() }

    /// The earlier entry of `id`, whose value is at `value` in the earlier bytes, key and all, with
    /// the comma before it unless it is the `first` entry. Entries side by side there, with nothing
    /// written between them here, are one slice. False when the bytes before the value are not its
    /// key as the writer lays it out.
    mutating func copy(_ id: String, at value: Range<Int>, first: Bool) -> Bool {
        // `    "id" : ` before the value: the indent of depth 2, the key, the colon between spaces.
        var key = PlainJSONWriter(reserving: 0)
        key.key(id, depth: 2)
        let start = value.lowerBound - key.bytes.count
        let fits = earlier.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            start >= 2 && value.upperBound <= bytes.count && bytes[start..<value.lowerBound].elementsEqual(key.bytes)
        }
        guard fits else { return false }
        // (The buffer's type is spelled: left to inference, `withUnsafeBytes` reads typed elements.)
        if let current = run, writer.bytes.isEmpty, current.upperBound + 2 == start,
           earlier.withUnsafeBytes({ (bytes: UnsafeRawBufferPointer) in bytes[current.upperBound] == 0x2C && bytes[current.upperBound + 1] == 0x0A }) {
            run = current.lowerBound..<value.upperBound
            return true
        }
        endRun()
        if !first { writer.comma() }
        pieces.append(Data(writer.bytes))
        writer.bytes.removeAll(keepingCapacity: true)
        run = start..<value.upperBound
        return true
    }

    private mutating func endRun() {
        guard let current = run else { return }
        let base = earlier.startIndex
        pieces.append(earlier[(base + current.lowerBound)..<(base + current.upperBound)])
        run = nil
    }

    /// Every piece, in order.
    mutating func finished() -> [Data] {
        endRun()
        if !writer.bytes.isEmpty { pieces.append(Data(writer.bytes)) }
        return pieces
    }
}

/// Writes JSONEncoder's pretty printing: two spaces a level, `"key" : value`, a comma at a line's end.
private struct PlainJSONWriter {
    var bytes: [UInt8] = []
    /// A string needed an escape: the output is not JSONEncoder's.
    var failed = false

    init(reserving capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

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
/// exactly the writer's (`canonical`): its white space, keys in byte order, no null member. It
/// skims as well (`skim()`): the same reading, building nothing.
private struct PlainJSONReader {
    let bytes: UnsafeRawBufferPointer
    var at = 0
    /// Objects open at `at`.
    private var depth = 0
    /// Whether everything read so far is laid out as `PlainJSONWriter` writes it.
    private(set) var canonical = true

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func index() -> StoreIndex? {
        guard let (packs, schemaVersion) = top({ $0.packs() }) else { return nil }
        var index = StoreIndex(packs: packs)
        index.schemaVersion = schemaVersion
        return index
    }

    /// The whole text: an object of `packs` (which `readPacks` reads) and `schemaVersion`, each
    /// once, and nothing after it but white space (the writer's one newline).
    private mutating func top<Packs>(_ readPacks: (inout PlainJSONReader) -> Packs?) -> (packs: Packs, schemaVersion: Int)? {
        var packs: Packs?
        var schemaVersion: Int?
        canonical = at == 0 && bytes.first == 0x7B
        let read = members { reader, key in
            switch key {
            case "packs" where packs == nil:
                packs = readPacks(&reader)
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
        return (packs, schemaVersion)
    }

    private mutating func packs() -> [String: StoreIndex.Pack]? {
        var packs: [String: StoreIndex.Pack] = [:]
        let read = members { reader, key in
            guard let id = key.string, packs[id] == nil, let pack = reader.pack() else { return false }
            packs[id] = pack
            return true
        }
        return read ? packs : nil
    }

    /// An object whose every key (each once) names a value `value` reads.
    private mutating func dictionary<Value>(_ value: (inout PlainJSONReader) -> Value?) -> [String: Value]? {
        var entries: [String: Value] = [:]
        let read = members { reader, key in
            guard let name = key.string, entries[name] == nil, let entry = value(&reader) else { return false }
            entries[name] = entry
            return true
        }
        return read ? entries : nil
    }

    mutating func pack() -> StoreIndex.Pack? {
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
    private mutating func members(_ member: (inout PlainJSONReader, RawString) -> Bool) -> Bool {
        guard take(0x7B) else { return false }
        depth += 1
        defer { depth -= 1 }
        var previous: RawString?
        while true {
            let before = space()
            if previous == nil, at < bytes.count, bytes[at] == 0x7D {
                canonical = false  // the writer writes no empty object
                at += 1
                return true
            }
            guard let key = stringBytes() else { return false }
            if !isLineBreak(before, depth: depth) || previous.map({ !$0.precedes(key) }) ?? false { canonical = false }
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
        // An indent is eight spaces at a time.
        if at < bytes.count, bytes[at] == 0x0A, let base = bytes.baseAddress {
            at += 1
            while bytes.count - at >= 8, base.loadUnaligned(fromByteOffset: at, as: UInt64.self) == 0x2020_2020_2020_2020 { at += 8 }
        }
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
    private mutating func string() -> String? { stringBytes()?.string }

    /// Whether a string `string()` reads comes next, consumed; no String is built for ASCII.
    private mutating func skipString() -> Bool { stringBytes()?.isUTF8 ?? false }

    /// The bytes of a string without escapes or control characters (not yet checked as UTF-8),
    /// consumed with its quotes; nil when no such string comes.
    private mutating func stringBytes() -> RawString? {
        guard take(0x22), let base = bytes.baseAddress else { return nil }
        let start = at
        var high: UInt64 = 0
        // Eight bytes at a time up to the first that ends the string or cannot be in it (a quote,
        // a backslash, a control character): the lowest byte each test flags is exact.
        let ones: UInt64 = 0x0101_0101_0101_0101, tops: UInt64 = 0x8080_8080_8080_8080
        while bytes.count - at >= 8 {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
            let stops = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (word &- ones &* 0x20) & ~word) & tops
            if stops != 0 {
                // The lowest flagged byte is the first stop: the bytes below it are the string's.
                let before = stops.trailingZeroBitCount / 8
                high |= word & ((1 << (8 * before)) - 1)
                at += before
                break
            }
            high |= word
            at += 8
        }
        while at < bytes.count, bytes[at] != 0x22, bytes[at] >= 0x20, bytes[at] != 0x5C {
            high |= UInt64(bytes[at])
            at += 1
        }
        guard at < bytes.count, bytes[at] == 0x22 else { return nil }
        at += 1
        return RawString(bytes: UnsafeRawBufferPointer(rebasing: bytes[start..<(at - 1)]), ascii: high & tops == 0)
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

/// A string as its bytes stand in index.json, quotes excluded: a key, or a value not built.
private struct RawString {
    let bytes: UnsafeRawBufferPointer
    /// Whether every byte is ASCII (then they are valid UTF-8).
    let ascii: Bool

    /// The bytes as a String; nil when they are not valid UTF-8.
    var string: String? {
        let string = String(decoding: bytes, as: UTF8.self)
        // Decoding repairs invalid UTF-8 (U+FFFD in its place): then the bytes differ. (String's
        // validating initialiser needs iOS 18, and SoundpackCore runs on older phones.)
        return ascii || string.utf8.elementsEqual(bytes) ? string : nil
    }

    var isUTF8: Bool { ascii || string != nil }

    /// Whether these bytes come before `other`'s in byte order (JSONEncoder's order of sorted keys).
    func precedes(_ other: RawString) -> Bool {
        let common = min(bytes.count, other.bytes.count)
        let order = common == 0 ? 0 : memcmp(bytes.baseAddress!, other.bytes.baseAddress!, common)
        return order < 0 || (order == 0 && bytes.count < other.bytes.count)
    }

    /// A key matches the word it spells.
    static func ~= (word: StaticString, key: RawString) -> Bool {
        key.bytes.count == word.utf8CodeUnitCount && (key.bytes.isEmpty || memcmp(key.bytes.baseAddress!, word.utf8Start, key.bytes.count) == 0)
    }
}

/// Skimming: the reading `index()` does, limited to the writer's own layout, where keys in byte
/// order (each after the one before) cannot repeat; each version is checked and counted, not built.
extension PlainJSONReader {
    /// Each pack's entry, counted and located; nil unless the bytes are the writer's own layout, of
    /// schema version 1, with pack ids and versions (listed and latest) that are ones.
    mutating func skim() -> [String: IndexSkim.Entry]? {
        guard let (entries, schemaVersion) = top({ $0.skimPacks() }), canonical, schemaVersion == 1 else { return nil }
        return entries
    }

    private mutating func skimPacks() -> [String: IndexSkim.Entry]? {
        var entries: [String: IndexSkim.Entry] = [:]
        let read = members { reader, key in
            let start = reader.at
            guard reader.canonical, let id = key.string, entries[id] == nil, PackFile.isValidID(id), let count = reader.skimPack() else { return false }
            entries[id] = IndexSkim.Entry(bytes: start..<reader.at, versions: count.versions, yanked: count.yanked)
            return true
        }
        return read ? entries : nil
    }

    /// A pack's entry as `pack()` reads it: how many versions it lists, and how many as yanked.
    private mutating func skimPack() -> (versions: Int, yanked: Int)? {
        var latest: String?
        var count: (versions: Int, yanked: Int)?
        let read = members { reader, key in
            switch key {
            case "latest" where latest == nil:
                latest = reader.string()
                return latest.map { SemanticVersion($0) != nil } ?? false
            case "versions" where count == nil:
                count = reader.skimVersions()
                return count != nil
            default: return false
            }
        }
        return read ? count : nil
    }

    private mutating func skimVersions() -> (versions: Int, yanked: Int)? {
        var count = (versions: 0, yanked: 0)
        let read = members { reader, key in
            guard reader.canonical, let text = key.string, SemanticVersion(text) != nil, let yanked = reader.skimVersion() else { return false }
            count.versions += 1
            if yanked { count.yanked += 1 }
            return true
        }
        return read && count.versions > 0 ? count : nil
    }

    /// A version's entry as `version()` reads it, with strings checked and not built: whether it is yanked.
    private mutating func skimVersion() -> Bool? {
        var seen: UInt8 = 0
        var yanked: Bool?
        let read = members { reader, key in
            let field: UInt8
            switch key {
            case "digest": field = 1
            case "manifest": field = 2
            case "manifestSha256": field = 4
            case "publishedAt": field = 8
            case "yankReason": field = 16
            case "yanked" where yanked == nil:
                yanked = reader.boolean()
                return yanked != nil
            default: return false
            }
            guard seen & field == 0 else { return false }
            seen |= field
            return reader.skipString()
        }
        guard read, seen & 15 == 15 else { return nil }
        return yanked
    }
}

/// index.json skimmed (`StoreIndex.skim`): where each pack's entry is in its bytes and what it
/// counts, every entry checked as `ManifestRefresher.decodeIndex` checks it; an entry is built
/// only when asked for.
package struct IndexSkim: Sendable {
    /// A pack's entry: where its value (`{` to `}`) is in the bytes, how many versions it lists,
    /// and how many of them as yanked.
    package struct Entry: Sendable, Equatable {
        package var bytes: Range<Int>
        package var versions: Int
        package var yanked: Int
    }

    /// The bytes skimmed.
    package let data: Data
    /// Each pack's entry, by pack id.
    package let entries: [String: Entry]

    /// The entry of `id`, built from its bytes; nil when the index does not list it.
    package func pack(_ id: String) -> StoreIndex.Pack? {
        guard let range = entries[id]?.bytes else { return nil }
        return data.withUnsafeBytes { bytes in
            var reader = PlainJSONReader(bytes: UnsafeRawBufferPointer(rebasing: bytes[range]))
            return reader.pack()
        }
    }

    /// The index with only the entries of `ids` built (those it lists).
    package func index(of ids: Set<String>) -> StoreIndex {
        var packs: [String: StoreIndex.Pack] = [:]
        for id in ids { packs[id] = pack(id) }
        return StoreIndex(packs: packs)
    }

    /// Every entry built: the index `ManifestRefresher.decodeIndex` reads from the same bytes.
    package var index: StoreIndex { index(of: Set(entries.keys)) }
}

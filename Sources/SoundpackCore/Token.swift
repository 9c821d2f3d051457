// One spoken unit of an announcement, and one clip of a pack: a key of pack.json's `clips`.
// Grammars define their tokens (ChineseGrammar: 0…9, 十, 百 …); the framing tokens `prefix` and
// `suffix` belong to every announcement; a pack's phrases add clips of their own (`wechat`, `refund`).

/// A clip key an announcement says, with its place in the announcement's inventory.
///
/// Two tokens are equal when their keys are: the key is what pack.json writes. `ordinal` is the
/// token's index in its inventory (`Grammar.inventory`: prefix 0, suffix 1, then the grammar's own
/// tokens in listing order; a pack's phrase clips after those, `PhraseBook.inventory`): a cheap
/// array index for the tables of the hot paths.
///
/// A token is a plain value, so reading an amount appends tokens without reference counting: a
/// grammar's key is a `StaticString` (its keys are literals in its file), and a phrase clip's key,
/// read from pack.json, is held inline — phrase clip keys are `[a-z0-9-]`, at most 32 of them, six
/// bits each, in three words. A token a reading table names (`TableGrammar`: a grammar this
/// SoundpackCore has no code for) holds its key's UTF-8 bytes inline, at most 23 of them.
public struct Token: Sendable, Hashable, Comparable, CustomStringConvertible, Encodable {
    private enum Key: Sendable {
        case literal(StaticString)
        /// Character `i` in bits `6i ..< 6i+6` of the three words (little end first); 0 ends the key.
        case packed(UInt64, UInt64, UInt64)
        /// The key's UTF-8 bytes from the first word's low byte on, its length in the last byte.
        case bytes(UInt64, UInt64, UInt64)
    }
    private let key: Key
    private let index: Int32

    public init(_ key: StaticString, ordinal: Int) {
        self.key = .literal(key)
        self.index = Int32(truncatingIfNeeded: ordinal)
    }

    /// A phrase clip's token: nil unless `clipKey` is 1–32 of `a-z`, `0-9` and `-`.
    public init?(clipKey: String, ordinal: Int) {
        let bytes = clipKey.utf8
        guard (1...Self.maxPackedLength).contains(bytes.count) else { return nil }
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        for (i, byte) in bytes.enumerated() {
            guard let code = Self.code(of: byte) else { return nil }
            Self.put(UInt64(code), at: 6 * i, in: &words)
        }
        self.key = .packed(words.0, words.1, words.2)
        self.index = Int32(truncatingIfNeeded: ordinal)
    }

    /// A reading table's token: the packed form when `key` is one a phrase clip may have, else its
    /// UTF-8 bytes; nil when `key` is empty, longer than `maxKeyBytes`, or holds a control character.
    public init?(tableKey key: String, ordinal: Int) {
        if let packed = Token(clipKey: key, ordinal: ordinal) { self = packed; return }
        let bytes = key.utf8
        guard (1...Self.maxKeyBytes).contains(bytes.count), !key.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
            raw[raw.count - 1] = UInt8(bytes.count)
        }
        self.key = .bytes(words.0, words.1, words.2)
        self.index = Int32(truncatingIfNeeded: ordinal)
    }

    /// The longest phrase clip key a token holds.
    public static let maxPackedLength = 32
    /// The longest key, in UTF-8 bytes, a reading table's token may have.
    public static let maxKeyBytes = 23

    /// The token's index in its inventory.
    public var ordinal: Int { Int(index) }

    /// The key written in pack.json (`5`, `十`, `prefix`, `wechat`).
    public var rawValue: String {
        switch key {
        case .literal(let text): return text.description
        case .packed, .bytes:
            return withKeyBytes { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// The clip said before every reading.
    public static var prefix: Token { Token("prefix", ordinal: 0) }
    /// The optional clip said after every reading.
    public static var suffix: Token { Token("suffix", ordinal: 1) }
    /// The ordinal of a grammar's first own token.
    public static let firstGrammarOrdinal = 2

    public var description: String { rawValue }

    /// Encoded as its key (decoding needs the grammar: `Grammar.token(forKey:)`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }

    public static func == (lhs: Token, rhs: Token) -> Bool {
        switch (lhs.key, rhs.key) {
        case let (.literal(a), .literal(b)):
            return a.withUTF8Buffer { a in b.withUTF8Buffer { b in a.count == b.count && (a.baseAddress == b.baseAddress || a.elementsEqual(b)) } }
        case let (.packed(a0, a1, a2), .packed(b0, b1, b2)), let (.bytes(a0, a1, a2), .bytes(b0, b1, b2)):
            return a0 == b0 && a1 == b1 && a2 == b2
        default:
            return lhs.withKeyBytes { a in rhs.withKeyBytes { b in a.elementsEqual(b) } }
        }
    }

    public func hash(into hasher: inout Hasher) {
        withKeyBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Listing order: prefix, the grammar's tokens in its order, phrase clips, suffix last.
    var rank: Int { ordinal == Self.suffix.ordinal ? Int.max : ordinal }

    public static func < (lhs: Token, rhs: Token) -> Bool {
        (lhs.rank, lhs.rawValue) < (rhs.rank, rhs.rawValue)
    }

    // MARK: - The packed form

    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-".utf8)

    private static func code(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 1
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 27
        case UInt8(ascii: "-"): return 37
        default: return nil
        }
    }

    private static func put(_ code: UInt64, at bit: Int, in words: inout (UInt64, UInt64, UInt64)) {
        withUnsafeMutableBytes(of: &words) { raw in
            let w = raw.bindMemory(to: UInt64.self)
            let word = bit / 64, shift = bit % 64
            w[word] |= code << UInt64(shift)
            if shift > 58 { w[word + 1] |= code >> UInt64(64 - shift) }
        }
    }

    private static func get(at bit: Int, in words: (UInt64, UInt64, UInt64)) -> UInt8 {
        withUnsafeBytes(of: words) { raw in
            let w = raw.bindMemory(to: UInt64.self)
            let word = bit / 64, shift = bit % 64
            var value = w[word] >> UInt64(shift)
            if shift > 58 { value |= w[word + 1] << UInt64(64 - shift) }
            return UInt8(value & 0x3F)
        }
    }

    /// Calls `body` with the key's UTF-8 bytes.
    private func withKeyBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch key {
        case .literal(let text):
            return text.withUTF8Buffer(body)
        case let .packed(w0, w1, w2):
            var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            return withUnsafeMutableBytes(of: &buffer) { raw in
                var count = 0
                while count < Self.maxPackedLength {
                    let code = Self.get(at: 6 * count, in: (w0, w1, w2))
                    if code == 0 { break }
                    raw[count] = Self.alphabet[Int(code) - 1]
                    count += 1
                }
                return body(UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: count))
            }
        case let .bytes(w0, w1, w2):
            return withUnsafeBytes(of: (w0, w1, w2)) { raw in
                body(UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: min(Int(raw[raw.count - 1]), Self.maxKeyBytes)))
            }
        }
    }
}

// One spoken unit of an announcement, and one clip of a pack: a key of pack.json's `clips`.
// Grammars define their tokens (ChineseGrammar: 0…9, 十, 百 …); the framing tokens `prefix` and
// `suffix` belong to every announcement.

/// A clip key a grammar says, with its place in the grammar's inventory.
///
/// Two tokens are equal when their keys are: the key is what pack.json writes. `ordinal` is the
/// token's index in its grammar's `Grammar.inventory` (prefix 0, suffix 1, then the grammar's own
/// tokens in listing order): a cheap array index for the tables of the hot paths.
///
/// The key is a `StaticString` (a grammar's keys are literals in its file), so a token is a plain
/// value: reading an amount appends tokens without reference counting.
public struct Token: Sendable, Hashable, Comparable, CustomStringConvertible, Encodable {
    private let key: StaticString
    public let ordinal: Int

    public init(_ key: StaticString, ordinal: Int) {
        self.key = key
        self.ordinal = ordinal
    }

    /// The key written in pack.json (`5`, `十`, `prefix`).
    public var rawValue: String { key.description }

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
        lhs.key.withUTF8Buffer { a in rhs.key.withUTF8Buffer { b in a.count == b.count && (a.baseAddress == b.baseAddress || a.elementsEqual(b)) } }
    }

    public func hash(into hasher: inout Hasher) {
        key.withUTF8Buffer { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Listing order: prefix, the grammar's tokens in its order, suffix last.
    var rank: Int { ordinal == Self.suffix.ordinal ? Int.max : ordinal }

    public static func < (lhs: Token, rhs: Token) -> Bool {
        (lhs.rank, lhs.rawValue) < (rhs.rank, rhs.rawValue)
    }
}

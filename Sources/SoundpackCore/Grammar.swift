// A pack's grammar as pack.json declares it: the grammar id and its options, and the one reading
// they make. Everything outside SoundpackCore reads amounts through this type.

/// A grammar's name: one of the grammars a pack can declare in pack.json (`grammar`), or, on a
/// phone, a newer one an exported pack reads with its reading table (`GrammarID(readByTable:)`).
///
/// Not an enum: an app's SoundpackCore meets the names of grammars added after it was built, and
/// reads their packs from the table (DESIGN §3b). `allCases` and `init?(rawValue:)` are the grammars
/// this SoundpackCore has code for, the only ones pack.json, the catalog and the commands accept.
public struct GrammarID: RawRepresentable, Hashable, Sendable, CaseIterable, Codable, CustomStringConvertible {
    public let rawValue: String
    /// Whether this SoundpackCore has the grammar's code (false: read from a table).
    public let isKnown: Bool

    public static let zhHans = GrammarID(known: "zh-Hans")
    public static let zhHant = GrammarID(known: "zh-Hant")
    public static let enUS = GrammarID(known: "en-US")
    public static let enIN = GrammarID(known: "en-IN")
    public static let hiIN = GrammarID(known: "hi-IN")

    /// The grammars this SoundpackCore reads with its own code, in listing order.
    public static let allCases: [GrammarID] = [.zhHans, .zhHant, .enUS, .enIN, .hiIN]

    private init(known name: String) {
        rawValue = name
        isKnown = true
    }

    /// One of `allCases`, by its name; nil for any other.
    public init?(rawValue: String) {
        guard let known = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = known
    }

    /// The name of a grammar a pack's reading table reads (a known name is the known grammar).
    init(readByTable name: String) {
        self = GrammarID(rawValue: name) ?? GrammarID(unknown: name)
    }

    private init(unknown name: String) {
        rawValue = name
        isKnown = false
    }

    /// Whether the grammar takes the zh reading options (`two`, `money`, `tenStart`); the others take none.
    public var hasOptions: Bool { self == .zhHans || self == .zhHant }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let known = GrammarID(rawValue: name) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Cannot initialize GrammarID from invalid String value \(name)")
        }
        self = known
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A grammar's reading options (`grammarOptions` in pack.json, DESIGN §4a).
public struct GrammarOptions: Sendable, Hashable, CustomStringConvertible {
    public var two: TwoStyle
    public var money: MoneyStyle
    public var tenStart: TenStart

    public init(two: TwoStyle = .default, money: MoneyStyle = .default, tenStart: TenStart = .default) {
        self.two = two
        self.money = money
        self.tenStart = tenStart
    }

    /// `two=er money=yuan tenStart=shi`.
    public var description: String { written.map { "\($0.name)=\($0.value)" }.joined(separator: " ") }

    /// The options' names as pack.json writes them.
    public static let names = ["two", "money", "tenStart"]

    /// Each option as pack.json writes it (name, value), in `names` order.
    public var written: [(name: String, value: String)] {
        [("two", two.rawValue), ("money", money.rawValue), ("tenStart", tenStart.rawValue)]
    }

    /// The options that differ from their defaults. `two` is written always (packs have said it
    /// since the first version); the others only when chosen, so the files and digests of packs
    /// that choose none are what they were before the options existed.
    public var chosen: [(name: String, value: String)] {
        zip(written, GrammarOptions().written).filter { $0.0.name == "two" || $0.0.value != $0.1.value }.map(\.0)
    }

    /// Sets the option `name` from its written `value`; false when either is unknown.
    public mutating func set(_ name: String, _ value: String) -> Bool {
        switch name {
        case "two": guard let v = TwoStyle(rawValue: value) else { return false }; two = v
        case "money": guard let v = MoneyStyle(rawValue: value) else { return false }; money = v
        case "tenStart": guard let v = TenStart(rawValue: value) else { return false }; tenStart = v
        default: return false
        }
        return true
    }

    /// The values `name` takes, for messages.
    public static func values(of name: String) -> [String] {
        switch name {
        case "two": return TwoStyle.allCases.map(\.rawValue)
        case "money": return MoneyStyle.allCases.map(\.rawValue)
        case "tenStart": return TenStart.allCases.map(\.rawValue)
        default: return []
        }
    }
}

/// Reads amounts as sequences of clip tokens for one grammar and its options.
public struct Grammar: Sendable, Hashable {
    public let id: GrammarID
    /// The reading options; the defaults for a grammar that takes none (`GrammarID.hasOptions`).
    public let options: GrammarOptions
    private let reading: Reading

    /// The grammar that reads: one of the framework's (DESIGN §4c), chosen by the id.
    private enum Reading: Sendable, Hashable {
        case chinese(ChineseGrammar)
        case english(EnglishGrammar)
        case hindi(HindiGrammar)
        /// A grammar this SoundpackCore has no code for, read from its table.
        case table(TableGrammar)
    }

    public init(_ id: GrammarID, options: GrammarOptions = GrammarOptions()) {
        self.id = id
        self.options = id.hasOptions ? options : GrammarOptions()
        switch id {
        case .zhHans, .zhHant:
            reading = .chinese(ChineseGrammar(traditional: id == .zhHant, two: options.two, money: options.money, tenStart: options.tenStart))
        case .enUS, .enIN: reading = .english(EnglishGrammar(indian: id == .enIN))
        case .hiIN: reading = .hindi(HindiGrammar())
        default: preconditionFailure("grammar \(id) has no code here; it is read from its table (Grammar(table:))")
        }
    }

    /// The grammar a reading table describes (DESIGN §3b), read from the table alone: how a phone
    /// reads a pack whose grammar, or one of its options, this SoundpackCore does not know.
    /// `options` are the table's as far as `GrammarOptions` knows them; `chosenOptions` are the table's own.
    public init(table: ReadingTable) throws(ReadingTable.Problem) {
        let reading = try TableGrammar(table)
        id = GrammarID(readByTable: table.grammar)
        var options = GrammarOptions()
        for (name, value) in table.options { _ = options.set(name, value) }
        self.options = options
        self.reading = .table(reading)
    }

    /// Whether amounts are read from a table rather than by this SoundpackCore's own code.
    public var isReadFromTable: Bool {
        if case .table = reading { return true }
        return false
    }

    public init(_ id: GrammarID, two: TwoStyle) {
        self.init(id, options: GrammarOptions(two: two))
    }

    public var two: TwoStyle { options.two }

    /// The options as pack.json, the manifests and the report write them: `two` always and the
    /// others when chosen, for a grammar that takes options; none for one that takes none.
    /// A grammar read from its table: the table's options, by name.
    public var chosenOptions: [(name: String, value: String)] {
        if case .table(let g) = reading { return g.table.options.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
        return id.hasOptions ? options.chosen : []
    }

    /// The grammar and the options that differ from their defaults: `zh-Hans`, `zh-Hans money=kuai-mao`.
    public var summary: String {
        if isReadFromTable { return ([id.rawValue] + chosenOptions.map { "\($0.name)=\($0.value)" } + ["(from its reading table)"]).joined(separator: " ") }
        let defaults = GrammarOptions().written
        let chosen = zip(options.written, defaults).filter { $0.0.value != $0.1.value }.map { "\($0.0.name)=\($0.0.value)" }
        return ([id.rawValue] + chosen).joined(separator: " ")
    }

    /// Every token an announcement in this grammar can play, by ordinal (`prefix`, `suffix`, the
    /// grammar's tokens): `inventory[token.ordinal] == token`. `sorted()` gives listing order.
    public var inventory: [Token] { [.prefix, .suffix] + ownTokens }

    /// The grammar's own tokens.
    private var ownTokens: [Token] {
        switch reading {
        case .chinese(let g): return g.tokens
        case .english(let g): return g.tokens
        case .hindi(let g): return g.tokens
        case .table(let g): return g.tokens
        }
    }

    /// What joins written words: nothing in Chinese, a space in English and Hindi.
    public var separator: String {
        switch reading {
        case .chinese(let g): return g.separator
        case .english(let g): return g.separator
        case .hindi(let g): return g.separator
        case .table(let g): return g.separator
        }
    }

    /// How amount input may group digits with commas.
    public var grouping: DigitGrouping {
        switch reading {
        case .chinese(let g): return g.grouping
        case .english(let g): return g.grouping
        case .hindi(let g): return g.grouping
        case .table(let g): return g.grouping
        }
    }

    /// The token whose clip key is `key` (`prefix`, `suffix` or one of the grammar's).
    public func token(forKey key: String) -> Token? {
        if key == Token.prefix.rawValue { return .prefix }
        if key == Token.suffix.rawValue { return .suffix }
        switch reading {
        case .chinese(let g): return g.token(forKey: key)
        case .english(let g): return g.token(forKey: key)
        case .hindi(let g): return g.token(forKey: key)
        case .table(let g): return g.token(forKey: key)
        }
    }

    /// Listing order of clip keys: the grammar's tokens in its order, then other keys by name.
    public func precedes(_ a: String, _ b: String) -> Bool {
        switch (token(forKey: a), token(forKey: b)) {
        case let (x?, y?): return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return a < b
        }
    }

    /// The reading as a table (DESIGN §3b) for this grammar and its options: what a player with no
    /// grammar code reads amounts with.
    public var readingTable: ReadingTable {
        switch reading {
        case .chinese(let g): return g.readingTable(id: id, options: chosenOptions)
        case .english(let g): return g.readingTable(id: id, options: chosenOptions)
        case .hindi(let g): return g.readingTable(id: id, options: chosenOptions)
        case .table(let g): return g.table
        }
    }

    /// The tokens that read `amount`, without prefix or suffix: 15.40 → 十 五 点 四 元.
    public func tokens(for amount: Amount) -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity(24)
        appendTokens(for: amount, to: &tokens)
        return tokens
    }

    /// Appends the reading of `amount` to `tokens` (no prefix or suffix); the allocation-free form.
    public func appendTokens(for amount: Amount, to tokens: inout [Token]) {
        switch reading {
        case .chinese(let g): g.appendTokens(for: amount, to: &tokens)
        case .english(let g): g.appendTokens(for: amount, to: &tokens)
        case .hindi(let g): g.appendTokens(for: amount, to: &tokens)
        case .table(let g): g.appendTokens(for: amount, to: &tokens)
        }
    }

    /// Whether `token` is one of the grammar's own (a digit, 十 …), not a clip of the pack's
    /// phrases (`prefix`, `suffix`, `wechat` …).
    public func says(_ token: Token) -> Bool {
        let own = ownTokens, index = token.ordinal - Token.firstGrammarOrdinal
        return index >= 0 && index < own.count && own[index] == token
    }

    /// The written form of a token: 十, 萬, 點 … A phrase's clips (`prefix`, `suffix`, `wechat`)
    /// are written as the pack's `texts` say.
    public func text(of token: Token, texts: [String: String] = [:]) -> String {
        guard says(token) else { return texts[token.rawValue] ?? "[\(token.rawValue)]" }
        switch reading {
        case .chinese(let g): return g.text(of: token, texts: texts)
        case .english(let g): return g.text(of: token, texts: texts)
        case .hindi(let g): return g.text(of: token, texts: texts)
        case .table(let g): return g.text(of: token, texts: texts)
        }
    }

    /// What joins the written `a` and `b` (en: twenty-one; a phrase's clip: the grammar's separator).
    public func separator(between a: Token, and b: Token) -> String {
        guard says(a), says(b) else { return separator }
        switch reading {
        case .chinese(let g): return g.separator(between: a, and: b)
        case .english(let g): return g.separator(between: a, and: b)
        case .hindi(let g): return g.separator(between: a, and: b)
        case .table(let g): return g.separator(between: a, and: b)
        }
    }

    /// The written reading of a token sequence, words joined as the grammar writes them.
    public func text(of tokens: [Token], texts: [String: String] = [:]) -> String {
        var result = ""
        for (index, token) in tokens.enumerated() {
            if index > 0 { result += separator(between: tokens[index - 1], and: token) }
            result += text(of: token, texts: texts)
        }
        return result
    }

    /// Written parts joined by the grammar's separator, the empty ones left out (an alert's text:
    /// a phrase's words around the amount in figures).
    public func joined(_ parts: [String]) -> String { parts.filter { !$0.isEmpty }.joined(separator: separator) }

    /// An amount in figures with the grammar's unit, as an alert's text writes it: 15.40元, $15.40.
    public func figures(_ amount: Amount) -> String {
        switch reading {
        case .chinese(let g): return g.figures(amount)
        case .english(let g): return g.figures(amount)
        case .hindi(let g): return g.figures(amount)
        case .table(let g): return g.figures(amount)
        }
    }

    /// An ASCII file name stem for a token's clip (`shi` for 十), safe in URLs and sound names.
    public func fileStem(of token: Token) -> String {
        guard says(token) else { return token.rawValue }
        switch reading {
        case .chinese(let g): return g.fileStem(of: token)
        case .english(let g): return g.fileStem(of: token)
        case .hindi(let g): return g.fileStem(of: token)
        case .table(let g): return g.fileStem(of: token)
        }
    }

    /// The tokens some amount in `0...maximum` is read with (no prefix or suffix).
    ///
    /// A pack needs a clip for each of these; 亿 is not needed when `maxAmount` is below 10^8.
    public func reachableTokens(upTo maximum: Amount) -> Set<Token> {
        switch reading {
        case .chinese(let g): return g.reachableTokens(upTo: maximum)
        case .english(let g): return g.reachableTokens(upTo: maximum)
        case .hindi(let g): return g.reachableTokens(upTo: maximum)
        case .table(let g): return g.reachableTokens(upTo: maximum)
        }
    }

    /// The smallest amount in `0...maximum` whose reading says `token` (nil when none does): which
    /// amount first needs its clip.
    public func smallestAmount(saying token: Token, upTo maximum: Amount) -> Amount? {
        switch reading {
        case .chinese(let g): return g.smallestAmount(saying: token, upTo: maximum)
        case .english(let g): return g.smallestAmount(saying: token, upTo: maximum)
        case .hindi(let g): return g.smallestAmount(saying: token, upTo: maximum)
        case .table(let g): return g.smallestAmount(saying: token, upTo: maximum)
        }
    }

    /// The amount in `0...maximum` whose reading costs most, with `cost` per token (for example
    /// a clip's frames). Searches the reading's structure digit by digit, not every amount.
    public func costliestReading(upTo maximum: Amount, cost: (Token) -> Int64) -> (amount: Amount, tokens: [Token], cost: Int64) {
        let amount: Amount
        switch reading {
        case .chinese(let g): amount = g.costliestAmount(upTo: maximum, cost: cost)
        case .english(let g): amount = g.costliestAmount(upTo: maximum, cost: cost)
        case .hindi(let g): amount = g.costliestAmount(upTo: maximum, cost: cost)
        case .table(let g): amount = g.costliestAmount(upTo: maximum, cost: cost)
        }
        let tokens = self.tokens(for: amount)
        return (amount, tokens, tokens.reduce(0) { $0 + cost($1) })
    }
}

extension Grammar {
    /// The amount in `0...maximum` whose reading adds the heaviest distinct clip files to `given`
    /// (`ReadingGrammar.heaviestDistinctAmount`), with its reading and that weight.
    /// Only readings heavier than `threshold` are searched for (see there).
    public func heaviestDistinctReading(upTo maximum: Amount, clip: (Token) -> Int?, weights: [Int64], given: ClipSet, above threshold: Int64 = .min) -> (amount: Amount, tokens: [Token], weight: Int64) {
        let best: (amount: Amount, weight: Int64)
        switch reading {
        case .chinese(let g): best = g.heaviestDistinctAmount(upTo: maximum, clip: clip, weights: weights, given: given, above: threshold)
        case .english(let g): best = g.heaviestDistinctAmount(upTo: maximum, clip: clip, weights: weights, given: given, above: threshold)
        case .hindi(let g): best = g.heaviestDistinctAmount(upTo: maximum, clip: clip, weights: weights, given: given, above: threshold)
        case .table(let g): best = g.heaviestDistinctAmount(upTo: maximum, clip: clip, weights: weights, given: given, above: threshold)
        }
        return (best.amount, tokens(for: best.amount), best.weight)
    }
}

/// The options as one JSON object, every option written (`{"money":"yuan","tenStart":"shi","two":"er"}`),
/// as `show --format json` prints them; an option left out reads as its default.
extension GrammarOptions: Codable {
    private struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Name.self)
        for (name, value) in written { try container.encode(value, forKey: Name(stringValue: name)) }
    }

    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: Name.self)
        for name in Self.names {
            guard let value = try container.decodeIfPresent(String.self, forKey: Name(stringValue: name)) else { continue }
            guard set(name, value) else {
                throw DecodingError.dataCorruptedError(forKey: Name(stringValue: name), in: container, debugDescription: "'\(value)' is not a value of \(name)")
            }
        }
    }
}

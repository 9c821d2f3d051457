// A grammar read from its table (DESIGN §3b): how an app's SoundpackCore reads a pack whose
// grammar, or one of whose options, it has no code for. The table is the transducer itself, so the
// framework's searches (coverage, worst case, downloads) run over it as over any grammar.

/// A reading table as a `ReadingGrammar`: states are the table's numbers, a step is a lookup.
///
/// Built only from a table that `ReadingTable.check()` accepts, so every walk stays inside it and
/// every amount below the grammar limit is read by some start.
public struct TableGrammar: ReadingGrammar, Hashable {
    public let table: ReadingTable
    public let tokens: [Token]

    /// Checks `table` and names its tokens.
    public init(_ table: ReadingTable) throws(ReadingTable.Problem) {
        try table.check()
        self.table = table
        var tokens: [Token] = []
        for (index, key) in table.tokens.enumerated() {
            // check() proved every key representable, unique, and neither prefix nor suffix.
            guard let token = Token(tableKey: key, ordinal: Token.firstGrammarOrdinal + index) else { throw .badToken(key) }
            tokens.append(token)
        }
        self.tokens = tokens
    }

    public var start: Int { table.starts[0] }
    public var starts: [Int] { table.starts }

    /// The first start whose walk over `amount`'s digits ends accepting (the table's own rule).
    public func start(for amount: Amount) -> Int {
        let digits = ReadingDigits.of(amount)
        for start in table.starts where accepts(walk(from: start, digits)) { return start }
        return start
    }

    public func accepts(_ state: Int) -> Bool { table.accepting.contains(state) }

    public func step(_ state: inout Int, digit: Int, at position: Int, into tokens: inout [Token]) {
        guard table.steps.indices.contains(position), let row = table.steps[position][state], row.indices.contains(digit) else { return }
        let step = row[digit]
        for index in step.tokens where self.tokens.indices.contains(index) { tokens.append(self.tokens[index]) }
        state = step.next
    }

    private func walk(from start: Int, _ digits: [Int]) -> Int {
        var state = start
        var ignored: [Token] = []
        for (position, digit) in digits.enumerated() {
            step(&state, digit: digit, at: position, into: &ignored)
            ignored.removeAll(keepingCapacity: true)
        }
        return state
    }

    /// A table names its tokens by their clip keys only: a token is written as the pack's `texts`
    /// name it, else as its key.
    public func text(of token: Token) -> String { token.rawValue }
    public func text(of token: Token, texts: [String: String]) -> String { texts[token.rawValue] ?? token.rawValue }

    /// Words are joined by a space: the table does not say how its language writes them.
    public var separator: String { " " }

    /// A key that is a safe ASCII stem is its own; another is `token-N` by its index.
    public func fileStem(of token: Token) -> String {
        let key = token.rawValue
        let safe = key.utf8.allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-") }
        return safe ? key : "token-\(token.ordinal - Token.firstGrammarOrdinal)"
    }

    /// The amount in figures: the table does not name a currency.
    public func figures(_ amount: Amount) -> String { amount.description }

    public static func == (lhs: TableGrammar, rhs: TableGrammar) -> Bool { lhs.table == rhs.table }
    public func hash(into hasher: inout Hasher) { hasher.combine(table) }
}

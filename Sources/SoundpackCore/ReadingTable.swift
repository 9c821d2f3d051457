// The portable reading (DESIGN §3b): a grammar's transducer written out as data, so a player with
// no grammar code of its own (Android, HarmonyOS, an iOS app whose SoundpackCore predates the
// pack's grammar) reads amounts exactly as soundpack does. Built generically from any
// `ReadingGrammar` by the layered search the coverage analysis uses; read by `tokens(for:)`.

/// A grammar's reading as a table over an amount's 14 digits.
///
/// States are numbered; `steps[p]["s"][d]` is what digit `d` at position `p` says in state `s` and
/// the state it leads to. To read an amount: for each start in order, walk its 14 digits from that
/// start; the first walk that ends in an accepting state gives the reading.
public struct ReadingTable: Sendable, Hashable {
    /// One table entry: the state the digit leads to and the tokens it says (indices into `tokens`).
    public struct Step: Sendable, Hashable {
        public var next: Int
        public var tokens: [Int]

        public init(next: Int, tokens: [Int]) {
            self.next = next
            self.tokens = tokens
        }
    }

    /// The table format this type writes and reads.
    public static let currentFormat = 1

    public var format: Int
    /// The grammar id (`zh-Hans`).
    public var grammar: String
    /// The reading options the table was built for, as pack.json writes them (`two`: `er`).
    public var options: [String: String]
    /// How many digits an amount is read as (14), and how many of them are integer places (12).
    public var digits: Int
    public var integerDigits: Int
    /// The clip keys the steps say, by index.
    public var tokens: [String]
    /// The states a reading may start in, in the order they are tried.
    public var starts: [Int]
    /// The states a whole reading may end in.
    public var accepting: [Int]
    /// Per position, per state reachable there: the ten steps, for digits 0…9.
    public var steps: [[Int: [Step]]]

    /// A table as given (decoded, or built); `check()` says whether a player may read with it.
    public init(format: Int = ReadingTable.currentFormat, grammar: String, options: [String: String], digits: Int = ReadingDigits.count,
                integerDigits: Int = ReadingDigits.integerPlaces, tokens: [String], starts: [Int], accepting: [Int], steps: [[Int: [Step]]]) {
        (self.format, self.grammar, self.options, self.digits, self.integerDigits) = (format, grammar, options, digits, integerDigits)
        (self.tokens, self.starts, self.accepting, self.steps) = (tokens, starts, accepting, steps)
    }

    /// Why a table cannot be read with, as data.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// A format this reader does not know (a newer soundpack wrote it).
        case unknownFormat(Int)
        /// Not 14 digits with 12 integer places, or not one step list per digit.
        case wrongShape
        /// The step at (position, state, digit) is missing, or names a token or a state that is not there.
        case brokenStep(position: Int, state: Int, digit: Int)
        /// A start state has no steps at the first position.
        case unknownStart(Int)
        /// The table names no start state.
        case noStart
        /// A token key a clip cannot be named by: empty, over `Token.maxKeyBytes` bytes, holding a
        /// control character, written twice, or `prefix`/`suffix` (every announcement's, not a reading's).
        case badToken(String)
        /// No start reads this amount to an accepting state: the table does not cover every amount.
        case unreadAmount(Amount)
        /// The starts' walks branch into more combinations than a player follows (a table no grammar makes).
        case tooComplex

        public var description: String {
            switch self {
            case .unknownFormat(let format): return "reading table format \(format) is not one this player reads (it reads \(ReadingTable.currentFormat))"
            case .wrongShape: return "the reading table does not read 14 digits with 12 integer places, one step list per digit"
            case .brokenStep(let position, let state, let digit): return "the reading table's step for digit \(digit) in state \(state) at position \(position) is missing or points nowhere"
            case .unknownStart(let state): return "the reading table starts in state \(state), which has no steps"
            case .noStart: return "the reading table names no start state"
            case .badToken(let key): return "the reading table's token '\(key.quoted(limit: 40))' cannot name a clip (empty, over \(Token.maxKeyBytes) bytes, a control character, written twice, or prefix/suffix)"
            case .unreadAmount(let amount): return "no start of the reading table reads \(amount) to an accepting state; it does not cover every amount"
            case .tooComplex: return "the reading table's starts branch into more than \(ReadingTable.maxCombinations) combinations at one position, or more than \(ReadingTable.maxCoverageWork) states to follow in all"
            }
        }
    }

    /// Checks everything a walk relies on: the format, the shape, the tokens, and that every step of
    /// every state reachable from the starts exists and points at a token and a state that do. A
    /// walk through a table that passes never leaves it, and some start reads every amount below
    /// the grammar limit (`ReadingDigits`' 14 digits) to an accepting state.
    public func check() throws(Problem) {
        guard format == Self.currentFormat else { throw .unknownFormat(format) }
        guard digits == ReadingDigits.count, integerDigits == ReadingDigits.integerPlaces, steps.count == digits else { throw .wrongShape }
        try checkTokens()
        guard !starts.isEmpty else { throw .noStart }
        var layer = Set<Int>()
        for start in starts {
            guard steps[0][start] != nil else { throw .unknownStart(start) }
            layer.insert(start)
        }
        for position in 0..<digits {
            var next = Set<Int>()
            for state in layer.sorted() {
                guard let row = steps[position][state], row.count == 10 else { throw .brokenStep(position: position, state: state, digit: 0) }
                for (digit, step) in row.enumerated() {
                    let known = position + 1 == digits || steps[position + 1][step.next] != nil
                    guard known, step.tokens.allSatisfy({ tokens.indices.contains($0) }) else {
                        throw .brokenStep(position: position, state: state, digit: digit)
                    }
                    next.insert(step.next)
                }
            }
            layer = next
        }
        try checkCoverage()
    }

    /// The most combinations of the starts' states one position may hold in `check()`.
    public static let maxCombinations = 100_000
    /// The most states `check()` follows, over every combination, position and digit: what a phone
    /// spends on a table is bounded whatever its starts (soundpack's own follow about 100,000 at most).
    public static let maxCoverageWork = 2_000_000

    private func checkTokens() throws(Problem) {
        var seen = Set<String>()
        for key in tokens {
            guard Token(tableKey: key, ordinal: 0) != nil, key != Token.prefix.rawValue, key != Token.suffix.rawValue,
                  seen.insert(key).inserted else { throw .badToken(key) }
        }
    }

    /// Follows the starts together (the set of states their walks are in, after each digit string)
    /// and finds the smallest amount after whose digits none is accepting: one no start reads.
    /// Each layer lists its sets in the order of the smallest digit string reaching them.
    private func checkCoverage() throws(Problem) {
        // Per position, each set of states reached, with the index of the set and the digit it was first reached from.
        var parents: [[(from: Int, digit: Int)]] = []
        var layer: [[Int]] = [Array(Set(starts)).sorted()]
        var work = 0
        for position in 0..<digits {
            var reached: [[Int]] = [], index: [[Int]: Int] = [:], from: [(from: Int, digit: Int)] = []
            for (number, states) in layer.enumerated() {
                work += 10 * states.count
                guard work <= Self.maxCoverageWork else { throw .tooComplex }
                for digit in 0...9 {
                    let following = Array(Set(states.map { state in steps[position][state].map { $0[digit].next } ?? state })).sorted()
                    guard index[following] == nil else { continue }
                    index[following] = reached.count
                    reached.append(following)
                    from.append((number, digit))
                }
            }
            guard reached.count <= Self.maxCombinations else { throw .tooComplex }
            parents.append(from)
            layer = reached
        }
        guard var number = layer.firstIndex(where: { !$0.contains(where: accepting.contains) }) else { return }
        var minorUnits: Int64 = 0, scale: Int64 = 1
        for position in stride(from: digits - 1, through: 0, by: -1) {
            minorUnits += Int64(parents[position][number].digit) * scale
            scale *= 10
            number = parents[position][number].from
        }
        throw .unreadAmount(Amount(minorUnits: minorUnits))
    }

    /// The clip keys that read `amount` (no prefix or suffix), or nil when no start reads it (an
    /// amount of more than 14 digits, or a table that does not cover it). A table `check()` refuses
    /// may still read nothing, but never traps.
    public func tokens(for amount: Amount) -> [String]? {
        guard amount.minorUnits >= 0, amount.minorUnits < Amount.grammarLimit.minorUnits, digits == ReadingDigits.count, steps.count == digits else { return nil }
        let digitsOfAmount = ReadingDigits.of(amount)
        var said: [Int] = []
        for start in starts {
            said.removeAll(keepingCapacity: true)
            var state = start, walked = true
            for position in 0..<digits {
                guard let row = steps[position][state], row.indices.contains(digitsOfAmount[position]) else { walked = false; break }
                let step = row[digitsOfAmount[position]]
                said += step.tokens
                state = step.next
            }
            if walked && accepting.contains(state) && said.allSatisfy(tokens.indices.contains) { return said.map { tokens[$0] } }
        }
        return nil
    }
}

extension ReadingGrammar {
    /// This grammar's transducer as a table, minimal: the states reachable from `starts`, layer by
    /// layer over the 14 positions (the forward search `reachableTokens` makes, with every digit
    /// allowed); then, from the last position back, the states of a layer that say the same tokens
    /// for every digit and lead to equal states are merged (an accepting end and a rejecting one are
    /// never equal), so no two states of a position read every continuation alike. Each position's
    /// states are numbered from 0 in the order they are first reached (from the starts in order,
    /// then by state number and digit). Every walk says what the grammar's says and ends accepting
    /// when the grammar's does: only states are merged, never readings.
    func readingTable(id: GrammarID, options: [(name: String, value: String)]) -> ReadingTable {
        let tokenIndex = Dictionary(uniqueKeysWithValues: tokens.enumerated().map { ($1, $0) })
        // Forward: each layer's grammar states, and per state the ten (next state, tokens) steps.
        var layers: [[State]] = [Self.unique(starts)]
        var rows: [[State: [(next: State, tokens: [Int])]]] = []
        var buffer: [Token] = []
        for position in 0..<ReadingDigits.count {
            var layerRows: [State: [(next: State, tokens: [Int])]] = [:]
            var next: [State] = []
            for state in layers[position] {
                layerRows[state] = (0...9).map { digit in
                    var following = state
                    buffer.removeAll(keepingCapacity: true)
                    step(&following, digit: digit, at: position, into: &buffer)
                    next.append(following)
                    return (following, buffer.compactMap { tokenIndex[$0] })
                }
            }
            rows.append(layerRows)
            layers.append(Self.unique(next))
        }
        // Backward: the class of each state, per layer; at the end, accepted or not.
        var classes: [[State: Int]] = Array(repeating: [:], count: ReadingDigits.count + 1)
        for state in layers[ReadingDigits.count] { classes[ReadingDigits.count][state] = accepts(state) ? 1 : 0 }
        for position in stride(from: ReadingDigits.count - 1, through: 0, by: -1) {
            var signatures: [[Int]: Int] = [:]
            for state in layers[position] {
                let signature = rows[position][state]!.flatMap { [classes[position + 1][$0.next]!, $0.tokens.count] + $0.tokens }
                classes[position][state] = signatures[signature] ?? { signatures[signature] = signatures.count; return signatures.count - 1 }()
            }
        }
        return Self.numbered(rows: rows, layers: layers, classes: classes, accepting: layers[ReadingDigits.count].filter(accepts),
                             id: id, options: options, tokens: tokens.map(\.rawValue))
    }

    /// The merged table with each position's classes numbered in the order they are first reached.
    private static func numbered(rows: [[State: [(next: State, tokens: [Int])]]], layers: [[State]], classes: [[State: Int]], accepting: [State],
                                 id: GrammarID, options: [(name: String, value: String)], tokens: [String]) -> ReadingTable {
        var numbers = [[Int: Int]](repeating: [:], count: ReadingDigits.count + 1)  // class → number, per position
        func number(_ state: State, at position: Int) -> Int {
            let merged = classes[position][state]!
            if let known = numbers[position][merged] { return known }
            numbers[position][merged] = numbers[position].count
            return numbers[position].count - 1
        }
        let starts = unique(layers[0].map { number($0, at: 0) })
        var steps: [[Int: [ReadingTable.Step]]] = []
        for position in 0..<ReadingDigits.count {
            var written: [Int: [ReadingTable.Step]] = [:]
            for state in layers[position] {
                let here = number(state, at: position)
                guard written[here] == nil else { continue }
                written[here] = rows[position][state]!.map { ReadingTable.Step(next: number($0.next, at: position + 1), tokens: $0.tokens) }
            }
            steps.append(written)
        }
        return ReadingTable(grammar: id.rawValue, options: Dictionary(uniqueKeysWithValues: options.map { ($0.name, $0.value) }),
                            tokens: tokens, starts: starts, accepting: unique(accepting.map { number($0, at: ReadingDigits.count) }).sorted(),
                            steps: steps)
    }

    /// `items` without repeats, in the order first seen.
    private static func unique<T: Hashable>(_ items: [T]) -> [T] {
        var seen = Set<T>()
        return items.filter { seen.insert($0).inserted }
    }
}

extension ReadingTable.Step: Codable {
    /// `[next, [token, …]]`, as DESIGN §3b writes a step.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        next = try container.decode(Int.self)
        tokens = try container.decode([Int].self)
        guard container.isAtEnd else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a step is [next, [tokens]]")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(next)
        try container.encode(tokens)
    }
}

extension ReadingTable {
    /// What a table says it reads — its grammar and options — decoded without its steps: enough to
    /// tell whether a phone's own grammar code reads the same.
    public struct Header: Sendable, Equatable, Decodable {
        /// The grammar id, as `ReadingTable.grammar`.
        public var grammar: String
        /// The reading options, as `ReadingTable.options`.
        public var options: [String: String]
    }
}

extension ReadingTable: Codable {
    private enum CodingKeys: String, CodingKey {
        case format, grammar, options, digits, integerDigits, tokens, starts, accepting, steps
    }

    /// Decodes the JSON form; `steps` keys are states written as decimal strings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(Int.self, forKey: .format)
        grammar = try container.decode(String.self, forKey: .grammar)
        options = try container.decode([String: String].self, forKey: .options)
        digits = try container.decode(Int.self, forKey: .digits)
        integerDigits = try container.decode(Int.self, forKey: .integerDigits)
        tokens = try container.decode([String].self, forKey: .tokens)
        starts = try container.decode([Int].self, forKey: .starts)
        accepting = try container.decode([Int].self, forKey: .accepting)
        let written = try container.decode([[String: [Step]]].self, forKey: .steps)
        steps = try written.map { row in
            var states: [Int: [Step]] = [:]
            for (key, value) in row {
                guard let state = Int(key), String(state) == key else {
                    throw DecodingError.dataCorruptedError(forKey: .steps, in: container, debugDescription: "a state is a decimal number, not '\(key)'")
                }
                states[state] = value
            }
            return states
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(grammar, forKey: .grammar)
        try container.encode(options, forKey: .options)
        try container.encode(digits, forKey: .digits)
        try container.encode(integerDigits, forKey: .integerDigits)
        try container.encode(tokens, forKey: .tokens)
        try container.encode(starts, forKey: .starts)
        try container.encode(accepting, forKey: .accepting)
        try container.encode(steps.map { row in Dictionary(uniqueKeysWithValues: row.map { (String($0.key), $0.value) }) }, forKey: .steps)
    }
}

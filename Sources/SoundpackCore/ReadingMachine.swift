// The reading of an amount as a machine that consumes its 14 digits (12 integer, 2 fraction) one by one.
// The reader, the reachable-token analysis and the worst-case search all run this one machine.

struct ReadingMachine: Sendable {
    /// 12 integer places (up to 10^11) and 2 fraction places.
    static let positions = 14
    static let integerPositions = 12

    struct State: Hashable, Sendable {
        var position = 0
        /// A non-zero integer digit has been said.
        var started = false
        /// A zero was passed that earns one 零 before the next non-zero digit: a zero inside the
        /// current level, or a whole level of zeros. Zeros at the end of a level that said
        /// something are silent (DESIGN §4), so the level's end clears it.
        var pendingZero = false
        /// The current 4-digit group (units, 万, 亿) has a non-zero digit so far.
        var groupNonzero = false
        /// The first fraction digit, held until the second decides whether it is said.
        var tenths = 0
    }

    let two: TwoStyle

    private static let units: [Token?] = [nil, .ten, .hundred, .thousand]
    private static let groupUnits: [Token?] = [nil, .tenThousand, .hundredMillion]

    /// Consumes the digit at `state.position` and appends what it says.
    func step(_ state: inout State, digit: Int, into tokens: inout [Token]) {
        let position = state.position
        state.position += 1
        if position < Self.integerPositions {
            let place = Self.integerPositions - 1 - position
            let inGroup = place % 4, group = place / 4
            if digit != 0 {
                if state.pendingZero { tokens.append(.zero) }
                state.pendingZero = false
                if inGroup == 1 && digit == 1 && !state.started {
                    // 十 alone at the start: 10 → 十, 100000 → 十万.
                } else if digit == 2 && two == .liang
                            && (inGroup >= 2 || (inGroup == 0 && group > 0 && !state.groupNonzero)) {
                    tokens.append(.liang)
                } else {
                    tokens.append(Token.digits[digit])
                }
                if let unit = Self.units[inGroup] { tokens.append(unit) }
                state.started = true
                state.groupNonzero = true
            } else if state.started {
                state.pendingZero = true
            }
            if inGroup == 0 {
                if state.groupNonzero {
                    if let unit = Self.groupUnits[group] { tokens.append(unit) }
                    // 204000 → 二十万四千: the zero closing the 万 level is silent.
                    state.pendingZero = false
                }
                // A level of zeros keeps the 零 owed: 400005000 → 四亿零五千.
                state.groupNonzero = false
            }
        } else if position == Self.integerPositions {
            if !state.started { tokens.append(.zero) }
            state.tenths = digit
        } else {
            if state.tenths != 0 || digit != 0 {
                tokens.append(.point)
                tokens.append(Token.digits[state.tenths])
                if digit != 0 { tokens.append(Token.digits[digit]) }
            }
            tokens.append(.yuan)
        }
    }

    /// The 14 digits of an amount's minor units, most significant first.
    static func digits(of amount: Amount) -> [Int] {
        var digits = [Int](repeating: 0, count: positions)
        var rest = amount.minorUnits
        for position in stride(from: positions - 1, through: 0, by: -1) {
            digits[position] = Int(rest % 10)
            rest /= 10
        }
        return digits
    }

    private struct SearchKey: Hashable {
        var state: State
        var tight: Bool
    }

    /// Every token emitted on some path of amounts `0...maximum`.
    func reachableTokens(upTo maximum: Amount) -> Set<Token> {
        let bound = Self.digits(of: maximum)
        var frontier: Set<SearchKey> = [SearchKey(state: State(), tight: true)]
        var found = Set<Token>()
        var buffer: [Token] = []
        for position in 0..<Self.positions {
            var next = Set<SearchKey>()
            for key in frontier {
                let limit = key.tight ? bound[position] : 9
                for digit in 0...limit {
                    var state = key.state
                    buffer.removeAll(keepingCapacity: true)
                    step(&state, digit: digit, into: &buffer)
                    found.formUnion(buffer)
                    next.insert(SearchKey(state: state, tight: key.tight && digit == limit))
                }
            }
            frontier = next
        }
        return found
    }

    /// The amount in `0...maximum` with the greatest total cost of its reading; among equals, the
    /// largest amount. Dynamic programming over (position, machine state, tight-to-bound).
    func costliestAmount(upTo maximum: Amount, cost: (Token) -> Int64) -> Amount {
        let bound = Self.digits(of: maximum)
        var memo: [SearchKey: (cost: Int64, digit: Int)] = [:]
        var buffer: [Token] = []

        func best(_ key: SearchKey) -> Int64 {
            if key.state.position == Self.positions { return 0 }
            if let known = memo[key] { return known.cost }
            let limit = key.tight ? bound[key.state.position] : 9
            var bestCost = Int64.min, bestDigit = 0
            for digit in stride(from: limit, through: 0, by: -1) {
                var state = key.state
                buffer.removeAll(keepingCapacity: true)
                step(&state, digit: digit, into: &buffer)
                var here: Int64 = 0
                for token in buffer { here += cost(token) }
                let total = here + best(SearchKey(state: state, tight: key.tight && digit == limit))
                if total > bestCost { bestCost = total; bestDigit = digit }
            }
            memo[key] = (bestCost, bestDigit)
            return bestCost
        }

        var key = SearchKey(state: State(), tight: true)
        _ = best(key)
        var minorUnits: Int64 = 0
        var scratch: [Token] = []
        while key.state.position < Self.positions {
            guard let digit = memo[key]?.digit else { break }
            minorUnits = minorUnits * 10 + Int64(digit)
            let limit = key.tight ? bound[key.state.position] : 9
            step(&key.state, digit: digit, into: &scratch)
            key.tight = key.tight && digit == limit
        }
        return Amount(minorUnits: minorUnits)
    }
}

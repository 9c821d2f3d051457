// The grammar framework (DESIGN §4c): a grammar reads an amount as a transducer over its 14 digits,
// left to right, knowing how many remain; every analysis (coverage, worst case, enumeration) is
// written once here, over any grammar, never around one.

/// A language's reading of amounts: its tokens and a transducer over the amount's digits.
///
/// An amount is read as 14 decimal digits, most significant first: 12 integer places (below
/// 10^12, `Amount.grammarLimit`) and 2 fraction places. `step` consumes one digit and appends what
/// is said there; its `State` is everything the reading remembers of the digits before, so two
/// prefixes of digits that end in equal states read every continuation alike. That is what lets
/// the analyses below search the reading's structure instead of every amount.
public protocol ReadingGrammar: Sendable {
    associatedtype State: Hashable & Sendable

    /// The grammar's own tokens in listing order, with ordinals from `Token.firstGrammarOrdinal`
    /// (`prefix` and `suffix` are every announcement's, not a grammar's).
    var tokens: [Token] { get }
    /// The state before the first digit.
    var start: State { get }
    /// The state before the first digit of `amount`'s reading. A grammar that says first something
    /// the whole amount decides (en-IN: `rupee` or `rupees` before the number) guesses it here;
    /// `accepts` checks the guess at the end. Default: `start`.
    func start(for amount: Amount) -> State
    /// Every state a reading may start in, for the searches (default: `[start]`).
    var starts: [State] { get }
    /// Whether a reading that ends in `state` is an amount's (a guessed start proved right). Default: true.
    func accepts(_ state: State) -> Bool
    /// Consumes the digit at `position` (0…13; `ReadingDigits.integerPlaces` of them integer) and
    /// appends what is said there.
    func step(_ state: inout State, digit: Int, at position: Int, into tokens: inout [Token])
    /// The written form of one of the grammar's tokens (not `prefix` or `suffix`).
    func text(of token: Token) -> String
    /// The written form of a token, where the pack's `texts` may name it (en: `unit` → dollar).
    /// Default: `text(of:)`, whatever `texts` say.
    func text(of token: Token, texts: [String: String]) -> String
    /// What joins written words: nothing in Chinese (十五点四元), a space in English and Hindi.
    var separator: String { get }
    /// What joins the written `a` and `b` when `b` follows `a` (en: twenty-one). Default: `separator`.
    func separator(between a: Token, and b: Token) -> String
    /// How amount input groups its integer digits (en-IN and hi-IN also take 12,34,567.89).
    var grouping: DigitGrouping { get }
    /// An ASCII file name stem for a token's clip (`shi` for 十), safe in URLs and sound names.
    func fileStem(of token: Token) -> String
    /// An amount in figures with the grammar's currency, as an alert writes it (15.40元).
    func figures(_ amount: Amount) -> String
}

/// How amount input may group its integer digits with commas.
public enum DigitGrouping: Sendable {
    /// Thousands: 1,234,567.89.
    case thousands
    /// Thousands, or the Indian lakh and crore grouping: 12,34,567.89.
    case indian
}

/// The digits a grammar reads.
public enum ReadingDigits {
    /// 12 integer places (up to 10^11) and 2 fraction places.
    public static let count = 14
    public static let integerPlaces = 12

    /// The 14 digits of an amount's minor units, most significant first.
    public static func of(_ amount: Amount) -> [Int] {
        var digits = [Int](repeating: 0, count: count)
        var rest = amount.minorUnits
        for position in stride(from: count - 1, through: 0, by: -1) {
            digits[position] = Int(rest % 10)
            rest /= 10
        }
        return digits
    }
}

extension ReadingGrammar {
    public func start(for amount: Amount) -> State { start }
    public var starts: [State] { [start] }
    public func accepts(_ state: State) -> Bool { true }
    public func text(of token: Token, texts: [String: String]) -> String { text(of: token) }
    public var separator: String { "" }
    public func separator(between a: Token, and b: Token) -> String { separator }
    public var grouping: DigitGrouping { .thousands }

    /// Appends the reading of `amount` (no prefix or suffix): the allocation-free form.
    public func appendTokens(for amount: Amount, to tokens: inout [Token]) {
        var state = start(for: amount)
        var rest = amount.minorUnits
        var divisor: Int64 = 10_000_000_000_000  // 10^13: the first of 14 digits
        for position in 0..<ReadingDigits.count {
            let digit = Int(rest / divisor)
            rest -= Int64(digit) * divisor
            divisor /= 10
            step(&state, digit: digit, at: position, into: &tokens)
        }
    }

    /// The reading of `amount`, without prefix or suffix.
    public func tokens(for amount: Amount) -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity(24)
        appendTokens(for: amount, to: &tokens)
        return tokens
    }

    /// The grammar's token whose clip key is `key`, if it has one.
    public func token(forKey key: String) -> Token? {
        tokens.first { $0.rawValue == key }
    }
}

/// A state of the digit search: the grammar's state after some digits, and whether those digits
/// are still the maximum's own (so the next digit is bounded by the maximum's).
private struct SearchKey<State: Hashable>: Hashable {
    var state: State
    var tight: Bool
}

/// A key of the search for an amount that says a token: where the search is, and whether the
/// digits so far said the token.
private struct SaidKey<State: Hashable>: Hashable {
    var search: SearchKey<State>
    var said: Bool
}

extension ReadingGrammar {
    /// Every token some amount in `0...maximum` is read with: the clips a pack needs. A breadth
    /// search over (position, state, tight), so it costs the reading's structure, not 10^14 amounts.
    /// A search forward over the layers of (state, tight), then back from the accepted ends: only
    /// tokens on a path some amount reads are counted (a guessed start that proves wrong says nothing).
    public func reachableTokens(upTo maximum: Amount) -> Set<Token> {
        let bound = ReadingDigits.of(maximum)
        var buffer: [Token] = []
        // Each digit allowed after `key` at `position`: the key it leads to and the tokens it reads.
        func successors(of key: SearchKey<State>, at position: Int, _ body: (SearchKey<State>, [Token]) -> Void) {
            let limit = key.tight ? bound[position] : 9
            for digit in 0...limit {
                var state = key.state
                buffer.removeAll(keepingCapacity: true)
                step(&state, digit: digit, at: position, into: &buffer)
                body(SearchKey(state: state, tight: key.tight && digit == limit), buffer)
            }
        }
        var layers: [Set<SearchKey<State>>] = [Set(starts.map { SearchKey(state: $0, tight: true) })]
        for position in 0..<ReadingDigits.count {
            var next = Set<SearchKey<State>>()
            for key in layers[position] {
                successors(of: key, at: position) { following, _ in next.insert(following) }
            }
            layers.append(next)
        }
        var live = layers[ReadingDigits.count].filter { accepts($0.state) }
        var found = Set<Token>()
        for position in stride(from: ReadingDigits.count - 1, through: 0, by: -1) {
            var liveHere = Set<SearchKey<State>>()
            for key in layers[position] {
                successors(of: key, at: position) { following, tokens in
                    guard live.contains(following) else { return }
                    found.formUnion(tokens)
                    liveHere.insert(key)
                }
            }
            live = liveHere
        }
        return found
    }

    /// The smallest amount in `0...maximum` whose reading says `token`, or nil when none does: the
    /// amount that needs a clip first (a missing 百 is first heard at 100). Each start is searched
    /// digit by digit, smallest digit first, over (position, state, tight, said) with a memo of the
    /// branches that lead nowhere; a guessed start is kept only when the amount it finds reads so.
    public func smallestAmount(saying token: Token, upTo maximum: Amount) -> Amount? {
        let bound = ReadingDigits.of(maximum)
        // Per position, the keys from which no continuation ends accepted with `token` said.
        var deadEnds = [Set<SaidKey<State>>](repeating: [], count: ReadingDigits.count)
        var buffer: [Token] = []
        var digits: [Int] = []

        func search(_ key: SaidKey<State>, _ position: Int) -> Bool {
            if position == ReadingDigits.count { return key.said && accepts(key.search.state) }
            if deadEnds[position].contains(key) { return false }
            let limit = key.search.tight ? bound[position] : 9
            for digit in 0...limit {
                var state = key.search.state
                buffer.removeAll(keepingCapacity: true)
                step(&state, digit: digit, at: position, into: &buffer)
                let next = SaidKey(search: SearchKey(state: state, tight: key.search.tight && digit == limit), said: key.said || buffer.contains(token))
                digits.append(digit)
                if search(next, position + 1) { return true }
                digits.removeLast()
            }
            deadEnds[position].insert(key)
            return false
        }

        var smallest: Amount?
        for start in starts {
            for index in deadEnds.indices { deadEnds[index].removeAll(keepingCapacity: true) }
            digits.removeAll(keepingCapacity: true)
            guard search(SaidKey(search: SearchKey(state: start, tight: true), said: false), 0) else { continue }
            let amount = Amount(minorUnits: digits.reduce(Int64(0)) { $0 * 10 + Int64($1) })
            guard tokens(for: amount).contains(token) else { continue }
            if smallest.map({ amount.minorUnits < $0.minorUnits }) ?? true { smallest = amount }
        }
        return smallest
    }

    /// The amount in `0...maximum` with the greatest total `cost` of its reading; among equals,
    /// the largest. Dynamic programming over (position, state, tight).
    public func costliestAmount(upTo maximum: Amount, cost: (Token) -> Int64) -> Amount {
        let bound = ReadingDigits.of(maximum)
        // One memo per position: the state alone does not say how many digits remain.
        var memo = [[SearchKey<State>: (cost: Int64, digit: Int)]](repeating: [:], count: ReadingDigits.count)
        var buffer: [Token] = []

        // nil: no amount continues from here (every end is a guess proved wrong).
        func best(_ key: SearchKey<State>, _ position: Int) -> Int64? {
            if position == ReadingDigits.count { return accepts(key.state) ? 0 : nil }
            if let known = memo[position][key] { return known.digit < 0 ? nil : known.cost }
            let limit = key.tight ? bound[position] : 9
            var bestCost = Int64.min, bestDigit = -1
            for digit in stride(from: limit, through: 0, by: -1) {
                var state = key.state
                buffer.removeAll(keepingCapacity: true)
                step(&state, digit: digit, at: position, into: &buffer)
                var here: Int64 = 0
                for token in buffer { here += cost(token) }
                guard let rest = best(SearchKey(state: state, tight: key.tight && digit == limit), position + 1) else { continue }
                if here + rest > bestCost { bestCost = here + rest; bestDigit = digit }
            }
            memo[position][key] = (bestCost, bestDigit)
            return bestDigit < 0 ? nil : bestCost
        }

        // The start whose best reading costs most; among equals, the first.
        var key = SearchKey(state: start, tight: true)
        var top: Int64?
        for state in starts {
            let candidate = SearchKey(state: state, tight: true)
            if let cost = best(candidate, 0), top.map({ cost > $0 }) ?? true { (key, top) = (candidate, cost) }
        }
        var minorUnits: Int64 = 0
        var scratch: [Token] = []
        for position in 0..<ReadingDigits.count {
            guard let digit = memo[position][key]?.digit, digit >= 0 else { break }
            minorUnits = minorUnits * 10 + Int64(digit)
            let limit = key.tight ? bound[position] : 9
            step(&key.state, digit: digit, at: position, into: &scratch)
            key.tight = key.tight && digit == limit
        }
        return Amount(minorUnits: minorUnits)
    }
}

/// A set of a pack's clip files by index: what one announcement downloads, each file once.
public struct ClipSet: Hashable, Sendable {
    private var words: [UInt64]

    public init(capacity: Int) { words = [UInt64](repeating: 0, count: (capacity + 63) / 64) }

    public func contains(_ clip: Int) -> Bool { words[clip >> 6] & (1 << UInt64(clip & 63)) != 0 }

    public mutating func formUnion(_ other: ClipSet) {
        for index in words.indices { words[index] |= other.words[index] }
    }

    /// Adds `clip`; true when it was not in the set.
    @discardableResult
    public mutating func insert(_ clip: Int) -> Bool {
        let bit: UInt64 = 1 << UInt64(clip & 63)
        guard words[clip >> 6] & bit == 0 else { return false }
        words[clip >> 6] |= bit
        return true
    }
}

/// A node of the heaviest-download search: the digit search's key and the clips said so far.
private struct DownloadKey<State: Hashable>: Hashable {
    var position: Int
    var key: SearchKey<State>
    var said: ClipSet
}

/// The files by weight, heaviest first (the lower index among equals): how much the files not yet
/// said could still add, a bound of the heaviest-download search.
private struct UnsaidFiles {
    let weights: [Int64]
    let heaviestFirst: [Int]

    init(weights: [Int64]) {
        self.weights = weights
        heaviestFirst = weights.indices.sorted { (weights[$0], $1) > (weights[$1], $0) }
    }

    /// The most `rest` can add to the files in `said`: its heaviest rest counting every occurrence,
    /// or its heaviest `count` files not in `said`, whichever is less.
    func mostAdded(by rest: DownloadRest, to said: ClipSet) -> Int64 {
        min(rest.weight, heaviest(rest.count, of: rest.files, notIn: said))
    }

    /// The heaviest `count` files of `reachable` not in `said`.
    func heaviest(_ count: Int, of reachable: ClipSet, notIn said: ClipSet) -> Int64 {
        var total: Int64 = 0, taken = 0
        for c in heaviestFirst where taken < count && reachable.contains(c) && !said.contains(c) {
            total += weights[c]
            taken += 1
        }
        return total
    }
}

/// What can still come after a node of the heaviest-download search: the heaviest rest counting every
/// occurrence, the most tokens it says, and every file it can say.
private struct DownloadRest {
    var weight: Int64
    var count: Int
    var files: ClipSet
}

extension ReadingGrammar {
    /// The amount in `0...maximum` whose reading plays the heaviest set of distinct clip files, each
    /// counted once however often it is said (a phone downloads a file once): `clip` gives a token's
    /// file (tokens sharing a file share one; nil for none), `weights` each file's weight, `given`
    /// the files counted before the reading (a phrase's own); the weight returned is what the reading
    /// adds to them. Among equals, the largest amount.
    ///
    /// A weight of distinct files is not a sum along the digits, so the dynamic program of
    /// `costliestAmount` does not apply. This is an exact branch and bound over the same
    /// (position, state, tight) structure: digits are tried from 9 down, and a branch is cut when
    /// what it has plus the most it could still add (the heaviest reading of the remaining digits
    /// counting every occurrence, and the heaviest files not yet said, as many as the remaining
    /// digits can say at most) cannot beat the best found. It starts from the costliest reading by
    /// occurrences, so in practice it visits a few thousand nodes.
    ///
    /// `threshold`: only readings heavier than it matter (a rule asks "does any announcement weigh
    /// more than the limit?"), so branches that cannot beat it are cut too; when none beats it, the
    /// weight returned is at most `threshold` and the amount is not one that weighs it.
    public func heaviestDistinctAmount(upTo maximum: Amount, clip: (Token) -> Int?, weights: [Int64], given: ClipSet, above threshold: Int64 = .min) -> (amount: Amount, weight: Int64) {
        let bound = ReadingDigits.of(maximum)
        var buffer: [Token] = []
        func distinctWeight(of tokens: [Token], adding said: inout ClipSet) -> Int64 {
            var total: Int64 = 0
            for token in tokens { if let c = clip(token), said.insert(c) { total += weights[c] } }
            return total
        }
        let rest = downloadRests(layers: searchLayers(bound: bound), bound: bound, clip: clip, weights: weights)
        let unsaid = UnsaidFiles(weights: weights)
        // The costliest reading by occurrences is a reading; its distinct weight is a floor to beat or meet.
        var seed = given
        let floor = distinctWeight(of: tokens(for: costliestAmount(upTo: maximum) { token in clip(token).map { weights[$0] } ?? 0 }), adding: &seed)
        // So is a greedy dive that takes at each digit the branch of the highest bound: often the answer.
        func dive(from start: State) -> Int64? {
            var key = SearchKey(state: start, tight: true), said = given, weight: Int64 = 0
            for position in 0..<ReadingDigits.count {
                var chosen: (bound: Int64, key: SearchKey<State>, said: ClipSet, weight: Int64)?
                for digit in stride(from: key.tight ? bound[position] : 9, through: 0, by: -1) {
                    var state = key.state
                    buffer.removeAll(keepingCapacity: true)
                    step(&state, digit: digit, at: position, into: &buffer)
                    let next = SearchKey(state: state, tight: key.tight && digit == bound[position])
                    guard let most = rest[position + 1][next] else { continue }
                    var nextSaid = said
                    let nextWeight = weight + distinctWeight(of: buffer, adding: &nextSaid)
                    let ceiling = nextWeight + unsaid.mostAdded(by: most, to: nextSaid)
                    if chosen.map({ ceiling > $0.bound }) ?? true { chosen = (ceiling, next, nextSaid, nextWeight) }
                }
                guard let chosen else { return nil }
                (key, said, weight) = (chosen.key, chosen.said, chosen.weight)
            }
            return weight
        }
        let dived = starts.compactMap(dive).max() ?? floor
        var best: (weight: Int64, digits: [Int]?) = (max(max(floor, dived) - 1, threshold), nil)
        var digits = [Int](repeating: 0, count: ReadingDigits.count)
        var visited = Set<DownloadKey<State>>()
        func search(_ key: SearchKey<State>, _ position: Int, _ said: ClipSet, _ weight: Int64) {
            guard let most = rest[position][key] else { return }
            if position == ReadingDigits.count {
                if weight > best.weight { best = (weight, digits) }
                return
            }
            guard weight + unsaid.mostAdded(by: most, to: said) > best.weight,
                  visited.insert(DownloadKey(position: position, key: key, said: said)).inserted else { return }
            let limit = key.tight ? bound[position] : 9
            for digit in stride(from: limit, through: 0, by: -1) {
                var state = key.state
                buffer.removeAll(keepingCapacity: true)
                step(&state, digit: digit, at: position, into: &buffer)
                var next = said
                let added = distinctWeight(of: buffer, adding: &next)
                digits[position] = digit
                search(SearchKey(state: state, tight: key.tight && digit == limit), position + 1, next, weight + added)
            }
        }
        for state in starts { search(SearchKey(state: state, tight: true), 0, given, 0) }
        return (Amount(minorUnits: (best.digits ?? []).reduce(Int64(0)) { $0 * 10 + Int64($1) }), best.weight)
    }

    /// Forward: every key of the search reachable at each position, from the starts to the end.
    private func searchLayers(bound: [Int]) -> [Set<SearchKey<State>>] {
        var buffer: [Token] = []
        var layers: [Set<SearchKey<State>>] = [Set(starts.map { SearchKey(state: $0, tight: true) })]
        for position in 0..<ReadingDigits.count {
            var next = Set<SearchKey<State>>()
            for key in layers[position] {
                for digit in 0...(key.tight ? bound[position] : 9) {
                    var state = key.state
                    buffer.removeAll(keepingCapacity: true)
                    step(&state, digit: digit, at: position, into: &buffer)
                    next.insert(SearchKey(state: state, tight: key.tight && digit == bound[position]))
                }
            }
            layers.append(next)
        }
        return layers
    }

    /// Backward: from each key, the heaviest rest of a reading counting every occurrence, the most
    /// tokens it can say, and the files it can say at all; absent when no accepted reading
    /// continues from the key.
    private func downloadRests(
        layers: [Set<SearchKey<State>>], bound: [Int], clip: (Token) -> Int?, weights: [Int64]
    ) -> [[SearchKey<State>: DownloadRest]] {
        var buffer: [Token] = []
        var rest = [[SearchKey<State>: DownloadRest]](repeating: [:], count: ReadingDigits.count + 1)
        for key in layers[ReadingDigits.count] where accepts(key.state) {
            rest[ReadingDigits.count][key] = DownloadRest(weight: 0, count: 0, files: ClipSet(capacity: weights.count))
        }
        for position in stride(from: ReadingDigits.count - 1, through: 0, by: -1) {
            for key in layers[position] {
                var best: DownloadRest?
                for digit in 0...(key.tight ? bound[position] : 9) {
                    var state = key.state
                    buffer.removeAll(keepingCapacity: true)
                    step(&state, digit: digit, at: position, into: &buffer)
                    guard let after = rest[position + 1][SearchKey(state: state, tight: key.tight && digit == bound[position])] else { continue }
                    var here: Int64 = 0, files = after.files
                    for token in buffer { if let c = clip(token) { here += weights[c]; files.insert(c) } }
                    guard var known = best else { best = DownloadRest(weight: here + after.weight, count: buffer.count + after.count, files: files); continue }
                    known.weight = max(known.weight, here + after.weight)
                    known.count = max(known.count, buffer.count + after.count)
                    known.files.formUnion(files)
                    best = known
                }
                if let best { rest[position][key] = best }
            }
        }
        return rest
    }
}

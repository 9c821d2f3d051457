// The worst-case search and reachable tokens, checked against brute force over every amount.

import Testing
@testable import SoundpackCore

@Suite struct WorstCaseTests {
    static func bruteForce(_ grammar: Grammar, upTo maximum: Amount, cost: (Token) -> Int64) -> (Int64, Set<Token>) {
        var best: Int64 = .min
        var seen = Set<Token>()
        for minor in 0...maximum.minorUnits {
            let tokens = grammar.tokens(for: Amount(minorUnits: minor))
            seen.formUnion(tokens)
            best = max(best, tokens.reduce(0) { $0 + cost($1) })
        }
        return (best, seen)
    }

    @Test(arguments: [("2345.67", 1 as UInt64), ("99.99", 2), ("10200.5", 3), ("0.09", 4), ("2000", 5), ("1001.01", 6)])
    func searchMatchesBruteForce(_ maxText: String, _ seed: UInt64) throws {
        let maximum = try Amount(parsing: maxText)
        var rng = SplitMix64(seed: seed)
        var costs: [Token: Int64] = [:]
        for token in Token.allCases { costs[token] = Int64(rng.next() % 9000) + 1000 }
        for two in [TwoStyle.er, .liang] {  // every option combination: GrammarOptionsTests
            let grammar = Grammar(.zhHans, two: two)
            let (expected, reachable) = Self.bruteForce(grammar, upTo: maximum) { costs[$0] ?? 0 }
            let found = grammar.costliestReading(upTo: maximum) { costs[$0] ?? 0 }
            #expect(found.cost == expected)
            #expect(found.amount <= maximum)
            #expect(grammar.tokens(for: found.amount).reduce(0) { $0 + (costs[$1] ?? 0) } == expected)
            #expect(grammar.reachableTokens(upTo: maximum) == reachable)
        }
    }

    /// Limits above 10^5, where a 万 level can end in a silent zero (204000 → 二十万四千), are too
    /// many amounts to enumerate with their fractions; the reading is integer part + fraction part,
    /// so every whole amount is enumerated and the best fraction added to each.
    @Test(arguments: [("210000.37", 11 as UInt64), ("1002000", 12), ("404000.5", 13)])
    func searchMatchesWholeAmountEnumeration(_ maxText: String, _ seed: UInt64) throws {
        let maximum = try Amount(parsing: maxText)
        var rng = SplitMix64(seed: seed)
        var costs: [Token: Int64] = [:]
        for token in Token.allCases { costs[token] = Int64(rng.next() % 9000) + 1000 }
        func cost(_ tokens: [Token]) -> Int64 { tokens.reduce(0) { $0 + (costs[$1] ?? 0) } }
        for two in [TwoStyle.er, .liang] {  // every option combination: GrammarOptionsTests
            let grammar = Grammar(.zhHans, two: two)
            // What a fraction adds to a reading: 零点零五元 against 零元.
            let base = cost(grammar.tokens(for: Amount(minorUnits: 0)))
            let fractionExtra = (0..<100).map { cost(grammar.tokens(for: Amount(minorUnits: Int64($0)))) - base }
            let lastWhole = maximum.minorUnits / 100, lastFraction = Int(maximum.minorUnits % 100)
            let bestAnyFraction = fractionExtra.max() ?? 0
            let bestLastFraction = fractionExtra[0...lastFraction].max() ?? 0
            var expected = Int64.min
            var reachable = Set<Token>()
            for whole in 0...lastWhole {
                let tokens = grammar.tokens(for: Amount(minorUnits: whole * 100))
                reachable.formUnion(tokens)
                expected = max(expected, cost(tokens) + (whole == lastWhole ? bestLastFraction : bestAnyFraction))
            }
            let fractions = lastWhole == 0 ? 0...lastFraction : 0...99
            for fraction in fractions { reachable.formUnion(grammar.tokens(for: Amount(minorUnits: Int64(fraction)))) }
            let found = grammar.costliestReading(upTo: maximum) { costs[$0] ?? 0 }
            #expect(found.cost == expected)
            #expect(found.amount <= maximum)
            #expect(grammar.reachableTokens(upTo: maximum) == reachable)
        }
    }

    @Test func largestLimitIsSearchedWithoutEnumeration() throws {
        let grammar = Grammar(.zhHans)
        let found = grammar.costliestReading(upTo: try Amount(parsing: "999999999999.99")) { _ in 1 }
        // With unit costs the longest reading is every place non-zero: 8 + 8 + 7 integer tokens, 点 and two
        // decimals, 元. A 零 never makes a reading longer, because it replaces at least one digit and unit.
        #expect(found.cost == 27)
        #expect(found.cost == grammar.tokens(for: try Amount(parsing: "999999999999.99")).count)
    }

    @Test func reachableTokensFollowMaxAmount() throws {
        let hans = Grammar(.zhHans)
        #expect(!hans.reachableTokens(upTo: try Amount(parsing: "99999999.99")).contains(.hundredMillion))
        #expect(hans.reachableTokens(upTo: try Amount(parsing: "100000000")).contains(.hundredMillion))
        #expect(!hans.reachableTokens(upTo: try Amount(parsing: "9999")).contains(.tenThousand))
        #expect(!hans.reachableTokens(upTo: try Amount(parsing: "9999")).contains(.liang))
        #expect(Grammar(.zhHans, two: .liang).reachableTokens(upTo: try Amount(parsing: "200")).contains(.liang))
        #expect(!Grammar(.zhHans, two: .liang).reachableTokens(upTo: try Amount(parsing: "199.99")).contains(.liang))
    }
}

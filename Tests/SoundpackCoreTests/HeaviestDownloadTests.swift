// The heaviest-download search (distinct clip files per announcement), checked against brute force.

import Testing
@testable import SoundpackCore

@Suite struct HeaviestDownloadTests {
    /// The distinct files of `tokens` beyond `given`, and their weight.
    static func distinctWeight(_ tokens: [Token], clip: (Token) -> Int?, weights: [Int64], given: Set<Int> = []) -> Int64 {
        Set(tokens.compactMap(clip)).subtracting(given).reduce(0) { $0 + weights[$1] }
    }

    /// Every token its own file, except `二`/`2`-like pairs: tokens `a` and `b` share one file (two keys, one recording).
    static func files(_ grammar: Grammar, seed: UInt64, sharing: Bool) -> (clip: [Token: Int], weights: [Int64]) {
        var rng = SplitMix64(seed: seed)
        var clip: [Token: Int] = [:], weights: [Int64] = []
        for token in grammar.inventory {
            clip[token] = weights.count
            weights.append(Int64(rng.next() % 60_000) + 4_000)
        }
        if sharing, grammar.inventory.count > 6 { clip[grammar.inventory[5]] = clip[grammar.inventory[4]] }
        return (clip, weights)
    }

    @Test(arguments: [(GrammarID.zhHans, "2345.67", 1 as UInt64), (.zhHans, "1020.05", 2), (.zhHans, "99.99", 3),
                      (.enUS, "1234.56", 4), (.enIN, "123.45", 5), (.hiIN, "2345.67", 6)])
    func searchMatchesBruteForce(_ id: GrammarID, _ maxText: String, _ seed: UInt64) throws {
        let maximum = try Amount(parsing: maxText), grammar = Grammar(id)
        for sharing in [false, true] {
            let (clip, weights) = Self.files(grammar, seed: seed, sharing: sharing)
            var expected: (weight: Int64, amount: Int64) = (.min, 0)
            for minor in 0...maximum.minorUnits {
                let weight = Self.distinctWeight(grammar.tokens(for: Amount(minorUnits: minor)), clip: { clip[$0] }, weights: weights)
                if weight >= expected.weight { expected = (weight, minor) }  // among equals the largest
            }
            let found = grammar.heaviestDistinctReading(upTo: maximum, clip: { clip[$0] }, weights: weights, given: ClipSet(capacity: weights.count))
            #expect(found.weight == expected.weight, "\(id) \(maxText) sharing \(sharing)")
            #expect(found.amount == Amount(minorUnits: expected.amount), "\(id) \(maxText) sharing \(sharing)")
            #expect(found.tokens == grammar.tokens(for: found.amount))
        }
    }

    /// Counting occurrences would pick 33333333.33 (every 3 said many times); the download counts
    /// each file once, so the heaviest download says many different digits.
    @Test func aFileSaidTwiceIsDownloadedOnce() throws {
        let grammar = Grammar(.zhHans), maximum = try Amount(parsing: "99999999.99")
        var clip: [Token: Int] = [:], weights: [Int64] = []
        for token in grammar.inventory {
            clip[token] = weights.count
            weights.append(token.rawValue == "3" ? 50_000 : 40_000)
        }
        let found = grammar.heaviestDistinctReading(upTo: maximum, clip: { clip[$0] }, weights: weights, given: ClipSet(capacity: weights.count))
        let byOccurrence = grammar.costliestReading(upTo: maximum) { weights[clip[$0]!] }
        #expect(found.weight == Self.distinctWeight(found.tokens, clip: { clip[$0] }, weights: weights))
        #expect(found.weight > Self.distinctWeight(byOccurrence.tokens, clip: { clip[$0] }, weights: weights))
        // Every token up to 99999999.99 but 亿, 两 and the framing ones can be said in one amount.
        let reachable = grammar.reachableTokens(upTo: maximum)
        #expect(found.weight == reachable.reduce(0) { $0 + weights[clip[$1]!] })
    }

    /// The phrase's own clips are counted once, and a reading token sharing their file adds nothing.
    @Test func phraseClipsAreGiven() throws {
        let grammar = Grammar(.zhHans), maximum = try Amount(parsing: "99.99")
        let book = Phrasebook(grammar: grammar, hasSuffix: false)
        var clip: [Token: Int] = [:], weights: [Int64] = []
        for token in grammar.inventory {
            clip[token] = weights.count
            weights.append(1_000)
        }
        clip[Token.prefix] = clip[grammar.inventory.first { $0.rawValue == "9" }!]  // prefix and 9: one file
        let found = book.heaviestDownload(upTo: maximum, clip: { clip[$0] }, weights: weights)
        #expect(found.tokens.first == .prefix)
        #expect(found.weight == Self.distinctWeight(found.tokens, clip: { clip[$0] }, weights: weights))
        var expected: Int64 = 0
        for minor in 0...maximum.minorUnits {
            expected = max(expected, Self.distinctWeight([.prefix] + grammar.tokens(for: Amount(minorUnits: minor)), clip: { clip[$0] }, weights: weights))
        }
        #expect(found.weight == expected)
    }

    /// With a threshold (the rule's limit), the answer is the same exact one when the heaviest is
    /// above it, and at most the threshold when nothing is: the cut never hides a heavier reading.
    @Test(arguments: [(GrammarID.zhHans, "2345.67", 7 as UInt64), (.enUS, "1234.56", 8), (.hiIN, "2345.67", 9)])
    func aThresholdCutsOnlyWhatCannotBeatIt(_ id: GrammarID, _ maxText: String, _ seed: UInt64) throws {
        let maximum = try Amount(parsing: maxText), grammar = Grammar(id)
        let (clip, weights) = Self.files(grammar, seed: seed, sharing: true)
        let none = ClipSet(capacity: weights.count)
        let exact = grammar.heaviestDistinctReading(upTo: maximum, clip: { clip[$0] }, weights: weights, given: none)
        for threshold in [exact.weight - 1, exact.weight / 2, Int64(0)] {
            let cut = grammar.heaviestDistinctReading(upTo: maximum, clip: { clip[$0] }, weights: weights, given: none, above: threshold)
            #expect(cut.weight == exact.weight && cut.amount == exact.amount, "\(id) above \(threshold)")
        }
        for threshold in [exact.weight, exact.weight + 1, exact.weight * 2] {
            let cut = grammar.heaviestDistinctReading(upTo: maximum, clip: { clip[$0] }, weights: weights, given: none, above: threshold)
            #expect(cut.weight <= threshold, "\(id) above \(threshold)")
        }
    }
}

// The zh reading options of DESIGN §4a: every example as written there, the grammar against the
// level-rule reference for every combination, and the generic analyses (coverage, worst case)
// against enumeration for every combination.

import Testing
@testable import SoundpackCore

@Suite struct GrammarOptionsTests {
    /// Every combination of the options.
    static let combinations: [GrammarOptions] = TwoStyle.allCases.flatMap { two in
        MoneyStyle.allCases.flatMap { money in TenStart.allCases.map { GrammarOptions(two: two, money: money, tenStart: $0) } }
    }

    static func read(_ amount: String, _ options: GrammarOptions) throws -> String {
        let grammar = Grammar(.zhHans, options: options)
        return grammar.text(of: grammar.tokens(for: try Amount(parsing: amount)))
    }

    @Test(arguments: [
        ("200", "二百元"), ("2000", "两千元"), ("2200", "两千二百元"), ("22222", "两万两千二百二十二元"), ("200000000", "两亿元"),
        ("2", "二元"), ("12", "十二元"), ("20000", "两万元"), ("120000", "十二万元"), ("2220000", "二百二十二万元"),
        ("22000000", "两千二百万元"), ("202000", "二十万两千元"),
    ])
    func twoLiangLarge(_ amount: String, _ expected: String) throws {
        #expect(try Self.read(amount, GrammarOptions(two: .liangLarge)) == expected)
    }

    @Test(arguments: [
        ("15.40", "十五元四角"), ("15.45", "十五元四角五分"), ("15.05", "十五元零五分"), ("15.00", "十五元"), ("10.50", "十元五角"),
        ("0.40", "四角"), ("0.05", "五分"), ("0.45", "四角五分"), ("0", "零元"), ("100.05", "一百元零五分"),
    ])
    func moneyJiaoFen(_ amount: String, _ expected: String) throws {
        #expect(try Self.read(amount, GrammarOptions(money: .jiaoFen)) == expected)
    }

    @Test(arguments: [
        ("15.40", "十五块四毛"), ("15.45", "十五块四毛五"), ("15.05", "十五块零五分"), ("15.00", "十五块"), ("0.40", "四毛"),
        ("0.05", "五分"), ("0.45", "四毛五"), ("0", "零块"), ("8.50", "八块五毛"),
    ])
    func moneyKuaiMao(_ amount: String, _ expected: String) throws {
        #expect(try Self.read(amount, GrammarOptions(money: .kuaiMao)) == expected)
    }

    @Test(arguments: [
        ("10", "一十元"), ("12", "一十二元"), ("100000", "一十万元"), ("110000", "一十一万元"), ("110", "一百一十元"),
        ("10010", "一万零一十元"),
    ])
    func tenStartYiShi(_ amount: String, _ expected: String) throws {
        #expect(try Self.read(amount, GrammarOptions(tenStart: .yiShi)) == expected)
    }

    @Test func optionsCombine() throws {
        let all = GrammarOptions(two: .liangLarge, money: .kuaiMao, tenStart: .yiShi)
        #expect(try Self.read("12222.45", all) == "一万两千二百二十二块四毛五")
        #expect(try Self.read("100000.05", all) == "一十万块零五分")
        #expect(Grammar(.zhHant, options: all).text(of: Grammar(.zhHant, options: all).tokens(for: try Amount(parsing: "20000"))) == "兩萬塊")
    }

    /// The grammar against the reference on every amount 0.00 … 200.99, every whole amount to
    /// 30,000, and random zero-heavy amounts to the grammar limit, for every combination.
    @Test(arguments: combinations)
    func agreesWithTheReference(_ options: GrammarOptions) {
        let grammar = Grammar(.zhHans, options: options)
        var tokens: [Token] = []
        var mismatches: [String] = []
        func check(_ minor: Int64) {
            tokens.removeAll(keepingCapacity: true)
            grammar.appendTokens(for: Amount(minorUnits: minor), to: &tokens)
            let mine = grammar.text(of: tokens), reference = LevelReadingReference.read(minorUnits: minor, options: options)
            if mine != reference, mismatches.count < 10 { mismatches.append("\(Amount(minorUnits: minor)): \(mine) ≠ \(reference)") }
        }
        for minor in Int64(0)...20_099 { check(minor) }
        for whole in Int64(0)...30_000 { check(whole * 100) }
        var rng = SplitMix64(seed: UInt64(Self.combinations.firstIndex(of: options) ?? 0) + 0xA11)
        func level() -> Int64 {
            switch rng.next() % 5 {
            case 0, 1: return 0
            case 2: return Int64(rng.next() % 10) * [1, 10, 100, 1000][Int(rng.next() % 4)]
            case 3: return 2 * [1, 10, 100, 1000, 1001, 1100][Int(rng.next() % 6)]
            default: return Int64(rng.next() % 10_000)
            }
        }
        for _ in 0..<20_000 {
            check((level() * 100_000_000 + level() * 10_000 + level()) * 100 + Int64(rng.next() % 100))
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    /// Reads amounts one by one, costing each reading and collecting its tokens, with tables by
    /// ordinal (hashing every token of millions of readings would be most of the test's time).
    struct Enumeration {
        let grammar: Grammar
        let costs: [Int64]
        var seen: UInt64 = 0
        private var buffer: [Token] = []

        init(_ grammar: Grammar, seed: UInt64) {
            self.grammar = grammar
            var rng = SplitMix64(seed: seed)
            costs = grammar.inventory.map { _ in Int64(rng.next() % 9000) + 1000 }
        }

        func cost(_ token: Token) -> Int64 { costs[token.ordinal] }

        /// The cost of the reading of `minor`; its tokens join `seen` when `collect` says so.
        mutating func cost(_ minor: Int64, collect: Bool = true) -> Int64 {
            buffer.removeAll(keepingCapacity: true)
            grammar.appendTokens(for: Amount(minorUnits: minor), to: &buffer)
            var total: Int64 = 0
            for token in buffer {
                total += costs[token.ordinal]
                if collect { seen |= 1 << UInt64(token.ordinal) }
            }
            return total
        }

        var seenTokens: Set<Token> { Set(grammar.inventory.filter { seen & (1 << UInt64($0.ordinal)) != 0 }) }
    }

    /// Small limits: every amount (fractions included) is enumerated.
    @Test(arguments: combinations)
    func worstCaseAndCoverageAgreeWithEveryAmount(_ options: GrammarOptions) throws {
        let grammar = Grammar(.zhHans, options: options)
        for (index, maxText) in ["245.67", "0.09", "2000", "1001.01", "110.55"].enumerated() {
            let maximum = try Amount(parsing: maxText)
            var enumeration = Enumeration(grammar, seed: UInt64(index) + 7)
            var best = Int64.min
            for minor in 0...maximum.minorUnits { best = max(best, enumeration.cost(minor)) }
            let found = grammar.costliestReading(upTo: maximum, cost: enumeration.cost)
            #expect(found.cost == best, "\(options) up to \(maxText)")
            #expect(found.amount <= maximum)
            #expect(grammar.reachableTokens(upTo: maximum) == enumeration.seenTokens, "\(options) up to \(maxText)")
        }
    }

    /// Limits past 10^5: every whole amount is enumerated, and the costliest fraction added to it.
    /// A reading is the whole amount's, then what the fraction adds; that addition depends only
    /// on whether the whole part is zero (零点零五元, 五分) — checked here on random amounts
    /// rather than assumed.
    @Test(arguments: combinations)
    func worstCaseAndCoverageAgreeWithWholeAmountEnumeration(_ options: GrammarOptions) throws {
        let grammar = Grammar(.zhHans, options: options)
        for (index, maxText) in ["120000.05", "222222.22", "204000.5"].enumerated() {
            let maximum = try Amount(parsing: maxText)
            var enumeration = Enumeration(grammar, seed: UInt64(index) + 31)
            // What each fraction adds to a whole amount that is zero, and to one that is not.
            let zero = enumeration.cost(0), one = enumeration.cost(100)
            let addedToZero = (0..<100).map { enumeration.cost(Int64($0), collect: false) - zero }
            let addedToWhole = (0..<100).map { enumeration.cost(100 + Int64($0), collect: false) - one }
            var rng = SplitMix64(seed: UInt64(index))
            for _ in 0..<2_000 {
                let whole = Int64(rng.next() % 1_000_000) + 1, fraction = Int(rng.next() % 100)
                #expect(enumeration.cost(whole * 100 + Int64(fraction), collect: false) == enumeration.cost(whole * 100, collect: false) + addedToWhole[fraction])
            }
            let lastWhole = maximum.minorUnits / 100, lastFraction = Int(maximum.minorUnits % 100)
            var best = Int64.min
            for fraction in 0...(lastWhole == 0 ? lastFraction : 99) {
                _ = enumeration.cost(Int64(fraction))
                best = max(best, zero + addedToZero[fraction])
            }
            if lastWhole > 0 {
                // Every limit here is past 2, so 1.00 … 1.99 are all in range: they say every fraction after a whole part.
                for fraction in 0...99 { _ = enumeration.cost(100 + Int64(fraction)) }
                let bestAdded = addedToWhole.max() ?? 0, bestLastAdded = addedToWhole[0...lastFraction].max() ?? 0
                for whole in 1...lastWhole {
                    best = max(best, enumeration.cost(whole * 100) + (whole == lastWhole ? bestLastAdded : bestAdded))
                }
            }
            let found = grammar.costliestReading(upTo: maximum, cost: enumeration.cost)
            #expect(found.cost == best, "\(options) up to \(maxText)")
            #expect(found.amount <= maximum)
            #expect(grammar.reachableTokens(upTo: maximum) == enumeration.seenTokens, "\(options) up to \(maxText)")
        }
    }

    /// Each option's own tokens are needed only where some amount says them.
    @Test func optionTokensAreRequiredOnlyWhenSaid() throws {
        let jiaoFen = Grammar(.zhHans, options: GrammarOptions(money: .jiaoFen))
        let kuaiMao = Grammar(.zhHans, options: GrammarOptions(money: .kuaiMao))
        let large = Grammar(.zhHans, options: GrammarOptions(two: .liangLarge))
        #expect(jiaoFen.reachableTokens(upTo: try Amount(parsing: "99.99")).isSuperset(of: [.jiao, .fen, .yuan]))
        #expect(jiaoFen.reachableTokens(upTo: try Amount(parsing: "99.99")).isDisjoint(with: [.point, .kuai, .mao]))
        #expect(!jiaoFen.reachableTokens(upTo: try Amount(parsing: "0.09")).contains(.jiao))
        #expect(jiaoFen.reachableTokens(upTo: try Amount(parsing: "0.09")).contains(.fen))
        #expect(kuaiMao.reachableTokens(upTo: try Amount(parsing: "99.99")).isSuperset(of: [.kuai, .mao, .fen]))
        #expect(kuaiMao.reachableTokens(upTo: try Amount(parsing: "99.99")).isDisjoint(with: [.point, .yuan, .jiao]))
        #expect(!large.reachableTokens(upTo: try Amount(parsing: "1999.99")).contains(.liang))
        #expect(large.reachableTokens(upTo: try Amount(parsing: "2000")).contains(.liang))
    }

    /// The demo pack's worst case stays what it was before the framework: 33333333.33.
    @Test func defaultsKeepTheLongestAmount() throws {
        let grammar = Grammar(.zhHans)
        let found = grammar.costliestReading(upTo: try Amount(parsing: "99999999.99")) { _ in 1 }
        #expect(found.cost == grammar.tokens(for: found.amount).count)
        #expect(Grammar(.zhHans).options == GrammarOptions())
    }
}

// The reading machine against DESIGN §4's examples and against LevelReadingReference, exhaustively
// for every whole amount up to 1,000,000 and on random zero-heavy amounts up to the grammar limit.

import Testing
@testable import SoundpackCore

@Suite struct ReadingReferenceTests {
    /// Every example DESIGN §4 gives, as written there.
    @Test(arguments: [
        ("10", "十元"), ("100000", "十万元"), ("110", "一百一十元"), ("10010", "一万零一十元"),
        ("1000", "一千元"), ("204000", "二十万四千元"), ("9004300", "九百万四千三百元"),
        ("42063081000", "四百二十亿六千三百零八万一千元"), ("100000000", "一亿元"),
        ("1001", "一千零一元"), ("200400", "二十万零四百元"), ("100010000", "一亿零一万元"),
        ("60106904", "六千零一十万六千九百零四元"), ("400005000", "四亿零五千元"), ("100000001", "一亿零一元"),
        ("0", "零元"), ("0.05", "零点零五元"), ("15.40", "十五点四元"), ("20000.00", "二万元"),
        // From the issue that fixed the level rule.
        ("101000", "十万一千元"), ("5018201570", "五十亿一千八百二十万一千五百七十元"),
    ])
    func designExamples(_ amount: String, _ expected: String) throws {
        let grammar = Grammar(.zhHans)
        #expect(grammar.text(of: grammar.tokens(for: try Amount(parsing: amount))) == expected)
    }

    /// DESIGN §4's `two: "liang"` examples.
    @Test(arguments: [
        ("2", "二元"), ("12", "十二元"), ("200", "两百元"), ("2000", "两千元"), ("20000", "两万元"),
        ("120000", "十二万元"), ("22222", "两万两千两百二十二元"), ("200000000", "两亿元"),
        ("202000", "二十万两千元"), ("2002000", "两百万两千元"),
    ])
    func designLiangExamples(_ amount: String, _ expected: String) throws {
        let grammar = Grammar(.zhHans, two: .liang)
        #expect(grammar.text(of: grammar.tokens(for: try Amount(parsing: amount))) == expected)
    }

    static func machineText(_ grammar: Grammar, _ minorUnits: Int64, into tokens: inout [Token]) -> String {
        tokens.removeAll(keepingCapacity: true)
        grammar.appendTokens(for: Amount(minorUnits: minorUnits), to: &tokens)
        return grammar.text(of: tokens)
    }

    /// Every whole amount 0 … 1,000,000, in ten slices so they run in parallel, under both two-styles.
    @Test(arguments: 0..<10, TwoStyle.allCases)
    func everyWholeAmountUpToOneMillion(_ slice: Int, _ two: TwoStyle) {
        let grammar = Grammar(.zhHans, two: two)
        var tokens: [Token] = []
        var mismatches: [String] = []
        let lower = Int64(slice) * 100_000, upper = slice == 9 ? 1_000_000 : lower + 99_999
        for yuan in lower...upper {
            let machine = Self.machineText(grammar, yuan * 100, into: &tokens)
            let reference = LevelReadingReference.read(minorUnits: yuan * 100, two: two)
            if machine != reference, mismatches.count < 10 { mismatches.append("\(yuan): \(machine) ≠ \(reference)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    /// Random amounts below 10^12 built from zero-heavy levels (0, a lone digit, a digit and zeros,
    /// random), with random fractions, so every boundary case between 亿, 万 and 个 is common.
    @Test(arguments: TwoStyle.allCases)
    func randomZeroHeavyAmountsUpToTheGrammarLimit(_ two: TwoStyle) {
        let grammar = Grammar(.zhHans, two: two)
        var rng = SplitMix64(seed: two == .er ? 0x5EED : 0x1142)
        var tokens: [Token] = []
        var mismatches: [String] = []
        func level() -> Int64 {
            switch rng.next() % 6 {
            case 0, 1: return 0
            case 2: return Int64(rng.next() % 10)
            case 3: return Int64(rng.next() % 9 + 1) * [1, 10, 100, 1000][Int(rng.next() % 4)]
            case 4: return Int64(rng.next() % 10) * 1000 + Int64(rng.next() % 10)
            default: return Int64(rng.next() % 10_000)
            }
        }
        for _ in 0..<100_000 {
            let integer = level() * 100_000_000 + level() * 10_000 + level()
            let fraction = rng.next() % 3 == 0 ? Int64(rng.next() % 100) : 0
            let minor = integer * 100 + fraction
            let machine = Self.machineText(grammar, minor, into: &tokens)
            let reference = LevelReadingReference.read(minorUnits: minor, two: two)
            if machine != reference, mismatches.count < 10 { mismatches.append("\(minor): \(machine) ≠ \(reference)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    /// zh-Hant says the same tokens; only the written units differ.
    @Test func traditionalReadsTheSameTokens() throws {
        for text in ["204000", "400005000", "42063081000", "200000000"] {
            let amount = try Amount(parsing: text)
            for two in TwoStyle.allCases {
                #expect(Grammar(.zhHant, two: two).tokens(for: amount) == Grammar(.zhHans, two: two).tokens(for: amount))
            }
        }
        #expect(Grammar(.zhHant).text(of: Grammar(.zhHant).tokens(for: try Amount(parsing: "204000"))) == "二十萬四千元")
    }
}

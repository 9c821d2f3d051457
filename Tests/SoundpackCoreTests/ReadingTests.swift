// The zh-Hans/zh-Hant reading contract of DESIGN §4, by table and by property over random amounts.

import Testing
@testable import SoundpackCore

@Suite struct ReadingTests {
    static let hans = Grammar(.zhHans)
    static let liang = Grammar(.zhHans, two: .liang)

    static func read(_ grammar: Grammar, _ text: String) throws -> String {
        grammar.text(of: grammar.tokens(for: try Amount(parsing: text)))
    }

    /// Every rule of DESIGN §4, two-style `er`.
    @Test(arguments: [
        ("0", "零元"), ("0.05", "零点零五元"), ("0.5", "零点五元"), ("0.50", "零点五元"), ("0.01", "零点零一元"), ("0.1", "零点一元"),
        ("1", "一元"), ("2", "二元"), ("9", "九元"), ("10", "十元"), ("11", "十一元"), ("12", "十二元"), ("19", "十九元"),
        ("20", "二十元"), ("21", "二十一元"), ("99", "九十九元"), ("100", "一百元"), ("101", "一百零一元"), ("110", "一百一十元"),
        ("111", "一百一十一元"), ("120", "一百二十元"), ("999", "九百九十九元"), ("1000", "一千元"), ("1001", "一千零一元"),
        ("1010", "一千零一十元"), ("1100", "一千一百元"), ("1011", "一千零一十一元"), ("2020", "二千零二十元"),
        ("10000", "一万元"), ("10001", "一万零一元"), ("10010", "一万零一十元"), ("10100", "一万零一百元"),
        ("11000", "一万一千元"), ("20000.00", "二万元"), ("100000", "十万元"), ("100100", "十万零一百元"),
        ("110000", "十一万元"), ("1000000", "一百万元"), ("1010000", "一百零一万元"), ("10000000", "一千万元"),
        ("10000001", "一千万零一元"), ("10100000", "一千零一十万元"), ("100000000", "一亿元"), ("100000001", "一亿零一元"),
        ("100010000", "一亿零一万元"), ("400005000", "四亿零五千元"), ("1000000000", "十亿元"), ("1000100000", "十亿零一十万元"),
        ("1200000000", "十二亿元"), ("100000000000", "一千亿元"), ("100001000000", "一千亿零一百万元"),
        ("15.40", "十五点四元"), ("10.01", "十点零一元"), ("10.10", "十点一元"), ("1234.56", "一千二百三十四点五六元"),
        ("100.05", "一百点零五元"), ("30000.30", "三万点三元"), ("987654321", "九亿八千七百六十五万四千三百二十一元"),
        ("999999999999.99", "九千九百九十九亿九千九百九十九万九千九百九十九点九九元"),
        ("1,000,000.00", "一百万元"), ("50005", "五万零五元"), ("500050000", "五亿零五万元"),
    ])
    func readsAsTaught(_ amount: String, _ expected: String) throws {
        #expect(try Self.read(Self.hans, amount) == expected)
    }

    /// `two: liang`: 两 in hundreds/thousands and for a group of exactly 2 before 万/亿; 二 elsewhere.
    @Test(arguments: [
        ("2", "二元"), ("12", "十二元"), ("20", "二十元"), ("22", "二十二元"), ("200", "两百元"), ("2000", "两千元"),
        ("20000", "两万元"), ("120000", "十二万元"), ("22222", "两万两千两百二十二元"), ("200000000", "两亿元"),
        ("2.2", "二点二元"), ("0.02", "零点零二元"), ("220000", "二十二万元"), ("2200000", "两百二十万元"),
        ("100020000", "一亿零两万元"), ("202", "两百零二元"),
    ])
    func readsLiang(_ amount: String, _ expected: String) throws {
        #expect(try Self.read(Self.liang, amount) == expected)
    }

    @Test func traditionalShowsTraditionalUnitsWithTheSameTokens() throws {
        let hant = Grammar(.zhHant, two: .liang)
        let amount = try Amount(parsing: "200000000.5")
        #expect(hant.text(of: hant.tokens(for: amount)) == "兩億點五元")
        #expect(hant.tokens(for: amount) == Self.liang.tokens(for: amount))
        #expect(try Self.read(Grammar(.zhHant), "12345.6") == "一萬二千三百四十五點六元")
    }

    @Test func prefixAndSuffixComeFromTexts() {
        let text = Self.hans.text(of: [.prefix, .one, .yuan, .suffix], texts: ["prefix": "微信到账", "suffix": "谢谢"])
        #expect(text == "微信到账一元谢谢")
    }

    // MARK: properties over seeded random amounts

    static func randomAmounts(seed: UInt64, count: Int) -> [Amount] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            // Mix magnitudes so every group and zero pattern is common, not just 12-digit numbers.
            let digits = Int(rng.next() % 14) + 1
            var value: Int64 = 0
            for _ in 0..<digits {
                let r = rng.next() % 10
                value = value * 10 + Int64(r < 4 ? 0 : r)  // zeros are frequent on purpose
            }
            return Amount(minorUnits: value % Amount.grammarLimit.minorUnits)
        }
    }

    @Test(arguments: [TwoStyle.er, .liang])
    func readingsKeepTheStructuralRules(_ two: TwoStyle) {
        let grammar = Grammar(.zhHans, two: two)
        for amount in Self.randomAmounts(seed: two == .er ? 42 : 7, count: 20_000) {
            let tokens = grammar.tokens(for: amount)
            #expect(tokens.allSatisfy(grammar.inventory.contains))
            #expect(tokens.last == .yuan)
            for (a, b) in zip(tokens, tokens.dropFirst()) {
                #expect(!(a == .zero && b == .zero), "two 零 in a row for \(amount)")
                #expect(!(a == .zero && (b == .tenThousand || b == .hundredMillion)), "零 before 万/亿 for \(amount)")
                if a == .zero && b == .yuan { #expect(tokens == [.zero, .yuan], "零 before 元 for \(amount)") }
            }
            if two == .er { #expect(!tokens.contains(.liang)) }
            #expect(ReverseReader.amount(of: tokens) == amount, "\(amount) read as \(grammar.text(of: tokens))")
        }
    }

    @Test func everyAmountUpToTwentyThousandReadsBack() {
        for two in TwoStyle.allCases {
            let grammar = Grammar(.zhHans, two: two)
            for minor in stride(from: Int64(0), through: 2_000_000, by: 37) {
                let amount = Amount(minorUnits: minor)
                #expect(ReverseReader.amount(of: grammar.tokens(for: amount)) == amount)
            }
        }
    }
}

/// A small independent parser from tokens back to an amount, used to check readings.
enum ReverseReader {
    static func amount(of tokens: [Token]) -> Amount? {
        var total: Int64 = 0, section: Int64 = 0, digit: Int64 = 0
        var index = 0
        func value(_ t: Token) -> Int64? {
            if t == .liang { return 2 }
            return Token.digits.firstIndex(of: t).map(Int64.init)
        }
        while index < tokens.count, tokens[index] != .point, tokens[index] != .yuan {
            let t = tokens[index]
            index += 1
            if let v = value(t) { digit = v; continue }
            switch t {
            case .ten: section += (digit == 0 ? 1 : digit) * 10
            case .hundred: section += digit * 100
            case .thousand: section += digit * 1000
            case .tenThousand: total += (section + digit) * 10_000; section = 0
            case .hundredMillion: total = (total + section + digit) * 100_000_000; section = 0
            default: return nil
            }
            digit = 0
        }
        total += section + digit
        var fraction: Int64 = 0
        if index < tokens.count, tokens[index] == .point {
            index += 1
            var scale: Int64 = 10
            while index < tokens.count, let v = value(tokens[index]) {
                fraction += v * scale
                scale /= 10
                index += 1
            }
        }
        guard index == tokens.count - 1, tokens[index] == .yuan else { return nil }
        return Amount(minorUnits: total * 100 + fraction)
    }
}

/// A fixed-seed generator so property tests are repeatable.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// en-US, en-IN and hi-IN (DESIGN §4b) against an independent reference: ICU's spell-out
// (Foundation's NumberFormatter, .spellOut) for the integer and fraction words, framed by a second
// implementation of the contract's table written here, not by the grammars' code. And the generic
// worst case and coverage against enumeration, for these grammars too.

import Foundation
import Testing
@testable import SoundpackCore

@Suite struct LocaleGrammarTests {
    static let grammars: [GrammarID] = [.enUS, .enIN, .hiIN]

    /// ICU's words for `n` in the grammar's locale.
    final class Speller: @unchecked Sendable {
        let formatter = NumberFormatter()
        init(_ id: GrammarID) {
            formatter.locale = Locale(identifier: id.rawValue.replacingOccurrences(of: "-", with: "_"))
            formatter.numberStyle = .spellOut
        }
        func words(_ n: Int64) -> String { formatter.string(from: NSNumber(value: n)) ?? "?" }
    }

    /// The reading the contract's table gives, from ICU's words (DESIGN §4b).
    static func expected(_ amount: Amount, _ id: GrammarID, _ speller: Speller) -> String {
        let (i, f) = (amount.integerPart, Int64(amount.fractionPart))
        let names: (unit: String, units: String, subunit: String, subunits: String)
        switch id {
        case .enUS: names = ("dollar", "dollars", "cent", "cents")
        case .enIN: names = ("rupee", "rupees", "paisa", "paise")
        default: names = ("रुपया", "रुपये", "पैसा", "पैसे")
        }
        let unit = i == 1 ? names.unit : names.units, sub = f == 1 ? names.subunit : names.subunits
        let fraction = "\(speller.words(f)) \(sub)"
        switch id {
        case .enUS:
            if i == 0 { return f == 0 ? "zero dollars" : fraction }
            return "\(speller.words(i)) \(unit)" + (f > 0 ? " and \(fraction)" : "")
        case .enIN:
            if i == 0 { return f == 0 ? "rupees zero" : fraction }
            return "\(unit) \(speller.words(i))" + (f > 0 ? " and \(fraction)" : "")
        default:
            if i == 0 { return f == 0 ? "शून्य रुपये" : fraction }
            return "\(speller.words(i)) \(unit)" + (f > 0 ? " \(fraction)" : "")
        }
    }

    static let edges = ["0", "0.01", "0.99", "1", "1.01", "2", "100", "101", "1000", "100000", "10000000", "1000000000",
                        "100000000000", "999999999999.99", "11", "19", "20", "21", "110", "1100", "1000001", "120000000.10"]

    /// 20,000 amounts: half with every magnitude equally likely, half zero-heavy; fractions zero
    /// a third of the time.
    static func amounts(seed: UInt64) -> [Amount] {
        var rng = SplitMix64(seed: seed)
        var amounts = try! edges.map { try Amount(parsing: $0) }
        for index in 0..<20_000 {
            let places = Int(rng.next() % 12) + 1
            var integer: Int64 = 0
            for place in 0..<places {
                var digit = Int64(rng.next() % 10)
                if index % 2 == 1 && rng.next() % 10 < 7 { digit = 0 }
                if place == 0 && digit == 0 { digit = Int64(rng.next() % 9) + 1 }
                integer = integer * 10 + digit
            }
            let fraction = rng.next() % 3 == 0 ? 0 : Int64(rng.next() % 100)
            amounts.append(Amount(minorUnits: integer * 100 + fraction))
        }
        return amounts
    }

    @Test(arguments: grammars)
    func readsAsICUSpellsOut(_ id: GrammarID) {
        let grammar = Grammar(id), speller = Speller(id)
        var failures = 0
        for amount in Self.amounts(seed: UInt64(id.rawValue.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) })) {
            let tokens = grammar.tokens(for: amount)
            let said = grammar.text(of: tokens)
            let expected = Self.expected(amount, id, speller)
            if said != expected {
                failures += 1
                if failures <= 5 { Issue.record("\(id.rawValue) \(amount): \(said) ≠ ICU \(expected)") }
            }
            // Every word is a clip: a hyphenated word is two (twenty-one → twenty one).
            let words = expected.split(whereSeparator: { $0 == " " || $0 == "-" })
            if tokens.count != words.count, failures < 5 {
                failures += 1
                Issue.record("\(id.rawValue) \(amount): \(tokens.count) clips for \(words.count) words")
            }
        }
        #expect(failures == 0)
    }

    @Test func theContractsExamples() throws {
        func say(_ id: GrammarID, _ text: String) throws -> String {
            let grammar = Grammar(id)
            return grammar.text(of: grammar.tokens(for: try Amount(parsing: text, grouping: grammar.grouping)))
        }
        #expect(try say(.enUS, "15.40") == "fifteen dollars and forty cents")
        #expect(try say(.enUS, "1.01") == "one dollar and one cent")
        #expect(try say(.enUS, "0.05") == "five cents")
        #expect(try say(.enUS, "2,000,000") == "two million dollars")
        #expect(try say(.enUS, "101") == "one hundred one dollars")
        #expect(try say(.enIN, "12,345,678") == "rupees one crore twenty-three lakh forty-five thousand six hundred seventy-eight")
        #expect(try say(.enIN, "1,23,45,678") == "rupees one crore twenty-three lakh forty-five thousand six hundred seventy-eight")
        #expect(try say(.enIN, "1") == "rupee one")
        #expect(try say(.enIN, "0.50") == "fifty paise")
        #expect(try say(.hiIN, "21") == "इक्कीस रुपये")
        #expect(try say(.hiIN, "1") == "एक रुपया")
        #expect(try say(.hiIN, "15.40") == "पन्द्रह रुपये चालीस पैसे")
        #expect(try say(.hiIN, "12345678") == "एक करोड़ तेईस लाख पैंतालीस हज़ार छह सौ अठहत्तर रुपये")
        // The Indian grouping is the Indian grammars' only.
        #expect(throws: AmountError.self) { try Amount(parsing: "12,34,567.89") }
        #expect(try Amount(parsing: "12,34,567.89", grouping: .indian) == Amount(minorUnits: 123_456_789))
        #expect(throws: AmountError.self) { try Amount(parsing: "1,2,34,567", grouping: .indian) }
        #expect(throws: AmountError.self) { try Amount(parsing: "123,45,678", grouping: .indian) }
    }

    /// A pack's texts name the currency: 15.40 → fifteen euros and forty cents.
    @Test func thePacksTextsNameTheCurrency() throws {
        let grammar = Grammar(.enUS)
        let texts = ["unit": "euro", "units": "euros"]
        #expect(grammar.text(of: grammar.tokens(for: try Amount(parsing: "15.40")), texts: texts) == "fifteen euros and forty cents")
        #expect(grammar.text(of: grammar.tokens(for: try Amount(parsing: "1")), texts: texts) == "one euro")
    }

    /// The generic worst case and coverage agree with every amount up to small limits (fractions
    /// included), for each grammar: en-IN's reading starts from a guess, which only the right
    /// amounts prove.
    @Test(arguments: grammars)
    func worstCaseAndCoverageAgreeWithEnumeration(_ id: GrammarID) throws {
        let grammar = Grammar(id)
        for (index, maxText) in ["0.09", "1", "1.5", "245.67", "2000", "1001.01", "11000"].enumerated() {
            let maximum = try Amount(parsing: maxText)
            var rng = SplitMix64(seed: UInt64(index) + 11)
            let costs = grammar.inventory.map { _ in Int64(rng.next() % 9000) + 1000 }
            var seen = [Bool](repeating: false, count: costs.count)
            var best = Int64.min
            var buffer: [Token] = []
            for minor in 0...maximum.minorUnits {
                buffer.removeAll(keepingCapacity: true)
                grammar.appendTokens(for: Amount(minorUnits: minor), to: &buffer)
                var total: Int64 = 0
                for token in buffer {
                    total += costs[token.ordinal]
                    seen[token.ordinal] = true
                }
                best = max(best, total)
            }
            let found = grammar.costliestReading(upTo: maximum) { costs[$0.ordinal] }
            #expect(found.cost == best, "\(id.rawValue) up to \(maxText)")
            #expect(found.amount <= maximum)
            let enumerated = Set(grammar.inventory.filter { seen[$0.ordinal] })
            #expect(grammar.reachableTokens(upTo: maximum) == enumerated, "\(id.rawValue) up to \(maxText)")
        }
    }

    @Test(arguments: grammars)
    func tokensAreAtTheirOrdinals(_ id: GrammarID) {
        let grammar = Grammar(id)
        for (ordinal, token) in grammar.inventory.enumerated() {
            #expect(token.ordinal == ordinal, "\(token)")
            #expect(grammar.token(forKey: token.rawValue) == token)
            #expect(!grammar.fileStem(of: token).isEmpty)
        }
        #expect(Set(grammar.inventory.map(\.rawValue)).count == grammar.inventory.count)
    }
}

// Parsing amounts: exact minor units from the strings people write, clear refusals for the rest.

import Testing
@testable import SoundpackCore

@Suite struct AmountTests {
    @Test(arguments: [
        ("0", 0), ("15.40", 1540), ("15.4", 1540), ("0.05", 5), ("1,234.50", 123_450), ("1,234,567", 123_456_700),
        ("  42 ", 4200), ("007", 700), ("999999999999.99", 99_999_999_999_999), ("100", 10_000), ("12.3", 1230),
    ] as [(String, Int64)])
    func parsesExactly(_ text: String, _ minorUnits: Int64) throws {
        #expect(try Amount(parsing: text).minorUnits == minorUnits)
    }

    @Test(arguments: [
        ("-1", AmountError.Problem.negative), ("1e3", .exponent), ("1.234", .tooManyFractionDigits), ("NaN", .notDecimal),
        ("１２３", .nonASCII), ("1,23,4", .badGrouping), ("", .empty), ("   ", .empty), ("1000000000000", .aboveGrammarLimit),
        ("+5", .sign), (".5", .notDecimal), ("5.", .notDecimal), ("1.2.3", .notDecimal), ("12,34", .badGrouping),
        (",123", .badGrouping), ("1234,567", .badGrouping), ("0x10", .notDecimal), ("١٢٣", .nonASCII), ("1 000", .notDecimal),
        ("inf", .notDecimal),
    ])
    func refuses(_ text: String, _ problem: AmountError.Problem) {
        #expect(throws: AmountError(input: text, problem: problem)) { try Amount(parsing: text) }
    }

    @Test func messageNamesTheInputAndTheRule() {
        let error = AmountError(input: "1.234", problem: .tooManyFractionDigits)
        #expect(error.description.contains("'1.234'"))
        #expect(error.description.contains("at most 2 digits"))
    }

    @Test func refusesAboveMaximum() throws {
        let maximum = try Amount(parsing: "99999999.99")
        #expect(throws: AmountError(input: "100000000", problem: .aboveMaximum(maximum))) {
            try Amount(parsing: "100000000", maximum: maximum)
        }
        #expect(try Amount(parsing: "99999999.99", maximum: maximum) == maximum)
    }

    @Test(arguments: [(0, "0"), (5, "0.05"), (1540, "15.40"), (150_000, "1500"), (123, "1.23")] as [(Int64, String)])
    func canonicalSpelling(_ minorUnits: Int64, _ text: String) {
        #expect(Amount(minorUnits: minorUnits).description == text)
    }
}

/// The plain-digits fast path `say -` uses agrees with the full parser wherever it answers, and
/// leaves everything else (errors included) to it.
@Suite struct PlainDigitsAmountTests {
    static func plain(_ text: String) -> Amount? { Array(text.utf8).withUnsafeBufferPointer { Amount(plainDigits: $0) } }

    @Test func agreesWithTheParserOnEdgeCases() {
        let cases = ["0", "00", "0.0", "0.05", "1", "15.4", "15.40", "000000000000001", "999999999999", "999999999999.99",
                     "0000999999999999.99", "1000000000000", "1.", ".5", "1.234", "1,000", " 1", "1 ", "1e3", "+1", "-1", "", "١٢",
                     "12.3a", "1..2", "18446744073709551616", "99999999999999999999999"]
        for text in cases {
            let fast = Self.plain(text)
            let full = try? Amount(parsing: text)
            if let fast { #expect(fast == full, "\(text.debugDescription)") }
            // The fast path answers only the plain form, and every plain form the parser accepts.
            let isPlain = text.utf8.allSatisfy { ("0"..."9").contains(Character(UnicodeScalar($0))) || $0 == UInt8(ascii: ".") }
            if full != nil && isPlain && !text.hasSuffix(".") { #expect(fast != nil, "\(text.debugDescription)") }
        }
    }

    @Test func agreesWithTheParserOnRandomLines() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789.,0000 e")
        for _ in 0..<100_000 {
            let text = String((0..<Int.random(in: 0...16, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            if let fast = Self.plain(text) { #expect(fast == (try? Amount(parsing: text)), "\(text.debugDescription)") }
        }
    }
}

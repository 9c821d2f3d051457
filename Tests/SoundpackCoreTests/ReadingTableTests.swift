// The portable reading (DESIGN §3b) reads every amount as the grammar does, for every grammar and
// every option, through its JSON form.
//
// Why samples cover the structure: the table is the grammar's own step function, evaluated on every
// state the forward search reaches at each of the 14 positions from the grammar's starts, so every
// amount's walk from a start stays inside the table (`check()` proves the closure) and says what
// `step` says. What the table adds over the grammar is (1) the JSON form and (2) the choice of the
// reading: the first start whose walk ends accepted, where the grammar picks `start(for:)` by the
// whole amount (en-IN guesses rupee or rupees). The edge amounts put every digit at every position
// (so every position's reachable rows are walked from the all-zero context and after each digit
// class), the singular/plural and zero/non-zero boundaries the starts hinge on (0, 0.01, 1, 1.01,
// 2, every power of ten and every run of nines), and the random amounts mix zero runs of every
// length into the rest; all through a JSON round trip.

import Foundation
import Testing
@testable import SoundpackCore

@Suite struct ReadingTableTests {
    /// Every grammar with every combination of its options.
    static let grammars: [Grammar] = GrammarID.allCases.flatMap { id -> [Grammar] in
        guard id.hasOptions else { return [Grammar(id)] }
        return TwoStyle.allCases.flatMap { two in
            MoneyStyle.allCases.flatMap { money in TenStart.allCases.map { Grammar(id, options: GrammarOptions(two: two, money: money, tenStart: $0)) } }
        }
    }

    static var edgeAmounts: [Int64] {
        var amounts: Set<Int64> = [0, 1, 100, 101, 200, 1_000, 1_001, 10_000, 10_010, 100_100, 1_000_000_000_000, 99_999_999_999_999]
        var power: Int64 = 1
        for _ in 0..<ReadingDigits.count {
            for digit in Int64(1)...9 { amounts.insert(digit * power) }
            amounts.insert(power * 10 - 1)              // a run of nines
            amounts.insert(power + 1)                     // 1 0…0 1: the zeros said between
            amounts.insert(99_999_999_999_999 - power)    // every digit but one a nine
            power *= 10
        }
        return amounts.filter { $0 < Amount.grammarLimit.minorUnits }.sorted()
    }

    static func randomAmounts(_ count: Int, seed: UInt64) -> [Int64] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            // Digits, with runs of zeros of random length: 100000005 and 1005 are read with care.
            var digits: [Int64] = []
            while digits.count < ReadingDigits.count {
                if Bool.random(using: &random) {
                    digits += [Int64](repeating: 0, count: Int.random(in: 1...6, using: &random))
                } else {
                    digits.append(Int64.random(in: 0...9, using: &random))
                }
            }
            let leading = Int.random(in: 0...ReadingDigits.count, using: &random)  // shorter amounts as often as long ones
            return digits.prefix(ReadingDigits.count).enumerated().reduce(Int64(0)) { $0 * 10 + ($1.offset < leading ? 0 : $1.element) }
        }
    }

    @Test(arguments: grammars)
    func theTableReadsEveryAmountAsTheGrammarDoes(_ grammar: Grammar) throws {
        let built = grammar.readingTable
        let table = try JSONDecoder().decode(ReadingTable.self, from: JSONEncoder().encode(built))
        #expect(table == built, "the JSON form is the table")
        try table.check()
        #expect(table.grammar == grammar.id.rawValue)
        #expect(table.options == Dictionary(uniqueKeysWithValues: grammar.chosenOptions.map { ($0.name, $0.value) }))
        var failures: [String] = []
        for minor in Self.edgeAmounts + Self.randomAmounts(4_000, seed: grammar.summary.utf8.reduce(UInt64(7)) { $0 &* 31 &+ UInt64($1) }) {
            let amount = Amount(minorUnits: minor)
            let expected = grammar.tokens(for: amount).map(\.rawValue)
            let read = table.tokens(for: amount)
            if read != expected && failures.count < 5 { failures.append("\(amount): table \(read ?? []), grammar \(expected)") }
        }
        #expect(failures.isEmpty, "\(grammar.summary): \(failures)")
    }

    @Test func everyTableIsSmallEnoughToShipInAnExport() throws {
        for grammar in Self.grammars {
            let table = grammar.readingTable
            let bytes = try JSONEncoder().encode(table).count
            #expect(bytes < 400_000, "\(grammar.summary): \(bytes) bytes")
            #expect(!table.accepting.isEmpty && !table.starts.isEmpty)
            #expect(table.steps.allSatisfy { !$0.isEmpty && $0.values.allSatisfy { $0.count == 10 } })
        }
    }

    @Test func aTableAPlayerCannotWalkIsRefusedBeforeItReads() throws {
        let good = Grammar(.zhHans).readingTable
        try good.check()
        var newer = good
        newer.format = 2
        #expect(throws: ReadingTable.Problem.unknownFormat(2)) { try newer.check() }
        var short = good
        short.steps.removeLast()
        #expect(throws: ReadingTable.Problem.wrongShape) { try short.check() }
        var dangling = good
        let state = try #require(dangling.steps[3].keys.min())
        dangling.steps[3][state]![4].next = 9_999
        #expect(throws: ReadingTable.Problem.brokenStep(position: 3, state: state, digit: 4)) { try dangling.check() }
        var badToken = good
        badToken.steps[0][badToken.starts[0]]![1].tokens = [good.tokens.count]
        #expect(throws: ReadingTable.Problem.brokenStep(position: 0, state: good.starts[0], digit: 1)) { try badToken.check() }
        var badStart = good
        badStart.starts = [12_345]
        #expect(throws: ReadingTable.Problem.unknownStart(12_345)) { try badStart.check() }
        var missingRow = good
        missingRow.steps[5][try #require(missingRow.steps[5].keys.min())]!.removeLast()
        #expect(throws: ReadingTable.Problem.self) { try missingRow.check() }
    }

    @Test func aStateKeyThatIsNotADecimalNumberDoesNotDecode() throws {
        var json = try #require(String(data: JSONEncoder().encode(Grammar(.enUS).readingTable), encoding: .utf8))
        json = json.replacingOccurrences(of: "{\"0\":", with: "{\"00\":")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ReadingTable.self, from: Data(json.utf8)) }
    }

    @Test func anUncheckedTableReadsNothingRatherThanTrap() {
        var short = Grammar(.zhHans).readingTable
        short.steps.removeLast()
        #expect(short.tokens(for: Amount(minorUnits: 1_540)) == nil)
        var badToken = Grammar(.zhHans).readingTable
        for position in badToken.steps.indices { for state in badToken.steps[position].keys { badToken.steps[position][state] = badToken.steps[position][state]!.map { ReadingTable.Step(next: $0.next, tokens: $0.tokens.map { $0 + 1_000 }) } } }
        #expect(badToken.tokens(for: Amount(minorUnits: 1_540)) == nil)
    }

    @Test func anAmountBeyondFourteenDigitsIsNotRead() {
        let table = Grammar(.enIN).readingTable
        #expect(table.tokens(for: Amount(minorUnits: Amount.grammarLimit.minorUnits)) == nil)
        #expect(table.tokens(for: Amount(minorUnits: 1_540)) == Grammar(.enIN).tokens(for: Amount(minorUnits: 1_540)).map(\.rawValue))
    }
}

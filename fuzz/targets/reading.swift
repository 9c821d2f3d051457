// Fuzz target: a reading table (DESIGN §3b) as a phone downloads it, hostile bytes included. A table
// that decodes and passes `check()` reads every amount taken from the input (check() proved it),
// as the `Grammar(table:)` a phone reads with does, and never traps; a table soundpack builds reads
// the same amounts as its grammar.
import Foundation
import SoundpackCore

let built = Grammar(.zhHans, options: GrammarOptions(money: .jiaoFen)).readingTable

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReading(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    // Amounts from the input's bytes, eight at a time (any non-negative Int64, the too-large included).
    var amounts: [Int64] = []
    var index = 0
    while index + 8 <= min(bytes.count, 256) {
        amounts.append(bytes[index..<index + 8].reduce(Int64(0)) { $0 << 8 | Int64($1) } & Int64.max)
        index += 8
    }
    for minor in amounts {
        let amount = Amount(minorUnits: minor)
        let read = built.tokens(for: amount)
        if minor < Amount.grammarLimit.minorUnits {
            precondition(read == Grammar(.zhHans, options: GrammarOptions(money: .jiaoFen)).tokens(for: amount).map(\.rawValue), "the table reads as the grammar")
        } else {
            precondition(read == nil, "an amount of more than 14 digits is not read")
        }
    }
    guard let table = try? JSONDecoder().decode(ReadingTable.self, from: bytes), (try? table.check()) != nil else { return 0 }
    // check() proved every amount below the limit is read: a phone's SoundpackCore reads with it.
    let grammar: Grammar
    do { grammar = try Grammar(table: table) } catch { preconditionFailure("a table check() accepts is a grammar: \(error)") }
    for minor in amounts + [0, 1, 1_540, 99_999_999_999_999] where minor < Amount.grammarLimit.minorUnits {
        let amount = Amount(minorUnits: minor)
        guard let tokens = table.tokens(for: amount) else { preconditionFailure("check() passed, yet \(amount) is not read") }
        precondition(tokens.allSatisfy { table.tokens.contains($0) }, "a reading says the table's tokens only")
        precondition(grammar.tokens(for: amount).map(\.rawValue) == tokens, "the grammar read from the table reads as the table")
    }
    return 0
}

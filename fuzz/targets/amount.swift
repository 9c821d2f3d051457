// Fuzz target: amount text through parsing and every reading (both grammars, both two-styles),
// checked against the reading's own invariants.
import Foundation
import SoundpackCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAmount(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = text.visible
    _ = text.quoted()
    guard let amount = try? Amount(parsing: text) else { return 0 }
    precondition(amount.minorUnits >= 0 && amount < Amount.grammarLimit, "an accepted amount is in range")
    precondition((try? Amount(parsing: amount.description)) == amount, "an amount's text parses back to it")
    for grammar in [Grammar(.zhHans), Grammar(.zhHans, two: .liang), Grammar(.zhHant, two: .liang)] {
        let tokens = grammar.tokens(for: amount)
        precondition(tokens.last == .yuan, "every reading ends in 元")
        for (a, b) in zip(tokens, tokens.dropFirst()) { precondition(!(a == .zero && b == .zero), "one 零 per run of zeros") }
        _ = grammar.text(of: Announcement(grammar: grammar, hasSuffix: true).tokens(for: amount))
    }
    return 0
}

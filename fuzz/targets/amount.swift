// Fuzz target: amount text through parsing and every reading (both scripts, every option combination),
// checked against the reading's own invariants.
import Foundation
import SoundpackCore

/// Every combination of the reading options, in both scripts.
let grammars: [Grammar] = GrammarID.allCases.flatMap { id in
    TwoStyle.allCases.flatMap { two in
        MoneyStyle.allCases.flatMap { money in
            TenStart.allCases.map { Grammar(id, options: GrammarOptions(two: two, money: money, tenStart: $0)) }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAmount(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = text.visible
    _ = text.quoted()
    guard let amount = try? Amount(parsing: text) else { return 0 }
    precondition(amount.minorUnits >= 0 && amount < Amount.grammarLimit, "an accepted amount is in range")
    precondition((try? Amount(parsing: amount.description)) == amount, "an amount's text parses back to it")
    for grammar in grammars {
        let tokens = grammar.tokens(for: amount)
        switch grammar.options.money {
        case .yuan: precondition(tokens.last == ChineseGrammar.yuan, "every yuan reading ends in 元")
        // At most 23 tokens for the integer part, the currency, and 四角五分 (999999999999.99 says all 28).
        case .jiaoFen, .kuaiMao: precondition(!tokens.isEmpty && tokens.count <= 28, "a reading says something, and not too much")
        }
        let zero = ChineseGrammar.digits[0]
        for (a, b) in zip(tokens, tokens.dropFirst()) { precondition(!(a == zero && b == zero), "one 零 per run of zeros") }
        _ = grammar.text(of: Announcement(grammar: grammar, hasSuffix: true).tokens(for: amount))
    }
    return 0
}

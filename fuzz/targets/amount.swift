// Fuzz target: amount text through parsing (thousands and Indian grouping) and every reading (zh in
// both scripts with every option combination; en-US, en-IN, hi-IN), checked against the reading's
// own invariants.
import Foundation
import SoundpackCore

/// Every combination of the reading options, in both scripts.
let grammars: [Grammar] = GrammarID.allCases.filter(\.hasOptions).flatMap { id in
    TwoStyle.allCases.flatMap { two in
        MoneyStyle.allCases.flatMap { money in
            TenStart.allCases.map { Grammar(id, options: GrammarOptions(two: two, money: money, tenStart: $0)) }
        }
    }
}

/// The grammars without options.
let others: [Grammar] = GrammarID.allCases.filter { !$0.hasOptions }.map { Grammar($0) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAmount(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = text.visible
    _ = text.quoted()
    let indian = try? Amount(parsing: text, grouping: .indian)
    for grammar in others {
        guard let indian else { break }
        let tokens = grammar.tokens(for: indian)
        // en-US and hi-IN say the currency last (en-IN says it first), and at most 27 words.
        precondition(!tokens.isEmpty && tokens.count <= 27, "a reading says something, and not too much")
        let last = tokens[tokens.count - 1].rawValue
        precondition(grammar.id == .enIN || ["unit", "units", "subunit", "subunits"].contains(last), "\(grammar.id.rawValue) ends in its currency")
        _ = grammar.text(of: Announcement(grammar: grammar, hasSuffix: true).tokens(for: indian))
    }
    guard let amount = try? Amount(parsing: text) else { return 0 }
    precondition(indian == amount, "the Indian grouping reads every amount the thousands grouping reads, alike")
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

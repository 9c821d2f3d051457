// `Grammar.smallestAmount(saying:upTo:)`: the first amount that needs a token's clip.

import Testing
import SoundpackCore

@Suite struct SmallestAmountTests {
    static func amount(_ grammar: Grammar, _ key: String, upTo maximum: String = "99999999.99") throws -> String? {
        let token = try #require(grammar.token(forKey: key))
        return grammar.smallestAmount(saying: token, upTo: try Amount(parsing: maximum))?.description
    }

    @Test func chineseTokensAreFirstSaidWhereTheReadingNeedsThem() throws {
        let zh = Grammar(.zhHans)
        #expect(try Self.amount(zh, "元") == "0")
        #expect(try Self.amount(zh, "点") == "0.01")
        #expect(try Self.amount(zh, "1") == "0.01")
        #expect(try Self.amount(zh, "十") == "10")
        #expect(try Self.amount(zh, "百") == "100")
        #expect(try Self.amount(zh, "万") == "10000")
        #expect(try Self.amount(zh, "亿") == nil, "below 10^8 nothing says 亿")
        #expect(try Self.amount(zh, "亿", upTo: "999999999") == "100000000")
        #expect(try Self.amount(zh, "百", upTo: "99") == nil)
    }

    @Test func everyGrammarAgreesWithItsOwnReading() throws {
        for id in GrammarID.allCases {
            let grammar = Grammar(id)
            let maximum = try Amount(parsing: "99999.99")
            for token in grammar.reachableTokens(upTo: maximum) {
                let first = try #require(grammar.smallestAmount(saying: token, upTo: maximum), "\(id) \(token)")
                #expect(grammar.tokens(for: first).contains(token), "\(id): \(first) does not say \(token)")
                // Nothing smaller says it (checked below 1000.00, where brute force is cheap).
                if first.minorUnits < 100_000 {
                    let earlier = (0..<first.minorUnits).first { grammar.tokens(for: Amount(minorUnits: $0)).contains(token) }
                    #expect(earlier == nil, "\(id): \(earlier ?? 0) minor units say \(token) before \(first)")
                }
            }
        }
    }
}

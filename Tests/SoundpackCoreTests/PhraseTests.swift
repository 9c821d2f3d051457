// A pack's phrases: pack.json's `phrases`, the tokens of phrase clips, the framing of each phrase,
// coverage and the worst case over every phrase, and the phone's plan of (phrase, amount).

import Foundation
import Testing
@testable import SoundpackCore

@Suite struct PhraseTests {
    static let merchantJSON = #"""
        {"id":"merchant","version":"1.0.0","grammar":"zh-Hans","maxAmount":"99999999.99",
         "clips":{"wechat":"c/wechat.caf","alipay":"c/alipay.caf","refund":"c/refund.caf","order":"c/order.caf",
                  "0":"c/0.caf","1":"c/1.caf","2":"c/2.caf","3":"c/3.caf","4":"c/4.caf","5":"c/5.caf","6":"c/6.caf",
                  "7":"c/7.caf","8":"c/8.caf","9":"c/9.caf","十":"c/shi.caf","百":"c/bai.caf","千":"c/qian.caf",
                  "万":"c/wan.caf","亿":"c/yi.caf","点":"c/dian.caf","元":"c/yuan.caf"},
         "texts":{"wechat":"微信到账","alipay":"支付宝到账","refund":"退款","order":"您有一笔新订单"},
         "phrases":{"wechat":["wechat","{amount}"],"alipay":["alipay","{amount}"],"refund":["refund","{amount}"],"order":["order"]},
         "defaultPhrase":"wechat"}
        """#

    static func merchant() throws -> PackFile { try PackFile(json: Data(merchantJSON.utf8)) }

    // MARK: - Tokens of phrase clips

    @Test func aPhraseClipKeyIsHeldInlineAndReadBack() throws {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-")
        var rng = SplitMix64(seed: 7)
        for length in 1...Token.maxPackedLength {
            for _ in 0..<20 {
                let key = String((0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
                let token = try #require(Token(clipKey: key, ordinal: 99))
                #expect(token.rawValue == key)
                #expect(token.ordinal == 99)
                #expect(Token(clipKey: key, ordinal: 3) == token)
            }
        }
    }

    @Test(arguments: ["", String(repeating: "a", count: 33), "A", "a_b", "a b", "微信", "a.b", "\u{0}"])
    func aKeyOutsideTheAlphabetMakesNoToken(_ key: String) {
        #expect(Token(clipKey: key, ordinal: 0) == nil)
    }

    /// A key held inline equals, and hashes as, the same key written as a literal.
    @Test func inlineAndLiteralKeysAreOneKey() throws {
        let packed = try #require(Token(clipKey: "prefix", ordinal: 0))
        #expect(packed == Token.prefix)
        #expect(Set([packed, Token.prefix]).count == 1)
        let suffix = try #require(Token(clipKey: "suffix", ordinal: 1))
        #expect(suffix != Token.prefix)
        #expect(suffix == Token.suffix)
        let (a, b) = (try #require(Token(clipKey: "wechat", ordinal: 0)), try #require(Token(clipKey: "wechat-", ordinal: 0)))
        #expect(a != b)
    }

    // MARK: - pack.json

    @Test func readsAndWritesPhrases() throws {
        let pack = try Self.merchant()
        let book = pack.phrasebook
        #expect(book.isDeclared)
        #expect(book.defaultID == "wechat")
        #expect(book.phrases.map(\.id) == ["alipay", "order", "refund", "wechat"])
        #expect(book.phrase("order")?.saysAmount == false)
        #expect(book.written == ["wechat": ["wechat", "{amount}"], "alipay": ["alipay", "{amount}"], "refund": ["refund", "{amount}"], "order": ["order"]])
        // Written back by PackFile's encoder, read again: the same pack.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try PackFile(json: try encoder.encode(pack)) == pack)
        for (index, token) in book.inventory.enumerated() { #expect(token.ordinal == index, "\(token)") }
    }

    @Test(arguments: [
        (#""phrases":{"a":["wechat","{amount}","{amount}"]},"defaultPhrase":"a""#, "phrases.a", "twice"),
        (#""phrases":{"a":["wechat","{amount}"]},"defaultPhrase":"b""#, "defaultPhrase", "not one of the phrases"),
        (#""phrases":{"a":["wechat","{amount}"]}"#, "defaultPhrase", "required with phrases"),
        (#""defaultPhrase":"a""#, "defaultPhrase", "without phrases"),
        (#""phrases":{"a":["5","{amount}"]},"defaultPhrase":"a""#, "phrases.a", "token of zh-Hans"),
        (#""phrases":{"a":["Wechat"]},"defaultPhrase":"a""#, "phrases.a", "neither"),
        (#""phrases":{"A":["wechat"]},"defaultPhrase":"A""#, "phrases", "not a phrase id"),
        (#""phrases":{"a":[]},"defaultPhrase":"a""#, "phrases.a", "says nothing"),
        (#""phrases":{},"defaultPhrase":"a""#, "phrases", "no phrase"),
        (#""phrases":{"a":"wechat"},"defaultPhrase":"a""#, "phrases.a", "must be an array"),
        (#""phrases":["wechat"],"defaultPhrase":"a""#, "phrases", "must be an object"),
        (#""phrases":{"a":["order"]},"defaultPhrase":"a""#, "texts.order", "is missing"),
    ])
    func refusesPhrasesThatCannotBeSaid(_ fields: String, _ field: String, _ message: String) {
        let json = #"{"id":"p","version":"1.0.0","grammar":"zh-Hans","maxAmount":"100","clips":{},"texts":{"wechat":"微信到账"},"# + fields + "}"
        #expect {
            try PackFile(json: Data(json.utf8))
        } throws: { error in
            guard let error = error as? PackFileError else { return false }
            return error.field == field && error.message.contains(message)
        }
    }

    @Test func aPackWithoutPhrasesHasTheOneImplicitPhrase() throws {
        let pack = try PackFile(json: Data(#"{"id":"p","version":"1.0.0","grammar":"zh-Hans","maxAmount":"100","clips":{"suffix":"s.caf"},"defaultPhrase":"default"}"#.utf8))
        let book = pack.phrasebook
        #expect(!book.isDeclared)
        #expect(book.phrases.map(\.pieces) == [["prefix", "{amount}", "suffix"]])
        #expect(book.announcement(phrase: nil)?.tokens(for: try Amount(parsing: "15.40")) == [.prefix, .ten, .five, .point, .four, .yuan, .suffix])
    }

    // MARK: - Reading, coverage and the worst case

    @Test func eachPhraseFramesTheReading() throws {
        let pack = try Self.merchant()
        let book = pack.phrasebook
        let amount = try Amount(parsing: "15.40")
        func said(_ id: String) throws -> String {
            let announcement = try #require(book.announcement(phrase: id))
            return pack.grammar.text(of: announcement.tokens(for: amount), texts: pack.texts)
        }
        #expect(try said("alipay") == "支付宝到账十五点四元")
        #expect(try said("wechat") == "微信到账十五点四元")
        #expect(try said("refund") == "退款十五点四元")
        #expect(try said("order") == "您有一笔新订单")
        #expect(book.announcement(phrase: nil)?.phrase.id == "wechat")
        #expect(book.announcement(phrase: "nope") == nil)
        #expect(book.announcement(phrase: "refund")?.alertText(for: amount, texts: pack.texts) == "退款15.40元")
        #expect(book.announcement(phrase: "order")?.alertText(for: amount, texts: pack.texts) == "您有一笔新订单")
    }

    @Test func coverageIsEveryPhrasesClipsAndTheReading() throws {
        let pack = try Self.merchant()
        let needed = pack.phrasebook.requiredTokens(upTo: pack.maxAmount).map(\.rawValue)
        #expect(Set(needed) == Set(pack.clips.keys).subtracting(["亿"]))  // 亿 only from 10^8 on
        // A book whose phrases say no amount needs no digit.
        let silent = try Phrasebook(grammar: Grammar(.zhHans), declared: ["order": ["order"]], defaultPhrase: "order")
        #expect(silent.requiredTokens(upTo: pack.maxAmount).map(\.rawValue) == ["order"])
    }

    /// The worst case over every phrase, against enumerating every phrase and amount.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func theCostliestPhraseAndAmountAgreeWithEnumeration(_ seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let book = try Phrasebook(grammar: Grammar(.zhHans), declared: [
            "a": ["intro", "{amount}"], "b": ["intro", "{amount}", "outro"], "c": ["long"], "d": ["outro", "intro", "{amount}"],
        ], defaultPhrase: "a")
        var costs: [Token: Int64] = [:]
        for token in book.inventory { costs[token] = Int64(rng.next() % 500) + 1 }
        // Sometimes the phrase without an amount is the longest.
        if seed % 2 == 0, let long = book.token(forKey: "long") { costs[long] = 100_000 }
        let gap = Int64(rng.next() % 50)
        func cost(_ tokens: [Token]) -> Int64 { tokens.reduce(0) { $0 + costs[$1]! } + gap * Int64(max(tokens.count - 1, 0)) }
        let maximum = try Amount(parsing: "1200")
        var expected: Int64 = 0
        for phrase in book.phrases {
            let announcement = book.announcement(phrase)
            let amounts = phrase.saysAmount ? Array(0...maximum.minorUnits) : [0]
            for units in amounts { expected = max(expected, cost(announcement.tokens(for: Amount(minorUnits: units)))) }
        }
        let found = book.costliest(upTo: maximum, cost: { costs[$0]! }, gap: gap)
        #expect(found.cost == expected)
        let announcement = book.announcement(found.phrase)
        #expect(found.tokens == (found.amount.map(announcement.tokens) ?? announcement.frame([])))
        #expect((found.amount == nil) == !found.phrase.saysAmount)
    }

    // MARK: - The phone

    static func sharedManifest() throws -> SharedManifest {
        let pack = try merchant()
        var clips: [Token: SharedPack.Clip] = [:]
        for (key, path) in pack.clips {
            let token = try #require(pack.phrasebook.token(forKey: key))
            let file = (path as NSString).lastPathComponent
            clips[token] = SharedPack.Clip(file: file, bytes: 4, sha256: PortableSHA256().sha256Hex(Data("clip".utf8)), durationSeconds: 0.3,
                                           url: URL(string: "https://cdn.example.com/merchant/1.0.0/clips/\(file)"))
        }
        let shared = SharedPack(id: "merchant", version: "1.0.0", grammar: pack.grammar, maxAmount: pack.maxAmount, texts: pack.texts, yanked: false,
                                clips: clips, phrasebook: pack.phrasebook)
        return SharedManifest(bundledFiles: [], packs: ["merchant": shared])
    }

    @Test func theExportedManifestCarriesThePhrases() throws {
        let manifest = try Self.sharedManifest()
        for encoding in SharedManifest.Encoding.allCases {
            let read = try SharedManifest(data: try manifest.encoded(as: encoding))
            #expect(read == manifest, "\(encoding)")
            #expect(read.packs["merchant"]?.phrasebook.defaultID == "wechat")
        }
    }

    @Test func thePhonePlansThePhraseThePushNames() throws {
        let planner = try ClipPlanner(manifest: try Self.sharedManifest(), packID: "merchant")
        let refund = try planner.plan(amount: "15.40", phrase: "refund")
        #expect(refund.clips.map(\.file) == ["refund.caf", "shi.caf", "5.caf", "dian.caf", "4.caf", "yuan.caf"])
        #expect(refund.phrase == "refund")
        #expect(refund.soundName == "soundpack-merchant-1.0.0-refund.15.40.caf")
        // Caches never mix phrases: the same amount of another phrase has another name.
        let wechat = try planner.plan(amount: "15.40", phrase: nil)
        #expect(wechat.phrase == "wechat")
        #expect(wechat.soundName == "soundpack-merchant-1.0.0-wechat.15.40.caf")
        // A phrase the pack does not have falls back to the default phrase.
        #expect(try planner.plan(amount: "15.40", phrase: "gift") == wechat)
        // A phrase without an amount plays its clips, whatever amount came along.
        let order = try planner.plan(amount: nil, phrase: "order")
        #expect(order.clips.map(\.file) == ["order.caf"])
        #expect(order.amount == nil)
        #expect(order.soundName == "soundpack-merchant-1.0.0-order.caf")
        #expect(try planner.plan(amount: "3", phrase: "order") == order)
        #expect(throws: PlanError.noAmount(phrase: "alipay")) { try planner.plan(amount: nil, phrase: "alipay") }
        // Out of time, the phrase's own clips already on the phone.
        let bundled = try ClipPlanner(manifest: try Self.sharedManifest(), packID: "merchant", bundledFiles: ["refund.caf"])
        let framing = try bundled.framingPlan(phrase: "refund")
        #expect(framing.clips.map(\.file) == ["refund.caf"])
        #expect(framing.soundName == "soundpack-merchant-1.0.0-refund.framing.caf")
        #expect(throws: PlanError.self) { try bundled.framingPlan(phrase: "alipay") }
    }

    @Test func aStoreManifestWhosePhrasesDoNotFitIsRefused() throws {
        let good = try JSONSerialization.jsonObject(with: Data(#"""
            {"schemaVersion":1,"id":"p","version":"1.0.0","grammar":"zh-Hans","two":"er","maxAmount":"100","profile":"ios-notification",
             "texts":{"hi":"您好"},"digest":"00","clips":{},"packJSON":{"file":"pack.json","bytes":1,"sha256":"00"},"archives":{},
             "phrases":{"hi":["hi"]},"defaultPhrase":"hi"}
            """#.utf8)) as! [String: Any]
        #expect(try ManifestRefresher.decodeManifest(try JSONSerialization.data(withJSONObject: good)).phrasebook.defaultID == "hi")
        for (key, value) in [("defaultPhrase", "nope" as Any), ("phrases", ["hi": ["5"]] as Any), ("phrases", ["hi": ["{amount}", "{amount}"]] as Any)] {
            var bad = good
            bad[key] = value
            #expect(throws: ManifestDecodingError.self) { try ManifestRefresher.decodeManifest(try JSONSerialization.data(withJSONObject: bad)) }
        }
    }
}

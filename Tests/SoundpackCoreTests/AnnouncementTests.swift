// Announcement framing: the one definition of prefix + reading + suffix the tool and the phone share.

import Foundation
import Testing
@testable import SoundpackCore

@Suite struct AnnouncementTests {
    static let amount = Amount(minorUnits: 1_540)  // 15.40

    @Test func aPackFramesWithItsPrefixAndOptionalSuffix() {
        let grammar = Grammar(.zhHans)
        #expect(Announcement(grammar: grammar, hasSuffix: false).tokens(for: Self.amount) == [.prefix, .ten, .five, .point, .four, .yuan])
        #expect(Announcement(grammar: grammar, hasSuffix: true).tokens(for: Self.amount) == [.prefix, .ten, .five, .point, .four, .yuan, .suffix])
        #expect(Announcement.readingOnly(grammar).tokens(for: Self.amount) == grammar.tokens(for: Self.amount))
    }

    /// A push's alert text is framed as the clips are: a pack with a suffix clip writes its text too.
    @Test func theAlertTextIsFramedLikeTheClips() {
        let texts = ["prefix": "微信到账", "suffix": "，请查收"]
        #expect(Announcement(grammar: Grammar(.zhHans), hasSuffix: false).alertText(for: Self.amount, texts: texts) == "微信到账15.40元")
        #expect(Announcement(grammar: Grammar(.zhHant), hasSuffix: true).alertText(for: Self.amount, texts: texts) == "微信到账15.40元，请查收")
        #expect(Announcement.readingOnly(Grammar(.zhHans)).alertText(for: Self.amount, texts: texts) == "15.40元")
    }

    @Test func requiredTokensAreTheReachableOnesAndTheFrame() throws {
        let grammar = Grammar(.zhHans, two: .liang)
        let maximum = try Amount(parsing: "9999")
        let plain = Announcement(grammar: grammar, hasSuffix: false).requiredTokens(upTo: maximum)
        #expect(plain == grammar.reachableTokens(upTo: maximum).union([.prefix]))
        #expect(Announcement(grammar: grammar, hasSuffix: true).requiredTokens(upTo: maximum) == plain.union([.suffix]))
    }

    /// The costliest announcement with a gap between clips, against every amount up to 120.00.
    @Test func costliestCountsTheFrameAndTheGaps() throws {
        let announcement = Announcement(grammar: Grammar(.zhHans), hasSuffix: true)
        var costs: [Token: Int64] = [:]
        var rng = SplitMix64(seed: 99)
        for token in Token.allCases { costs[token] = Int64(rng.next() % 500) + 100 }
        let gap: Int64 = 37
        func cost(_ tokens: [Token]) -> Int64 { tokens.reduce(0) { $0 + costs[$1]! } + gap * Int64(tokens.count - 1) }
        let maximum = try Amount(parsing: "120")
        let expected = (0...maximum.minorUnits).map { cost(announcement.tokens(for: Amount(minorUnits: $0))) }.max()
        let found = announcement.costliest(upTo: maximum, cost: { costs[$0]! }, gap: gap)
        #expect(found.cost == expected)
        #expect(found.tokens == announcement.tokens(for: try #require(found.amount)))
    }

    @Test func thePackManifestAndTheSharedPackFrameAlike() throws {
        let manifest = try PackFile(json: Data(#"{"id":"p","version":"1.0.0","grammar":"zh-Hans","maxAmount":"100","clips":{"suffix":"s.caf"}}"#.utf8))
        let shared = SharedPack(id: "p", version: "1.0.0", grammar: manifest.grammar, maxAmount: manifest.maxAmount, texts: [:], yanked: false,
                                clips: [.suffix: SharedPack.Clip(file: "s.caf", bytes: 1, sha256: "", durationSeconds: 0)])
        #expect(manifest.announcement == shared.announcement)
        #expect(manifest.announcement.phrase.after == [.suffix])
    }
}

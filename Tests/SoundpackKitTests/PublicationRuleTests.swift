// The publication rules judge a candidate version by what publish learnt of the published ones:
// each refuses on its own facts, and the first refusal in order is the one publish reports.

import SoundpackCore
@testable import SoundpackValidation
import Testing

@Suite struct PublicationRuleTests {
    static func candidate(_ version: String = "1.1.0", digest: String = String(repeating: "a", count: 64)) -> PublicationCandidate {
        PublicationCandidate(id: "wechat", version: SemanticVersion(version)!, digest: digest, store: "/srv/store")
    }

    @Test func theSameVersionWithOtherContentIsAConflictNamingBothDigests() {
        var candidate = Self.candidate()
        candidate.existing = .init(place: .catalog, digest: String(repeating: "b", count: 64), yanked: true)
        let refusal = candidate.refusal
        #expect(refusal?.rule == .catalogVersionConflict, "a conflict comes before the yank")
        #expect(refusal?.message == "wechat@1.1.0 is already published in the store /srv/store with other content (digest bbbbbbbbbbbb, this pack aaaaaaaaaaaa); published versions never change — bump the version in pack.json")
        candidate.existing?.place = .thisRun
        #expect(candidate.refusal?.message.hasPrefix("wechat@1.1.0 comes twice in this run") == true)
    }

    @Test func theSameContentYankedIsRefusedWithTheReasonAndUnyankedIsNot() {
        var candidate = Self.candidate()
        candidate.existing = .init(place: .catalog, digest: candidate.digest, yanked: true, yankReason: "wrong 5")
        #expect(candidate.refusal?.rule == .catalogVersionYanked)
        #expect(candidate.refusal?.message.contains("(wrong 5)") == true)
        candidate.existing?.yanked = false
        #expect(candidate.refusal == nil)
    }

    @Test func aVersionNotAboveTheNewestIsRefusedAndOneAboveIsNot() {
        var candidate = Self.candidate("1.0.0")
        candidate.newest = SemanticVersion("1.0.0")
        #expect(candidate.refusal?.rule == .catalogVersionNotNewer)
        candidate.newest = SemanticVersion("0.9.0")
        #expect(candidate.refusal == nil)
    }

    @Test func aBumpSmallerThanTheChangeIsRefusedWithEachReason() {
        var candidate = Self.candidate("1.0.1")
        candidate.newest = SemanticVersion("1.0.0")
        var change = VersionChange(from: Self.facts("1.0.0", tokens: ["1", "2"]), to: Self.facts("1.0.1", tokens: ["1"]))
        candidate.change = change
        #expect(candidate.refusal?.rule == .catalogVersionBump)
        #expect(candidate.refusal?.message == "wechat@1.0.1 is a patch bump from 1.0.0, but tokens removed (2) needs a major bump")
        change.items = []
        candidate.change = change
        #expect(candidate.refusal == nil)
    }

    static func facts(_ version: String, tokens: [String]) -> VersionFacts {
        let clips = Dictionary(uniqueKeysWithValues: tokens.map { ($0, VersionFacts.Clip(sha256: $0, format: nil)) })
        return VersionFacts(version: SemanticVersion(version)!, digest: version, grammar: Grammar(.zhHans), maxAmount: Amount(minorUnits: 10_000_000),
                            clips: clips)
    }
}

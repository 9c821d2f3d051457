// The bump rule's facts come from one constructor, so a validated pack and its catalog record
// compare equal, and a format change is seen as one.

import Foundation
import Testing
import SoundpackCore
import SoundpackTestSupport
@testable import SoundpackKit

@Suite struct VersionChangeTests {
    @Test func aValidatedPackAndItsRecordHaveTheSameFacts() throws {
        let folder = TemporaryFolder()
        let catalog = try SQLiteCatalog(path: folder.file("catalog.sqlite"))
        let report = Validator().validate(folder: PackFolder(absolute: Fixtures.demoPack))
        try catalog.recordValidations([report], strict: false, toolVersion: "test", at: Date())
        let record = try #require(try catalog.versionRecord(of: "wechat", SemanticVersion("1.0.0")!))
        let fromReport = try #require(VersionFacts(report))
        // The catalog keeps the texts and phrases too (migration 7): the record says all the pack says.
        #expect(VersionFacts(record) == fromReport)
        #expect(VersionChange(from: VersionFacts(record), to: fromReport).items.isEmpty)
    }

    @Test func aSampleRateChangeNeedsAMajorBump() throws {
        let base = try #require(VersionFacts(Validator().validate(folder: PackFolder(absolute: Fixtures.demoPack))))
        var changed = base
        changed.version = SemanticVersion("1.1.0")!
        changed.clips = base.clips.mapValues { clip in
            var clip = clip
            clip.format?.sampleRate = 16_000
            return clip
        }
        let change = VersionChange(from: base, to: changed)
        #expect(change.required == .major)
        #expect(change.items.map(\.detail) == ["22050 Hz, mono, lpcm → 16000 Hz, mono, lpcm"])
    }

    @Test func liangAfterErIsAGrammarChange() throws {
        let base = try #require(VersionFacts(Validator().validate(folder: PackFolder(absolute: Fixtures.demoPack))))
        var changed = base
        changed.grammar = Grammar(.zhHans, two: .liang)
        #expect(VersionChange(from: base, to: changed).items.first?.detail == "zh-Hans two=er → zh-Hans two=liang")
    }
}

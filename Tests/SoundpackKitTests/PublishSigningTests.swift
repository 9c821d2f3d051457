// What publish says it signed: how many versions, which already published ones stay unsigned or
// signed by another key, and nothing from the store reaches the terminal unescaped.

@testable import SoundpackKit
@testable import SoundpackPublish
import Testing

@Suite struct PublishSigningTests {
    @Test func theSummaryNamesWhatStaysUnsignedAndEscapesStoreText() {
        let signing = PublishSigning(keyID: "2ec3f17a43e8aea1", signed: ["a@1.0.1"],
                                     alreadyPublished: [("b@1.0.0", nil), ("c@2.0.0", "2ec3f17a43e8aea1"), ("d@1.0.0", "\u{1B}[2Jforged")])
        #expect(signing.summary == "1 version signed with key 2ec3f17a43e8aea1: b@1.0.0 already published unsigned; d@1.0.0 (key \\u{1B}[2Jforged) already published signed by another key; a published version never changes (publish a new version to sign it)")
        #expect(PublishSigning(keyID: "k", signed: [], alreadyPublished: []).summary == "0 versions signed with key k")
    }
}

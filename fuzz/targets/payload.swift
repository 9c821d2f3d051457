// Fuzz target: push payload bytes through `payload lint`, with and without the published packs;
// and the same bytes as an S3 server's XML answer (a listing, an error), as the S3 store reads it.
import Foundation
import SoundpackCore
@testable import SoundpackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayload(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    for name in ["Key", "IsTruncated", "NextContinuationToken", "Code", "Message"] {
        for value in S3Store.xmlValues(name, in: bytes) { precondition(!value.contains("</\(name)>"), "an element's text never holds its closing tag") }
    }
    let facts = PushPayload.PackFacts(maxAmount: Amount(minorUnits: 9_999_999_999), yanked: false,
                                      phrasebook: Phrasebook(grammar: Grammar(.zhHans), hasSuffix: false), clipKeys: Set(Grammar(.zhHans).inventory.map(\.rawValue)))
    for packs in [nil, ["wechat@1.0.0": facts]] as [[String: PushPayload.PackFacts]?] {
        for finding in PushPayload.lint(bytes, packs: packs) { _ = finding.message.visible }
    }
    return 0
}

// Fuzz target: push payload bytes through `payload lint`, with and without the published packs;
// and the same bytes as an S3 server's XML answers (a listing, an error), as the S3 store reads
// them: split at NUL bytes into listing pages that a server sends round and round, which must end
// the listing (or refuse it) before a page comes twice.
import Foundation
import SoundpackCore
@testable import SoundpackKit
@testable import SoundpackStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayload(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    for name in ["Key", "IsTruncated", "NextContinuationToken", "Code", "Message"] {
        // As written: a decoded text may hold `</Key>` (`&lt;/Key&gt;`); what was written may not.
        for element in S3Store.xmlElements(name, in: [UInt8](bytes)[...]) {
            precondition(element.firstRange(of: Array("</\(name)>".utf8)) == nil, "an element's text never holds its closing tag")
            _ = S3Store.xmlText(element)
        }
        _ = S3Store.xmlValues(name, in: bytes)
    }
    let pages = bytes.split(separator: 0, omittingEmptySubsequences: false).map { Data($0) }
    // Half the inputs also keep each object's size and ETag (a version folder's listing).
    var listing = S3Listing(prefix: "voice/", location: "s3://bucket/voice", endpoint: "http://127.0.0.1", facts: size % 2 == 0)
    var asked = 0
    listing: while true {
        do throws(SoundpackError) {
            guard try listing.add(page: pages[asked % pages.count]) != nil else { break listing }
        } catch { break listing }
        asked += 1
        precondition(asked <= pages.count, "a listing whose pages come round again ends")
    }
    for (_, object) in listing.objects {
        precondition(object.bytes >= 0, "a listed size is never negative")
        if let md5 = object.md5 { precondition(md5.utf8.count == 32 && md5.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }, "an MD5 is 32 lowercase hex digits") }
    }
    let facts = PushPayload.PackFacts(maxAmount: Amount(minorUnits: 9_999_999_999), yanked: false,
                                      phrasebook: Phrasebook(grammar: Grammar(.zhHans), hasSuffix: false), clipKeys: Set(Grammar(.zhHans).inventory.map(\.rawValue)))
    for packs in [nil, ["wechat@1.0.0": facts]] as [[String: PushPayload.PackFacts]?] {
        for finding in PushPayload.lint(bytes, packs: packs) { _ = finding.message.visible }
    }
    return 0
}

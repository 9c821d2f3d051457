// Fuzz target: push payload bytes through `payload lint`, with and without the published packs.
import Foundation
import SoundpackCore
@testable import SoundpackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayload(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    for packs in [nil, ["wechat@1.0.0": Amount(minorUnits: 9_999_999_999)]] as [[String: Amount]?] {
        for finding in PushPayload.lint(bytes, packs: packs) { _ = finding.message.visible }
    }
    return 0
}

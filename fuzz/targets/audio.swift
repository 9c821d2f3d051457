// Fuzz target: clip bytes (WAV, AIFF, CAF, IMA4 CAF, anything) through sniffing, header parsing,
// decoding and every meter; all figures must be finite numbers.
import Foundation
@testable import SoundpackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAudio(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let facts = try? AudioProbe().probe(bytes: bytes) else { return 0 }
    for figure in [facts.durationSeconds, facts.leadingSilenceMs, facts.trailingSilenceMs, facts.dcOffsetPercent]
        + [facts.peakDbfs, facts.truePeakDbtp, facts.momentaryMaxLufs].compactMap({ $0 }) {
        precondition(figure.isFinite, "a measured figure is not a number")
    }
    precondition((try? StoreJSON.encode(facts)) != nil, "the facts of a readable clip are JSON")
    return 0
}

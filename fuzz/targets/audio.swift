// Fuzz target: clip bytes (WAV, AIFF, CAF, IMA4 CAF, anything) through sniffing, header parsing,
// decoding and every meter; all figures must be finite numbers. The clip is also probed side by
// side with a short and a long tone, and twice among both (mono clips of one rate share the
// K-weighting's lanes, up to four), and must get the facts it gets alone. Probed keeping its
// samples for a recogniser, it gets the same facts, and its speech is 16 kHz samples of its length.
import Foundation
@testable import SoundpackKit

/// A mono 16-bit WAV of `frames` frames of a 440 Hz tone at 22,050 Hz.
private func tone(frames: Int) -> [UInt8] {
    func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    let data = (0..<frames).flatMap { le(Int(12_000 * sin(2 * Double.pi * 440 * Double($0) / 22_050)), 2) }
    return Array("RIFF".utf8) + le(36 + data.count, 4) + Array("WAVEfmt ".utf8) + le(16, 4) + le(1, 2) + le(1, 2)
        + le(22_050, 4) + le(44_100, 4) + le(2, 2) + le(16, 2) + Array("data".utf8) + le(data.count, 4) + data
}

private let companions = [tone(frames: 900), tone(frames: 12_000)]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAudio(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let probe = AudioProbe()
    for group in [[bytes, companions[0]], [bytes, companions[1]], [companions[0], bytes, companions[1], bytes]] {
        for (result, clip) in zip(AudioProbe.probe(together: group.map { (probe, $0) }), group) {
            precondition((try? result.get()) == (try? probe.probe(bytes: clip)), "a clip probed side by side has other facts than alone")
        }
    }
    guard let facts = try? probe.probe(bytes: bytes) else { return 0 }
    for figure in [facts.durationSeconds, facts.leadingSilenceMs, facts.trailingSilenceMs, facts.dcOffsetPercent]
        + [facts.peakDbfs, facts.truePeakDbtp, facts.momentaryMaxLufs].compactMap({ $0 }) {
        precondition(figure.isFinite, "a measured figure is not a number")
    }
    precondition((try? StoreJSON.encode(facts)) != nil, "the facts of a readable clip are JSON")
    var listening = probe
    listening.keepsSpeech = true
    if let heard = try? listening.probe(bytes: bytes) {
        precondition(heard == facts, "keeping the samples changed the facts")
        let expected = Double(facts.frames) * 16_000 / Double(facts.sampleRate)
        precondition(abs(Double(heard.speech?.count ?? -1) - expected) <= 2 + expected * 0.01, "the speech is not the clip's length at 16 kHz")
    }
    return 0
}

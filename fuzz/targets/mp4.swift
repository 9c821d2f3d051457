// Fuzz target: bytes through the MP4/M4A reader: the sniffer and its box walk (which names the
// codec without FFmpeg), then FFmpeg's MP4 demuxer and AAC/ALAC decoders over our own AVIOContext,
// the caps and every meter. Anything may be refused; nothing may trap, leak or read outside the
// bytes, and a clip that decodes has finite figures within the caps.
import Foundation
@testable import SoundpackAudio
@testable import SoundpackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMP4(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if ContainerSniffer.container(of: bytes) == .mp4 {
        precondition(!ContainerSniffer.mp4Audio(of: bytes).isEmpty)
        // Without FFmpeg the probe refuses an MP4 as a format iOS does not play, always.
        do { _ = try AudioProbe().probe(bytes: bytes); preconditionFailure("an MP4 clip was probed without decodesMP4") } catch {
            guard case .unsupportedFormat = error.kind else { preconditionFailure("an MP4 clip refused as \(error.kind)") }
        }
    }
    var probe = AudioProbe()
    probe.decodesMP4 = true
    guard let facts = try? probe.probe(bytes: bytes) else { return 0 }
    precondition(facts.frames < Int64(probe.limits.maxSeconds) * Int64(facts.sampleRate), "a clip over the length cap was read")
    for figure in [facts.durationSeconds, facts.leadingSilenceMs, facts.trailingSilenceMs, facts.dcOffsetPercent]
        + [facts.peakDbfs, facts.truePeakDbtp, facts.momentaryMaxLufs].compactMap({ $0 }) {
        precondition(figure.isFinite, "a measured figure is not a number")
    }
    return 0
}

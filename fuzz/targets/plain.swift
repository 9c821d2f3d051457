// Fuzz target: CAF and WAV bytes through the plain-sample decoder and libsndfile side by side.
// Whenever ours takes a file, libsndfile must open it too and give the same format and the same
// samples, read in chunks of odd sizes; a file ours leaves alone is libsndfile's, as before.
@testable import SoundpackAudio

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlain(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let container = ContainerSniffer.container(of: bytes)
    let plain: PlainDecoder?
    switch container {
    case .caf?: plain = (try? CAFFile(bytes)).flatMap { PlainDecoder.caf(bytes, $0) }
    case .wav?: plain = PlainDecoder.wav(bytes)
    default: plain = nil
    }
    guard let plain, let container else { return 0 }
    guard let library = try? SndFileDecoder(bytes: bytes, container: container) else {
        preconditionFailure("the plain decoder reads a file libsndfile refuses")
    }
    precondition(plain.format == library.format, "formats differ: \(plain.format) against libsndfile's \(library.format)")
    func drain(_ decoder: AudioDecoder, chunk: Int) -> [Float] {
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: chunk * decoder.format.channels)
        defer { buffer.deallocate() }
        var samples: [Float] = []
        while let read = try? decoder.read(into: buffer), read > 0 { samples += buffer.prefix(read * decoder.format.channels) }
        return samples
    }
    let ours = drain(plain, chunk: 97), theirs = drain(library, chunk: 1_024)
    precondition(ours.count == theirs.count && zip(ours, theirs).allSatisfy { $0.bitPattern == $1.bitPattern }, "samples differ from libsndfile's")
    return 0
}

// Fuzz target: CAF bytes through the G.711 table decoder and libsndfile side by side. Whenever the
// table takes a file, libsndfile must open it too and give the same format and the same samples,
// read in chunks of odd sizes; a file the table leaves alone is libsndfile's, as before.
@testable import SoundpackAudio

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzG711(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard ContainerSniffer.container(of: bytes) == .caf, let caf = try? CAFFile(bytes),
          let table = G711Decoder(bytes: bytes, caf: caf) else { return 0 }
    guard let library = try? SndFileDecoder(bytes: bytes, container: .caf) else {
        preconditionFailure("the table decodes a file libsndfile refuses")
    }
    precondition(table.format == library.format, "formats differ: \(table.format) against libsndfile's \(library.format)")
    func drain(_ decoder: AudioDecoder, chunk: Int) -> [Float] {
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: chunk * decoder.format.channels)
        defer { buffer.deallocate() }
        var samples: [Float] = []
        while let read = try? decoder.read(into: buffer), read > 0 { samples += buffer.prefix(read * decoder.format.channels) }
        return samples
    }
    let ours = drain(table, chunk: 97), theirs = drain(library, chunk: 1_024)
    precondition(ours.count == theirs.count && zip(ours, theirs).allSatisfy { $0.bitPattern == $1.bitPattern }, "samples differ from libsndfile's")
    return 0
}

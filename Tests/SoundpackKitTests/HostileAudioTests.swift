// Hostile audio files: sizes, counts and offsets read from a file never trap, and samples that are
// not numbers never reach a meter or a JSON encoder. Each test builds a member of the class.

import Foundation
import Testing
import SoundpackCore
import SoundpackTestSupport
@testable import SoundpackKit

@Suite struct HostileAudioTests {
    static func probe(_ bytes: [UInt8], name: String = "clip.caf") throws -> Result<ClipFacts, AudioError> {
        let folder = TemporaryFolder()
        let path = folder.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do { return .success(try AudioProbe().probe(path: path)) } catch { return .failure(error) }
    }

    static let packet = [UInt8](repeating: 0x11, count: 34)

    /// Chunk sizes near Int64.max, negative ones, and -1 ("to the end") with nothing after it.
    @Test(arguments: [Int64.max, Int64.max - 3, 1 << 62, -2, Int64.min, 2, 3])
    func aDataChunkSizeFromTheFileIsCheckedBeforeArithmetic(_ size: Int64) throws {
        let bytes = Fixtures.caf([("desc", 32, Fixtures.ima4Description()), ("data", size, [0, 0, 0, 0] + Self.packet)])
        guard case .failure(let error) = try Self.probe(bytes) else { Issue.record("\(size) accepted"); return }
        #expect(error.message.contains("data") || error.message.contains("truncated"), "\(error.message)")
    }

    @Test func aDataChunkToTheEndWithNoRoomForItsEditCountIsRefused() throws {
        let bytes = Fixtures.caf([("desc", 32, Fixtures.ima4Description()), ("data", -1, [0, 0])])
        guard case .failure(let error) = try Self.probe(bytes) else { Issue.record("accepted"); return }
        #expect(error.message.contains("edit count"))
    }

    /// Packet tables whose valid and priming frames overflow when added, or exceed the data.
    @Test(arguments: [(Int64.max, Int32(1_000)), (Int64.max, Int32(0)), (Int64.max - 500, Int32(1_000)), (Int64(65), Int32(0))])
    func aPacketTableThatOverflowsIsRefused(_ valid: Int64, _ priming: Int32) throws {
        func be(_ v: Int64, _ w: Int) -> [UInt8] { (0..<w).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let pakt = be(1, 8) + be(valid, 8) + be(Int64(priming), 4) + be(0, 4)
        let bytes = Fixtures.caf([("desc", 32, Fixtures.ima4Description()), ("pakt", 24, pakt), ("data", 38, [0, 0, 0, 0] + Self.packet)])
        guard case .failure(let error) = try Self.probe(bytes) else { Issue.record("\(valid) accepted"); return }
        #expect(error.message.contains("packet table"))
    }

    static func nonFiniteTone(_ bad: Float, every: Int) -> [Float] {
        var samples = Fixtures.tone(seconds: 0.5)
        for index in stride(from: 50, to: samples.count, by: every) { samples[index] = bad }
        return samples
    }

    @Test(arguments: [Float.nan, .infinity, -.infinity, 1e30, -1e30, Float.greatestFiniteMagnitude])
    func samplesThatAreNotNumbersAreCountedAndNeverMeasured(_ bad: Float) throws {
        let bytes = Fixtures.floatWAV(Self.nonFiniteTone(bad, every: 100))
        let facts = try Self.probe(bytes, name: "clip.wav").get()
        let nonFinite = try #require(facts.nonFinite)
        #expect(nonFinite.firstFrame == 50)
        #expect(nonFinite.count == (facts.frames - 50 + 99) / 100)
        for figure in [facts.peakDbfs, facts.truePeakDbtp, facts.momentaryMaxLufs, facts.leadingSilenceMs, facts.dcOffsetPercent] {
            #expect(figure?.isFinite != false)
        }
        // Every figure is a JSON number: the encoder does not fail.
        #expect(try JSONEncoder().encode(facts).count > 100)
    }

    @Test func aCleanFloatClipHasNoNonFiniteFacts() throws {
        let facts = try Self.probe(Fixtures.floatWAV(Fixtures.tone(seconds: 0.3, amplitude: 1.5)), name: "clip.wav").get()
        #expect(facts.nonFinite == nil)
    }
}

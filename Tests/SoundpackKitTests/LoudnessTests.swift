// Loudness figures against ffmpeg's ebur128 filter, recorded in a fixture (not run at test time).

import Foundation
import Testing
import SoundpackTestSupport
@testable import SoundpackKit

@Suite struct LoudnessTests {
    struct Reference: Decodable, Sendable {
        var file: String
        var momentaryMaxLufs: Double
        var truePeakDbtp: Double
    }

    static let references: [Reference] = {
        guard let url = Bundle.module.url(forResource: "Fixtures/loudness-ffmpeg", withExtension: "json"),
              let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode([Reference].self, from: data)) ?? []
    }()

    @Test func theFixtureCoversShortLongMonoAndStereoClips() {
        #expect(Self.references.count >= 20)
    }

    @Test(arguments: references)
    func matchesFFmpegWithinHalfALU(_ reference: Reference) throws {
        let facts = try AudioProbe().probe(path: Fixtures.repositoryRoot + "/" + reference.file)
        let loudness = try #require(facts.momentaryMaxLufs)
        let truePeak = try #require(facts.truePeakDbtp)
        #expect(abs(loudness - reference.momentaryMaxLufs) <= 0.5, "\(reference.file): \(loudness) vs ffmpeg \(reference.momentaryMaxLufs)")
        #expect(abs(truePeak - reference.truePeakDbtp) <= 0.5, "\(reference.file): \(truePeak) vs ffmpeg \(reference.truePeakDbtp)")
    }

    @Test func levelFiguresFollowTheSignal() throws {
        let folder = TemporaryFolder()
        let quiet = folder.file("quiet.wav"), loud = folder.file("loud.wav"), dc = folder.file("dc.wav"), clipped = folder.file("clipped.wav")
        try Fixtures.writeClip(Fixtures.tone(seconds: 0.5, amplitude: 0.1), to: quiet, container: .wav)
        try Fixtures.writeClip(Fixtures.tone(seconds: 0.5, amplitude: 0.5), to: loud, container: .wav)
        try Fixtures.writeClip(Fixtures.tone(seconds: 0.5, amplitude: 0.3, offset: 0.02), to: dc, container: .wav)
        try Fixtures.writeClip(Fixtures.tone(seconds: 0.5, amplitude: 1.6), to: clipped, container: .wav)
        let probe = AudioProbe()
        let q = try probe.probe(path: quiet), l = try probe.probe(path: loud)
        // Five times the amplitude is 13.98 dB louder, whatever the meter's absolute calibration.
        #expect(abs(((l.momentaryMaxLufs ?? 0) - (q.momentaryMaxLufs ?? 0)) - 13.98) < 0.1)
        #expect(abs(q.dcOffsetPercent) < 0.05)
        #expect(q.clippedRuns == 0)
        let shifted = try probe.probe(path: dc)
        #expect(abs(shifted.dcOffsetPercent - 2 * 0.5 / 0.52) < 0.3)  // 2 % over the tone, diluted by its silent edges
        #expect(try probe.probe(path: clipped).clippedRuns > 100)
        #expect(try probe.probe(path: clipped).truePeakDbtp ?? -10 > -0.5)
    }
}

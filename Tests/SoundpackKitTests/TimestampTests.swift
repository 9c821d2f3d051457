// The catalog's dates are read as `Date` and printed again: the text printed is the text the
// catalog holds, to the byte, for every millisecond.

import Foundation
import SoundpackKit
import SoundpackSupport
import Testing

@Suite struct TimestampTests {
    /// The catalog's text of `milliseconds` since 1970, as it was always written.
    static func written(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    @Test func aTimestampPrintsAsItWasRead() throws {
        // .580 is no binary fraction: read as the nearest double it would print .579.
        for text in ["2026-11-30T15:47:58.580Z", "2026-11-30T15:47:58.000Z", "2026-11-30T15:47:58.999Z", "1970-01-01T00:00:00.000Z",
                     "2000-02-29T23:59:59.999Z", "2099-12-31T23:59:59.001Z"] {
            let date = try #require(Date(timestamp: text), "\(text)")
            #expect(date.timestamp == text)
        }
    }

    @Test func tenThousandMillisecondsRoundTrip() {
        var generator = SystemRandomNumberGenerator()
        // 1970 to 2100; every tenth value on .000 or .999, the edges of a second.
        let span: ClosedRange<Int64> = 0...4_102_444_800_000
        var failures: [String] = []
        for index in 0..<10_000 {
            var milliseconds = Int64.random(in: span, using: &generator)
            if index % 10 == 0 { milliseconds = milliseconds / 1000 * 1000 + (index % 20 == 0 ? 0 : 999) }
            let text = Self.written(milliseconds)
            if Date(timestamp: text)?.timestamp != text { failures.append(text) }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10))")
    }

    @Test func anInstantIsWrittenAsTheCatalogAlwaysWroteIt() {
        let now = Date()
        #expect(now.timestamp == now.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }

    /// Instants of 1970–9999 are written by arithmetic where that is sure to give Foundation's text
    /// (away from a millisecond's edges), and such texts are read to the instant Foundation reads.
    @Test func theArithmeticAgreesWithFoundation() {
        var written = 0, failures: [String] = []
        for index in 0..<20_000 {
            // Instants spread over the span by the golden ratio's multiples (the same ones every run),
            // or one read back from its text (the catalog's instants).
            let spread = (Double(index) * 0.618_033_988_749_894_9).truncatingRemainder(dividingBy: 1)
            var instant = Date(timeIntervalSince1970: spread * 253_402_300_800)
            if index % 2 == 0, let read = Date.foundationInstant(instant.foundationTimestamp) { instant = read }
            let text = instant.foundationTimestamp
            if let plain = instant.plainTimestamp {
                written += 1
                if plain != text { failures.append("\(instant.timeIntervalSince1970): \(plain) against \(text)") }
            }
            if Date.plainInstant(text) != Date.foundationInstant(text) { failures.append("read \(text)") }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10))")
        #expect(written > 12_000)
    }

    /// Texts the arithmetic refuses (no such day, no such time, another span): Foundation then
    /// decides, as before.
    @Test(arguments: ["2026-02-29T00:00:00.000Z", "2024-02-30T00:00:00.000Z", "2026-04-31T00:00:00.000Z", "2026-11-30T24:00:00.000Z",
                      "2026-11-30T23:60:00.000Z", "2026-11-30T23:59:60.000Z", "1969-12-31T23:59:59.999Z", "2026-00-10T00:00:00.000Z",
                      "+2026-11-30T15:47:58.580Z", "2026-11-30T15:47:58.580ZZ", "2026-11-30T15:47:58.580",
                      "99999999999999999999", "2026-11-30T15:47:58.5800000000000000000000Z", "20260-11-30T15:47:58.580Z"])
    func impossibleTextIsNotReadByArithmetic(_ text: String) {
        #expect(Date.plainInstant(text) == nil)
        #expect(Date(timestamp: text) == Date.foundationInstant(text))
    }

    /// Only the text soundpack writes is a timestamp: any other would print otherwise than it was read.
    @Test(arguments: ["", "2026-11-30T15:47:58Z", "2026-11-30T15:47:58.58Z", "2026-11-30T15:47:58.5800Z", "2026-11-30 15:47:58.580Z",
                      "2026-11-30T15:47:58.580+01:00", "2026-13-30T15:47:58.580Z", "2026-11-30T15:47:58.-01Z", "yesterday"])
    func otherTextIsNoTimestamp(_ text: String) {
        #expect(Date(timestamp: text) == nil)
    }
}


// The catalog's dates are read as `Date` and printed again: the text printed is the text the
// catalog holds, to the byte, for every millisecond.

import Foundation
import SoundpackKit
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

    /// Only the text soundpack writes is a timestamp: any other would print otherwise than it was read.
    @Test(arguments: ["", "2026-11-30T15:47:58Z", "2026-11-30T15:47:58.58Z", "2026-11-30T15:47:58.5800Z", "2026-11-30 15:47:58.580Z",
                      "2026-11-30T15:47:58.580+01:00", "2026-13-30T15:47:58.580Z", "2026-11-30T15:47:58.-01Z", "yesterday"])
    func otherTextIsNoTimestamp(_ text: String) {
        #expect(Date(timestamp: text) == nil)
    }
}

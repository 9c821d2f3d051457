// The one text form of the instants soundpack records (the catalog's dates, what list and show
// print of them): ISO 8601 in UTC to the millisecond, `2026-11-30T15:47:58.580Z`.

import Foundation

extension Date {
    /// The instant as the catalog writes it: `2026-11-30T15:47:58.580Z`, the milliseconds
    /// truncated. An instant read back with `init?(timestamp:)` prints the text it was read from.
    public var timestamp: String {
        formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// The instant `text` names, when it is a timestamp as `timestamp` writes it (and then
    /// `timestamp` gives `text` back, byte for byte); nil for any other text.
    public init?(timestamp text: String) {
        // The milliseconds are read apart, in the middle of their millisecond: a binary fraction
        // sits just below .580, and formatting truncates, so .580 itself would print .579.
        guard text.hasSuffix("Z"), let dot = text.lastIndex(of: "."),
              let seconds = try? Date(String(text[..<dot]) + "Z", strategy: Date.ISO8601FormatStyle()),
              let milliseconds = Int(text[text.index(after: dot)..<text.index(before: text.endIndex)]) else { return nil }
        self = seconds.addingTimeInterval((Double(milliseconds) + 0.5) / 1000)
        // Only the text soundpack writes: anything else would print otherwise than it was read.
        guard timestamp == text else { return nil }
    }
}

// The one text form of the instants soundpack records (the catalog's dates, what list and show
// print of them): ISO 8601 in UTC to the millisecond, `2026-11-30T15:47:58.580Z`.

import Foundation

extension Date {
    /// The instant as the catalog writes it: `2026-11-30T15:47:58.580Z`, the milliseconds
    /// truncated. An instant read back with `init?(timestamp:)` prints the text it was read from.
    public var timestamp: String {
        plainTimestamp ?? foundationTimestamp
    }

    /// The instant `text` names, when it is a timestamp as `timestamp` writes it (and then
    /// `timestamp` gives `text` back, byte for byte); nil for any other text.
    public init?(timestamp text: String) {
        guard let date = Self.plainInstant(text) ?? Self.foundationInstant(text) else { return nil }
        self = date
    }

    // A catalog of thousands of versions reads and prints thousands of these for every index it
    // writes, and Foundation's ISO 8601 style takes microseconds each; the common cases are done
    // here by arithmetic, as Foundation does them (TimestampTests holds the two against each other).

    /// Foundation's text of the instant.
    package var foundationTimestamp: String {
        formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// The instant of a timestamp, read through Foundation's ISO 8601 style.
    package static func foundationInstant(_ text: String) -> Date? {
        // The milliseconds are read apart, in the middle of their millisecond: a binary fraction
        // sits just below .580, and formatting truncates, so .580 itself would print .579.
        guard text.hasSuffix("Z"), let dot = text.lastIndex(of: "."),
              let seconds = try? Date(String(text[..<dot]) + "Z", strategy: Date.ISO8601FormatStyle()),
              let milliseconds = Int(text[text.index(after: dot)..<text.index(before: text.endIndex)]) else { return nil }
        let date = seconds.addingTimeInterval((Double(milliseconds) + 0.5) / 1000)
        // Only the text soundpack writes: anything else would print otherwise than it was read.
        return date.timestamp == text ? date : nil
    }

    /// Whether this Foundation writes an instant's milliseconds truncated, as the arithmetic does
    /// (asked once: a Foundation that rounds them leaves every instant to it).
    private static let foundationTruncates = Date(timeIntervalSince1970: 0.0006).foundationTimestamp == "1970-01-01T00:00:00.000Z"

    /// Seconds from 1970 to 10000-01-01: the years written with four digits.
    private static let endOfYear9999: Double = 253_402_300_800

    /// The text of an instant of the years 1970–9999 whose millisecond is not within a quarter of
    /// one of its edges (where truncating a binary fraction could go either way); nil otherwise.
    package var plainTimestamp: String? {
        let time = timeIntervalSince1970
        guard Self.foundationTruncates, time >= 0, time < Self.endOfYear9999 else { return nil }
        let seconds = time.rounded(.down)
        let thousandths = (time - seconds) * 1000
        let milliseconds = thousandths.rounded(.down)
        guard thousandths - milliseconds > 0.25, thousandths - milliseconds < 0.75 else { return nil }
        let whole = Int(seconds)
        let (year, month, day) = Self.civil(days: whole / 86_400)
        let second = whole % 86_400
        var bytes = [UInt8]()
        bytes.reserveCapacity(24)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(0x30 + value / divisor % 10))
                divisor /= 10
            }
        }
        digits(year, 4); bytes.append(0x2D); digits(month, 2); bytes.append(0x2D); digits(day, 2); bytes.append(0x54)
        digits(second / 3600, 2); bytes.append(0x3A); digits(second / 60 % 60, 2); bytes.append(0x3A); digits(second % 60, 2)
        bytes.append(0x2E); digits(Int(milliseconds), 3); bytes.append(0x5A)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The instant of `YYYY-MM-DDTHH:MM:SS.mmmZ` for a real date and time of the years 1970–9999,
    /// as the reading through Foundation gives it; nil for any other text.
    package static func plainInstant(_ text: String) -> Date? {
        var fields: [Int] = []
        fields.reserveCapacity(7)
        var value = 0, length = 0
        let separators: [UInt8] = [0x2D, 0x2D, 0x54, 0x3A, 0x3A, 0x2E, 0x5A]  // - - T : : . Z
        let lengths = [4, 2, 2, 2, 2, 2, 3]
        for byte in text.utf8 {
            if (0x30...0x39).contains(byte) {
                // At most the field's digits: a longer run is no timestamp (and would overflow).
                guard fields.count < 7, length < lengths[fields.count] else { return nil }
                value = value * 10 + Int(byte - 0x30)
                length += 1
                continue
            }
            guard fields.count < 7, byte == separators[fields.count], length == lengths[fields.count] else { return nil }
            fields.append(value)
            (value, length) = (0, 0)
        }
        guard fields.count == 7, length == 0 else { return nil }
        let (year, month, day, hour, minute, second, milliseconds) = (fields[0], fields[1], fields[2], fields[3], fields[4], fields[5], fields[6])
        guard (1970...9999).contains(year), (1...12).contains(month), day >= 1, day <= daysIn(month, of: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        let whole = days(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
        let date = Date(timeIntervalSince1970: Double(whole)).addingTimeInterval((Double(milliseconds) + 0.5) / 1000)
        guard date.plainTimestamp == text else { return nil }
        return date
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        if month == 2 { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28 }
        return [4, 6, 9, 11].contains(month) ? 30 : 31
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (from March-based years).
    private static func days(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (days ≥ 0).
    private static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

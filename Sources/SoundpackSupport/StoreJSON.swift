// The one JSON encoding of every file soundpack writes for other tools: stable bytes for the same content.

import Foundation

/// The one JSON form of every store file and report: sorted keys, indented, a final newline, so
/// the same content always gives the same bytes; a date as the catalog writes it (`Date.timestamp`).
/// A value that is not JSON (a NaN or infinite figure) is an error, never an empty or partial document.
package enum StoreJSON {
    /// `value` as JSON; `compact`: on one line (a document a program reads, where indenting would
    /// make a reading table ten times its size), still with sorted keys and a final newline.
    package static func encode<T: Encodable>(_ value: T, compact: Bool = false) throws(SoundpackError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = compact ? [.sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.timestamp)
        }
        do { return try encoder.encode(value) + Data("\n".utf8) } catch {
            let path: String
            if case EncodingError.invalidValue(let bad, let context) = error {
                path = context.codingPath.map(\.stringValue).joined(separator: ".") + " is \(bad)"
            } else {
                path = "\(error)"
            }
            throw SoundpackError.environment("cannot write JSON: \(path), which JSON cannot hold")
        }
    }
}


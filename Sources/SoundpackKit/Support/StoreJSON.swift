// The one JSON encoding of every file soundpack writes for other tools: stable bytes for the same content.

import Foundation

/// The one JSON form of every store file: sorted keys, indented, a final newline, so the same
/// content always gives the same bytes.
public enum StoreJSON {
    public static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return ((try? encoder.encode(value)) ?? Data()) + Data("\n".utf8)
    }
}

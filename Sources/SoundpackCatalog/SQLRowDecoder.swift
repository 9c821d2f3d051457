// Catalog rows read as `Decodable` values, on SQLite and PostgreSQL alike: a record names its
// columns once (its `CodingKeys`), and a NULL or a mistyped value where it has no optional is an
// error naming the column, never a silent default.

import Foundation
import SoundpackCore
import SoundpackSupport

/// Why a row is not the record it was read as: the column, and what it held instead. The reason
/// may quote the value (a damaged catalog holds anything): it is shown with its control
/// characters escaped, so it can never forge a line of output.
package struct RowProblem: Error, Sendable, CustomStringConvertible {
    package var column: String
    package var reason: String
    package var description: String { "column \(column.visible): \(reason.visible)" }
}

extension SQLRow {
    /// The row as `T`, each property read from the column its coding key names.
    package func decode<T: Decodable>(_ type: T.Type = T.self) throws(RowProblem) -> T {
        do { return try T(from: RowDecoder(row: self)) } catch let error as DecodingError {
            switch error {
            case .valueNotFound(_, let context), .typeMismatch(_, let context), .dataCorrupted(let context), .keyNotFound(_, let context):
                throw RowProblem(column: context.codingPath.last?.stringValue ?? "?", reason: context.debugDescription)
            @unknown default:
                throw RowProblem(column: "?", reason: "\(error)")
            }
        } catch {
            throw RowProblem(column: "?", reason: "\(error)")
        }
    }
}

/// Decodes one row: a keyed container whose keys are column names.
private struct RowDecoder: Decoder {
    let row: SQLRow
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowContainer<Key>(row: row))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "a row is read by column name"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "a row is read by column name"))
    }
}

/// A row's columns by name.
private struct RowContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let row: SQLRow
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { row.names.keys.compactMap { Key(stringValue: $0) } }

    // Every key is asked of the row: a column the query does not select is a programming error
    // (`SQLRow`'s subscript), never an absent optional.
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { row[key.stringValue] == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ColumnDecoder(value: row[key.stringValue], codingPath: [key]).decode(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: [key], debugDescription: "a column holds one value"))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: [key], debugDescription: "a column holds one value"))
    }

    func superDecoder() throws -> any Decoder { RowDecoder(row: row) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ColumnDecoder(value: row[key.stringValue], codingPath: [key]) }
}

/// One column's value: text, an integer, a real or NULL. Integers 0 and 1 are also booleans
/// (SQLite has no boolean; the schema stores them so on PostgreSQL too), and a date is the text
/// `Date.timestamp` writes (the catalog's dates are such text on both).
private struct ColumnDecoder: Decoder, SingleValueDecodingContainer {
    let value: SQLValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw mismatch([String: Any].self, "one value")
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw mismatch([Any].self, "one value") }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch value {
        case .integer(0): return false
        case .integer(1): return true
        default: throw mismatch(type, "0 or 1")
        }
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .text(let text) = value else { throw mismatch(type, "text") }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard let number = value.double else { throw mismatch(type, "a number") }
        return number
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let integer = type as? any FixedWidthInteger.Type { return try exactly(integer) as! T }
        if type == Date.self { return try date() as! T }
        return try T(from: self)
    }

    /// A timestamp column as the instant it names.
    private func date() throws -> Date {
        guard case .text(let text) = value, let date = Date(timestamp: text) else {
            throw mismatch(Date.self, "a timestamp such as 2026-11-30T15:47:58.580Z")
        }
        return date
    }

    /// An integer column as `type`, when it fits.
    private func exactly<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .integer(let integer) = value, let fitted = I(exactly: integer) else { throw mismatch(type, "an integer that fits \(type)") }
        return fitted
    }

    private func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        let context = DecodingError.Context(codingPath: codingPath, debugDescription: value.mismatch(expected))
        return value == .null ? .valueNotFound(type, context) : .typeMismatch(type, context)
    }
}

extension SQLValue {
    /// Why this value is not what a column of a record holds.
    fileprivate func mismatch(_ expected: String) -> String {
        let found: String
        switch self {
        case .null: found = "NULL"
        case .integer(let v): found = "the integer \(v)"
        case .real(let v): found = "the number \(v)"
        case .text(let v): found = "the text '\(v.prefix(40))'"
        }
        return "\(expected) expected, found \(found)"
    }
}

// Columns read one by one, for the rows a catalog holds thousands of (its published versions, read
// whole for every index.json): the values and problems of `decode(_:)` without its generic work.
extension SQLRow {
    private func problem(_ name: String, _ expected: String) -> RowProblem {
        RowProblem(column: name, reason: self[name].mismatch(expected))
    }

    /// Column `name` as a String property reads it.
    package func text(_ name: String) throws(RowProblem) -> String {
        guard case .text(let text) = self[name] else { throw problem(name, "text") }
        return text
    }

    /// Column `name` as a String? property reads it: NULL is nil.
    package func optionalText(_ name: String) throws(RowProblem) -> String? {
        self[name] == .null ? nil : try text(name)
    }

    /// Column `name` as an Int64 property reads it.
    package func integer(_ name: String) throws(RowProblem) -> Int64 {
        guard case .integer(let integer) = self[name] else { throw problem(name, "an integer that fits Int64") }
        return integer
    }

    /// Column `name` as a Bool property reads it: 0 or 1.
    package func flag(_ name: String) throws(RowProblem) -> Bool {
        switch self[name] {
        case .integer(0): return false
        case .integer(1): return true
        default: throw problem(name, "0 or 1")
        }
    }

    /// Column `name` as a Date property reads it: a timestamp.
    package func instant(_ name: String) throws(RowProblem) -> Date {
        guard case .text(let text) = self[name], let date = Date(timestamp: text) else {
            throw problem(name, "a timestamp such as 2026-11-30T15:47:58.580Z")
        }
        return date
    }

    /// Column `name` as a SemanticVersion property reads it.
    package func version(_ name: String) throws(RowProblem) -> SemanticVersion {
        let text = try text(name)
        guard let version = SemanticVersion(text) else { throw RowProblem(column: name, reason: "'\(text)' is not a semantic version") }
        return version
    }
}

extension Array where Element == SQLRow {
    /// Every row as `T`, in order; the first that is not one ends it.
    package func decoded<T: Decodable>(as type: T.Type) throws(RowProblem) -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        for row in self { result.append(try row.decode(T.self)) }
        return result
    }

    /// The first row as `T`; nil when there is none. One that is not a `T` is an error naming `what`.
    package func first<T: Decodable>(as type: T.Type, _ what: String) throws(SoundpackError) -> T? {
        do { return try Array(prefix(1)).decoded(as: T.self).first } catch {
            throw SoundpackError.environment("the catalog holds \(what) it cannot read (\(error))")
        }
    }
}

/// `SELECT count(*) AS n`.
struct CountRow: Decodable {
    var n: Int64
}

/// The schema version a catalog records (`AS version`); NULL when none is.
struct SchemaVersionRow: Decodable {
    var version: Int64?
}

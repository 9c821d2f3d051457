// A small SQLite wrapper: connection, prepared statements, immediate transactions, typed errors.
// The only file that imports CSQLite.

import CSQLite

/// SQLite reports destructors through a sentinel pointer that Swift cannot import as a macro.
private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// An SQLite failure with the code, SQLite's message and what was being done.
package struct SQLiteError: Error, Sendable, CustomStringConvertible {
    let code: Int32
    let message: String
    let context: String

    package var description: String { "\(context): SQLite error \(code): \(message)" }
}

/// A value bound to or read from a statement column.
package enum SQLValue: Sendable, Equatable {
    case null, integer(Int64), real(Double), text(String)
}

/// One result row; columns are read by name, as the query's SELECT list names them.
package struct SQLRow: Sendable {
    let names: [String: Int]
    let values: [SQLValue]

    /// The value of column `name`. A name the query does not select is a programming error.
    package subscript(_ name: String) -> SQLValue {
        guard let index = names[name] else { preconditionFailure("no column '\(name)' in this row (columns: \(names.keys.sorted()))") }
        return values[index]
    }
}

/// One SQLite connection. Not shared between threads.
package final class SQLiteDatabase {
    private let handle: OpaquePointer
    package let path: String
    /// Prepared statements by SQL text, reused: a run that records hundreds of rows would
    /// otherwise parse the same few statements for each (SQLite re-prepares one by itself when
    /// the schema changes under it).
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (creating if needed) the database at `path`; the handle is closed even when opening fails.
    package init(path: String, busyTimeoutMs: Int32 = 30_000) throws(SQLiteError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw SQLiteError(code: status, message: message, context: "cannot open the catalog at \(path)")
        }
        handle = db
        self.path = path
        sqlite3_busy_timeout(db, busyTimeoutMs)
        sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// The prepared statement for `sql`, from the cache or newly prepared (and kept).
    private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            try check(status == SQLITE_OK ? SQLITE_MISUSE : status, "while preparing \(sql.prefix(80))")
            throw SQLiteError(code: SQLITE_MISUSE, message: "empty statement", context: "\(path): while preparing \(sql.prefix(80))")
        }
        if statements.count >= 64 {  // the catalog has a few dozen statements; stay bounded anyway
            for old in statements.values { sqlite3_finalize(old) }
            statements.removeAll()
        }
        statements[sql] = statement
        return statement
    }

    private func check(_ status: Int32, _ context: @autoclosure () -> String) throws(SQLiteError) {
        guard status == SQLITE_OK || status == SQLITE_DONE || status == SQLITE_ROW else {
            throw SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)), context: "\(path): \(context())")
        }
    }

    /// Runs one or more statements without parameters.
    package func execute(_ sql: String) throws(SQLiteError) {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), "while executing \(sql.prefix(80))")
    }

    /// Runs `sql` with `arguments`; returns every row.
    @discardableResult
    package func query(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) -> [SQLRow] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in arguments.enumerated() {
            let i = Int32(index + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, i)
            case .integer(let v): status = sqlite3_bind_int64(statement, i, v)
            case .real(let v): status = sqlite3_bind_double(statement, i, v)
            // With its byte length, not -1: a NUL inside the text is stored, not where it stops.
            case .text(let v): status = v.withCString { sqlite3_bind_text(statement, i, $0, Int32(clamping: v.utf8.count), SQLITE_TRANSIENT) }
            }
            try check(status, "while binding parameter \(i) of \(sql.prefix(80))")
        }
        var rows: [SQLRow] = []
        let count = sqlite3_column_count(statement)
        var names: [String: Int] = [:]
        for column in 0..<count {
            if let name = sqlite3_column_name(statement, column) { names[String(cString: name)] = Int(column) }
        }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            try check(status, "while executing \(sql.prefix(80))")
            var values: [SQLValue] = []
            values.reserveCapacity(Int(count))
            for column in 0..<count {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(statement, column)))
                case SQLITE_FLOAT: values.append(.real(sqlite3_column_double(statement, column)))
                case SQLITE_NULL: values.append(.null)
                default:
                    // Every byte, then checked: a text that is not UTF-8 (or a blob) would be
                    // repaired or cut at a NUL by a C-string read, changing what the catalog says.
                    let length = Int(sqlite3_column_bytes(statement, column))
                    let bytes = sqlite3_column_blob(statement, column).map { UnsafeRawBufferPointer(start: $0, count: length) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
                    guard sqlite3_column_type(statement, column) == SQLITE_TEXT, let text = String(validating: bytes, as: UTF8.self) else {
                        throw SQLiteError(code: SQLITE_MISMATCH, message: "column \(column) of a row holds bytes that are not UTF-8 text; the file was not written by soundpack", context: "while reading \(path)")
                    }
                    values.append(.text(text))
                }
            }
            rows.append(SQLRow(names: names, values: values))
        }
        return rows
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`; rolls back and rethrows the first error.
    package func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}

extension SQLValue {
    var string: String? { if case .text(let v) = self { return v }; return nil }
    var int: Int64? { if case .integer(let v) = self { return v }; return nil }
    var double: Double? {
        switch self {
        case .real(let v): return v
        case .integer(let v): return Double(v)
        default: return nil
        }
    }
}

// Where a JSON text stops being JSON (RFC 8259), as a line and column an editor jumps to.
// Foundation's parser says only "around character 28"; this scan says what it expected and where,
// the way compilers do: `pack.json:4:2: … expected ',' or '}' after a value`. One forward pass
// with an explicit stack: no recursion, whatever the nesting depth.

/// The first place a text breaks JSON's grammar: 1-based line, 1-based column in UTF-16 code units
/// (SARIF's default column kind), and what was expected there.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "at line \(line), column \(column): \(message)" }
}

public enum JSONSyntax {
    private enum Expecting { case value, valueOrClose, key, keyOrClose, colon, commaOrClose, end }
    /// A place in the text: its line, the index its line starts at, and its own index. Columns are
    /// counted only for the one place an error names, so a 1 MiB one-line text costs one pass.
    private struct Place { var line: Int; var lineStart: Int; var index: Int }
    private struct Opened { var isObject: Bool; var place: Place }

    /// The first syntax error in `bytes`, or nil when they are one JSON value (surrounded by white
    /// space only). Not checked here: that the bytes are UTF-8, and duplicate keys (see
    /// `JSONDuplicateKeys`).
    public static func firstError(in bytes: [UInt8]) -> JSONSyntaxError? {
        var scanner = Scanner(bytes)
        return scanner.firstError()
    }

    /// The one forward pass: where it is, what it expects next and the containers still open.
    private struct Scanner {
        let bytes: [UInt8]
        var index: Int, line = 1, lineStart: Int
        var stack: [Opened] = []
        var expecting = Expecting.value
        var lastComma: Place?

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            // A UTF-8 byte order mark, which Foundation's parser skips, is not an error either.
            let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            index = bom
            lineStart = bom
        }

        func here(_ position: Int) -> Place { Place(line: line, lineStart: lineStart, index: position) }
        func error(_ message: String, at position: Int) -> JSONSyntaxError { located(message, here(position)) }
        func located(_ message: String, _ place: Place) -> JSONSyntaxError {
            var units = 0
            for byte in bytes[place.lineStart..<min(place.index, bytes.count)] where byte & 0xC0 != 0x80 { units += byte >= 0xF0 ? 2 : 1 }
            return JSONSyntaxError(line: place.line, column: units + 1, message: message)
        }
        func shown(_ position: Int) -> String {
            let byte = bytes[position]
            if byte < 0x20 || byte == 0x7F { return "a control character (0x\(String(byte, radix: 16, uppercase: true)))" }
            var end = position + 1
            while end < bytes.count, end - position < 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
            return "'" + String(decoding: bytes[position..<end], as: UTF8.self) + "'"
        }
        mutating func afterValue() { expecting = stack.isEmpty ? .end : .commaOrClose }

        mutating func firstError() -> JSONSyntaxError? {
            while true {
                while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                    if bytes[index] == 0x0A { line += 1; lineStart = index + 1 }
                    index += 1
                }
                guard index < bytes.count else { return expecting == .end ? nil : endsEarly() }
                let byte = bytes[index]
                switch expecting {
                case .end:
                    return error("\(shown(index)) after the end of the JSON value; remove it", at: index)
                case .colon:
                    guard byte == UInt8(ascii: ":") else { return error("expected ':' after the key, found \(shown(index))", at: index) }
                    expecting = .value
                    index += 1
                case .commaOrClose:
                    if let problem = commaOrClose(byte) { return problem }
                case .key, .keyOrClose:
                    if let problem = keyOrClose(byte) { return problem }
                case .value, .valueOrClose:
                    if let problem = value(byte) { return problem }
                }
                if expecting != .key && expecting != .value { lastComma = nil }
            }
        }

        /// The text ends before the value does.
        func endsEarly() -> JSONSyntaxError {
            if let open = stack.last {
                let opened = located("", open.place)
                return error("the file ends inside the \(open.isObject ? "object" : "array") opened at line \(opened.line), column \(opened.column): it is never closed", at: index)
            }
            return error(bytes.isEmpty ? "the file is empty; it must hold a JSON object" : "the file holds only white space; it must hold a JSON object", at: index)
        }

        mutating func commaOrClose(_ byte: UInt8) -> JSONSyntaxError? {
            let open = stack[stack.count - 1]
            if byte == UInt8(ascii: ",") {
                lastComma = here(index)
                expecting = open.isObject ? .key : .value
                index += 1
            } else if byte == UInt8(ascii: open.isObject ? "}" : "]") {
                stack.removeLast()
                index += 1
                afterValue()
            } else {
                let close = open.isObject ? "}" : "]"
                let missing = byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") ? " (a comma missing?)" : ""
                return error("expected ',' or '\(close)' after a value, found \(shown(index))\(missing)", at: index)
            }
            return nil
        }

        mutating func keyOrClose(_ byte: UInt8) -> JSONSyntaxError? {
            if byte == UInt8(ascii: "}") {
                if expecting == .key, let comma = lastComma {
                    return located("a trailing comma before '}'; JSON allows none: remove it", comma)
                }
                stack.removeLast()
                index += 1
                afterValue()
            } else if byte == UInt8(ascii: "\"") {
                if let problem = JSONSyntax.skipString(bytes, &index) { return located(problem, here(index)) }
                expecting = .colon
            } else {
                return error("expected a key in double quotes, found \(shown(index))", at: index)
            }
            return nil
        }

        mutating func value(_ byte: UInt8) -> JSONSyntaxError? {
            switch byte {
            case UInt8(ascii: "]") where expecting == .valueOrClose:
                stack.removeLast()
                index += 1
                afterValue()
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                // A comma before the bracket that closes its container: a trailing comma. Any
                // other bracket is simply not a value.
                if let comma = lastComma, let open = stack.last, byte == UInt8(ascii: open.isObject ? "}" : "]") {
                    return located("a trailing comma before '\(byte == UInt8(ascii: "]") ? "]" : "}")'; JSON allows none: remove it", comma)
                }
                return error("expected a value (a string in double quotes, a number, an object, an array, true, false or null), found \(shown(index))", at: index)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                stack.append(Opened(isObject: byte == UInt8(ascii: "{"), place: here(index)))
                expecting = byte == UInt8(ascii: "{") ? .keyOrClose : .valueOrClose
                index += 1
            case UInt8(ascii: "\""):
                if let problem = JSONSyntax.skipString(bytes, &index) { return located(problem, here(index)) }
                afterValue()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = index
                guard JSONSyntax.skipNumber(bytes, &index) else { return error("not a JSON number (digits, an optional fraction and exponent, no leading zeros or '+')", at: start) }
                afterValue()
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                let word: [UInt8] = byte == UInt8(ascii: "t") ? Array("true".utf8) : byte == UInt8(ascii: "f") ? Array("false".utf8) : Array("null".utf8)
                guard bytes.count - index >= word.count, Array(bytes[index..<(index + word.count)]) == word else {
                    return error("expected a value (a string in double quotes, a number, an object, an array, true, false or null), found \(shown(index))", at: index)
                }
                index += word.count
                afterValue()
            default:
                let hint = byte == UInt8(ascii: "'") ? " (JSON strings use double quotes)" : ""
                return error("expected a value (a string in double quotes, a number, an object, an array, true, false or null), found \(shown(index))\(hint)", at: index)
            }
            return nil
        }
    }

    /// Moves past the string whose opening quote is at `index`; what is wrong with it (reported at
    /// its opening quote, `index` left there) when it is not closed on its line or holds a bad escape.
    private static func skipString(_ bytes: [UInt8], _ index: inout Int) -> String? {
        var position = index + 1
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                index = position + 1
                return nil
            }
            if byte < 0x20 {
                let what = byte == 0x0A || byte == 0x0D ? "is not closed on its line" : "holds a raw control character (write it as an escape such as \\n)"
                return "the string opened here \(what)"
            }
            if byte == UInt8(ascii: "\\") {
                guard position + 1 < bytes.count else { break }
                let escape = bytes[position + 1]
                if escape == UInt8(ascii: "u") {
                    let digits = bytes[min(position + 2, bytes.count)..<min(position + 6, bytes.count)]
                    guard digits.count == 4, digits.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }) else {
                        return "the string opened here has a \\u escape without four hex digits"
                    }
                    position += 6
                    continue
                }
                guard Array("\"\\/bfnrt".utf8).contains(escape) else {
                    return "the string opened here has the escape '\\\(String(decoding: [escape], as: UTF8.self))', which JSON does not have (write '\\\\' for a backslash)"
                }
                position += 2
                continue
            }
            position += 1
        }
        return "the string opened here is never closed"
    }

    /// Moves past a number at `index` (RFC 8259: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`);
    /// false when it is not one.
    private static func skipNumber(_ bytes: [UInt8], _ index: inout Int) -> Bool {
        func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= 0x30 && bytes[at] <= 0x39 }
        var position = index
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard isDigit(position) else { return false }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if isDigit(position) { return false }
        } else {
            while isDigit(position) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard isDigit(position) else { return false }
            while isDigit(position) { position += 1 }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard isDigit(position) else { return false }
            while isDigit(position) { position += 1 }
        }
        // A number runs into the next token only through white space or punctuation.
        if position < bytes.count, !Array(" \t\r\n,]}".utf8).contains(bytes[position]) { return false }
        index = position
        return true
    }
}

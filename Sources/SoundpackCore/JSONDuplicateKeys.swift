// Duplicate keys in a JSON object: JSON parsers keep one of them silently (`"id":"wechat",
// "id":"evil"` reads as evil), so a file that repeats a key says two things and is refused. And a
// trailing comma (`[1, 2,]`), which Foundation's parser accepts though JSON (RFC 8259) does not:
// every JSON soundpack reads is strict JSON, as other tools will read it.
// A single forward scan with an explicit stack: no recursion, whatever the nesting depth, and
// linear in the input: columns are counted incrementally and paths are built only for the few
// levels whose key locations are kept, so a 1 MB one-line or deeply nested text costs one pass.

/// A key that appears twice in one JSON object.
public struct DuplicateJSONKey: Sendable, Equatable, CustomStringConvertible {
    /// The key as decoded (escapes resolved), and the dotted path of the object holding it.
    public var key: String
    public var path: String
    /// 1-based lines of the first and the second occurrence.
    public var firstLine: Int
    public var secondLine: Int

    public var description: String {
        let place = path.isEmpty ? "" : " in '\(path.quoted(limit: 60))'"
        return "key '\(key.quoted())' appears twice\(place), on lines \(firstLine) and \(secondLine); keep one"
    }
}

/// What makes a JSON text one that parsers may read differently: a repeated key, or a trailing comma.
public enum StrictJSONProblem: Sendable, Equatable, CustomStringConvertible {
    case duplicateKey(DuplicateJSONKey)
    /// A `,` right before `}` or `]`, at this 1-based line and column (UTF-16 code units).
    case trailingComma(line: Int, column: Int)

    public var description: String {
        switch self {
        case .duplicateKey(let duplicate): return duplicate.description
        case .trailingComma(let line, let column): return "a trailing comma at line \(line), column \(column); JSON allows none: remove it"
        }
    }

    /// The dotted path of the key at fault, when there is one.
    public var field: String? {
        guard case .duplicateKey(let duplicate) = self else { return nil }
        return duplicate.path.isEmpty ? duplicate.key : "\(duplicate.path).\(duplicate.key)"
    }
}

/// Where a key is written in a JSON text: 1-based line, and 1-based column in UTF-16 code units
/// (SARIF's default column kind; the same as characters for the ASCII indentation before a key).
public struct JSONKeyLocation: Sendable, Equatable {
    public var line: Int
    public var column: Int
}

public enum JSONDuplicateKeys {
    /// `path`: the dotted names of the containers down to this one (`record`'s `path()`), made
    /// once per container, only within `locatedDepth` and `locatedPathBytes`, where keys are
    /// located; nil elsewhere.
    private struct Container { var isObject: Bool; var keys: [String: Int]; var name: String; var expectingKey: Bool; var path: String? }

    /// Key locations are kept for keys this deep at most (pack.json's are at depth 1 and 2).
    static let locatedDepth = 6
    /// Key locations are kept for dotted paths this long at most (bytes): pack.json's are a few
    /// dozen. Every path made is at most this long, so a text of long names and many keys or
    /// containers costs time and memory in proportion to its length, not to the product.
    static let locatedPathBytes = 512

    /// The first duplicate key or trailing comma in `bytes`, or nil when there is none (or the text
    /// is not JSON, which the parser then reports).
    public static func first(in bytes: some Collection<UInt8>) -> StrictJSONProblem? {
        scan(Array(bytes), locating: false).problem
    }

    /// Where each key is written, by its dotted path (`clips.十`, `grammarOptions.two`); the first
    /// occurrence when a key repeats. Keys nested deeper than `locatedDepth`, or whose path is
    /// longer than `locatedPathBytes`, are not located.
    public static func locations(in bytes: some Collection<UInt8>) -> [String: JSONKeyLocation] {
        scan(Array(bytes), locating: true).locations
    }

    /// `first(in:)` and `locations(in:)` from one pass: the text is scanned to its end, and the
    /// problem is the first one met, as `first(in:)` finds it.
    public static func firstAndLocations(in bytes: some Collection<UInt8>) -> (problem: StrictJSONProblem?, locations: [String: JSONKeyLocation]) {
        scan(Array(bytes), locating: true)
    }

    /// The 1-based column, in UTF-16 code units, of a byte on the current line, counted on from
    /// the last byte asked about (callers ask in increasing order), so a long line is counted once.
    private struct ColumnCounter {
        var lineStart = 0
        var counted = 0
        var units = 0

        mutating func newLine(at index: Int) { (lineStart, counted, units) = (index, index, 0) }

        /// A new line after the last newline before `end`.
        mutating func newLine(afterLastNewlineBefore end: Int, in bytes: [UInt8]) {
            var lastNewline = end - 1
            while bytes[lastNewline] != UInt8(ascii: "\n") { lastNewline -= 1 }
            newLine(at: lastNewline + 1)
        }

        mutating func column(of index: Int, in bytes: [UInt8]) -> Int {
            while counted < index {
                let byte = bytes[counted]
                // A UTF-8 lead or ASCII byte starts one code unit; a 4-byte sequence is two (a surrogate pair).
                if byte & 0xC0 != 0x80 { units += byte >= 0xF0 ? 2 : 1 }
                counted += 1
            }
            return units + 1
        }
    }

    /// Locating, the scan goes on to the end past a problem, keeping the first; otherwise it stops there.
    private static func scan(_ bytes: [UInt8], locating: Bool) -> (problem: StrictJSONProblem?, locations: [String: JSONKeyLocation]) {
        var (locations, problem): ([String: JSONKeyLocation], StrictJSONProblem?) = ([:], nil)
        var (columns, stack, line, index) = (ColumnCounter(), [Container](), 1, 0)
        var pendingKey: (String, Int)?  // the last string read in key position, until its ':'
        var lastComma: (line: Int, column: Int)?  // a ',' with nothing but white space after it so far
        /// Keeps the first problem; whether the scan ends there.
        func stops(at found: StrictJSONProblem) -> Bool {
            if problem == nil { problem = found }
            return !locating
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte != UInt8(ascii: ","), byte != UInt8(ascii: " "), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\t"), byte != UInt8(ascii: "\r") {
                if let comma = lastComma, byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]"), problem == nil,
                   stops(at: .trailingComma(line: comma.line, column: comma.column)) { return (problem, locations) }
                lastComma = nil
            }
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                index += 1
                columns.newLine(at: index)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let name = pendingKey?.0 ?? (stack.last.map { $0.isObject ? "" : "[]" } ?? "")
                pendingKey = nil
                stack.append(opening(byte, named: name, in: stack, locating: locating))
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard !stack.isEmpty else { return (problem, locations) }
                stack.removeLast()
                index += 1
            case UInt8(ascii: ","):
                lastComma = (line, columns.column(of: index, in: bytes))
                if !stack.isEmpty, stack[stack.count - 1].isObject { stack[stack.count - 1].expectingKey = true }
                pendingKey = nil
                index += 1
            case UInt8(ascii: ":"):
                if !stack.isEmpty { stack[stack.count - 1].expectingKey = false }
                index += 1
            case UInt8(ascii: "\""):
                let startLine = line
                let isKey = stack.last.map { $0.isObject && $0.expectingKey } ?? false
                let column = isKey && stack.count <= locatedDepth && stack.last?.path != nil ? columns.column(of: index, in: bytes) : 0
                guard let (text, end) = readString(bytes, from: index + 1, line: &line, decode: isKey) else { return (problem, locations) }
                // A raw newline inside a string (not JSON, but scanned on): the line restarts after it.
                if line != startLine { columns.newLine(afterLastNewlineBefore: end, in: bytes) }
                index = end
                if isKey {
                    let key = LocatedKey(text: text, line: startLine, column: column)
                    if let repeated = record(key, in: &stack, locations: &locations, locating: locating, reporting: problem == nil),
                       stops(at: repeated) { return (problem, locations) }
                    pendingKey = (text, startLine)
                }
            default:
                index += 1
            }
        }
        return (problem, locations)
    }

    /// The container a `{` or `[` opens inside `stack`, named `name`; its path made when locating,
    /// within `locatedDepth`, and no longer than `locatedPathBytes`.
    private static func opening(_ byte: UInt8, named name: String, in stack: [Container], locating: Bool) -> Container {
        var container = Container(isObject: byte == UInt8(ascii: "{"), keys: [:], name: name, expectingKey: byte == UInt8(ascii: "{"), path: nil)
        if locating && stack.count < locatedDepth, let outer = stack.isEmpty ? "" : stack[stack.count - 1].path {
            container.path = dotted(outer, name)
        }
        return container
    }

    /// `outer.name` (either alone when the other is empty); nil when longer than `locatedPathBytes`.
    private static func dotted(_ outer: String, _ name: String) -> String? {
        let dot = outer.isEmpty || name.isEmpty ? 0 : 1
        guard outer.utf8.count + dot + name.utf8.count <= locatedPathBytes else { return nil }
        return dot == 0 ? outer + name : outer + "." + name
    }

    private struct LocatedKey { var text: String; var line: Int; var column: Int }

    /// Notes where a key is first written (when locating keys) and the line of each key in its
    /// object (the first, when it repeats); the duplicate when its object already has the key and
    /// `reporting` (no problem found before: a duplicate's path costs the depth, so it is made for
    /// the first duplicate only, however many more a scan that goes on meets).
    private static func record(
        _ key: LocatedKey, in stack: inout [Container], locations: inout [String: JSONKeyLocation], locating: Bool, reporting: Bool
    ) -> StrictJSONProblem? {
        func path() -> String { stack.map(\.name).filter { !$0.isEmpty }.joined(separator: ".") }
        // A key's path keeps an empty key (`clips.`), as a container's leaves out an empty name.
        if locating && stack.count <= locatedDepth, let outer = stack[stack.count - 1].path,
           outer.utf8.count + 1 + key.text.utf8.count <= locatedPathBytes {
            let keyPath = outer.isEmpty ? key.text : outer + "." + key.text
            if locations[keyPath] == nil { locations[keyPath] = JSONKeyLocation(line: key.line, column: key.column) }
        }
        if let first = stack[stack.count - 1].keys[key.text] {
            guard reporting else { return nil }
            return .duplicateKey(DuplicateJSONKey(key: key.text, path: path(), firstLine: first, secondLine: key.line))
        }
        stack[stack.count - 1].keys[key.text] = key.line
        return nil
    }

    /// Decodes the string whose body starts at `start` (only when `decode`: a value's text is not
    /// needed, only where it ends); returns it and the index after its quote. The text is built as
    /// UTF-8 bytes and made a String once, so a long string costs one pass.
    private static func readString(_ bytes: [UInt8], from start: Int, line: inout Int, decode: Bool = true) -> (String, Int)? {
        var out: [UInt8] = []
        var index = start
        func append(_ scalar: Unicode.Scalar) {
            guard decode else { return }
            out.append(contentsOf: UTF8.encode(scalar)!)
        }
        func hex(at position: Int) -> UInt16? {
            guard position + 4 <= bytes.count else { return nil }
            var value: UInt16 = 0
            for byte in bytes[position..<(position + 4)] {
                let digit: UInt16
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt16(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt16(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt16(byte - UInt8(ascii: "A") + 10)
                default: return nil
                }
                value = value << 4 | digit
            }
            return value
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                return (decode ? String(decoding: out, as: UTF8.self) : "", index + 1)
            }
            if byte == UInt8(ascii: "\n") { line += 1 }
            if byte == UInt8(ascii: "\\") {
                guard index + 1 < bytes.count else { return nil }
                let escape = bytes[index + 1]
                switch escape {
                case UInt8(ascii: "u"):
                    guard let unit = hex(at: index + 2) else { return nil }
                    index += 6
                    // A surrogate pair is two escapes; anything unpaired becomes U+FFFD, as parsers do.
                    if (0xD800...0xDBFF).contains(unit), index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                       let low = hex(at: index + 2), (0xDC00...0xDFFF).contains(low) {
                        let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                        append(Unicode.Scalar(value) ?? "\u{FFFD}")
                        index += 6
                    } else {
                        append(Unicode.Scalar(UInt32(unit)) ?? "\u{FFFD}")
                    }
                    continue
                case UInt8(ascii: "n"): append("\n")
                case UInt8(ascii: "t"): append("\t")
                case UInt8(ascii: "r"): append("\r")
                case UInt8(ascii: "b"): append("\u{08}")
                case UInt8(ascii: "f"): append("\u{0C}")
                default: append(Unicode.Scalar(escape))
                }
                index += 2
                continue
            }
            if decode { out.append(byte) }
            index += 1
        }
        return nil
    }
}

// Text from files, archives, payloads and arguments, made safe to print: control characters
// become visible escapes, so one finding is one line and no input can move the cursor, recolour
// a terminal or forge a line of output.

extension String {
    /// `self` with every control character written as a visible escape (`\u{1B}`): C0 (tab and
    /// newline included), DEL, C1 (U+0080–U+009F), the line and paragraph separators, and the
    /// bidirectional overrides and isolates that reorder what a terminal shows, and the noncharacters
    /// U+FFFE and U+FFFF. When anything is
    /// escaped (or the text already holds `\u{`), backslashes are doubled, so no escape can be forged.
    public var visible: String {
        guard unicodeScalars.contains(where: Self.needsEscape) || contains("\\u{") else { return self }
        var out = ""
        out.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            if Self.needsEscape(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else if scalar == "\\" {
                out += "\\\\"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `self` with every control character `visible` escapes written as `\u{…}`, and nothing else
    /// changed: what the last step before a terminal applies to a whole line, whose parts may have
    /// been made visible already (an input quoted in a message). Escaping those parts again would
    /// double their backslashes (`\\u{1B}`); leaving backslashes alone keeps them as quoted, while
    /// no control character of any part reaches the terminal.
    public var terminalSafe: String {
        guard unicodeScalars.contains(where: Self.needsEscape) else { return self }
        var out = ""
        out.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            if Self.needsEscape(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// At most `limit` characters of `self`, made visible, with `…` when cut: how an input is quoted
    /// in a message.
    public func quoted(limit: Int = 40) -> String {
        let cut = count > limit ? String(prefix(limit)) + "…" : self
        return cut.visible
    }

    /// Whether `self` holds a control character a pack.json name, token, text or path may not hold
    /// (C0 except tab, LF and CR when `allowingLineBreaks`; DEL; C1).
    public func containsControlCharacter(allowingLineBreaks: Bool = false) -> Bool {
        unicodeScalars.contains { scalar in
            if allowingLineBreaks, scalar == "\t" || scalar == "\n" || scalar == "\r" { return false }
            return scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
        }
    }

    /// The first scalar of `self` that XML 1.0 cannot carry (§2.2 Char: tab, LF, CR, U+0020–U+D7FF,
    /// U+E000–U+FFFD and U+10000 up are allowed; surrogates cannot occur in a String), or nil.
    /// A property list is XML: such a text makes the file one that plistlib and the app refuse.
    public var xmlForbiddenScalar: Unicode.Scalar? {
        unicodeScalars.first { scalar in
            switch scalar.value {
            case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...: return false
            default: return true
            }
        }
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C, 0xFFFE, 0xFFFF: return true
        default: return false
        }
    }
}

extension String {
    /// The path's components split on the byte `/`. Splitting a `String` on the character `/`
    /// misses a slash that a following combining mark (U+065E, U+0301…) joins into one character.
    public var slashSeparated: [String] {
        utf8.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of a path, as a dictionary or set key. Swift compares strings by canonical
    /// equivalence, so `"é"` (U+00E9) and `"e\u{301}"` are one String key, but on Linux (and in
    /// object keys) they are two different files: paths are told apart by their bytes.
    public var pathKey: [UInt8] { Array(utf8) }

    /// Whether the bytes of `self` start with those of `prefix`: a path test that a combining mark
    /// after a slash cannot defeat (`"out/\u{065E}x".hasPrefix("out/")` is false, this is true).
    public func hasBytePrefix(_ prefix: String) -> Bool { utf8.starts(with: prefix.utf8) }
}

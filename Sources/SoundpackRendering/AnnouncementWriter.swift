// The written forms of announcements `say` prints: words, token ids, clip files, or one JSON object
// per line. Each token's bytes are prepared once, so a million amounts cost only copying.

import Foundation
import SoundpackCore
import SoundpackPack
import SoundpackSupport

/// Writes the announcement of amounts in one of `say`'s formats.
public struct AnnouncementWriter: Sendable {
    /// What a line says: the words, the token ids, the clip files, or all of them as JSON.
    public enum Format: String, Sendable, CaseIterable {
        /// 微信到账十五点四元
        case text
        /// `prefix 十 5 点 4 元`
        case tokens
        /// The clip paths as pack.json writes them, separated by spaces; a path that holds a space
        /// or another character a shell reads specially is in single quotes (`'my clips/5.caf'`),
        /// so every line splits back into its paths (`xargs`, `eval set --`).
        case files
        /// `{"amount":"15.40","text":"…","tokens":[…],"files":[…]}`
        case json
    }

    /// The grammar and phrase the amounts are read in.
    public let announcement: Announcement
    /// The form each line is written in.
    public let format: Format
    /// `"phrase":"…",` opening each JSON line, for a pack that declares phrases; empty otherwise.
    private let phraseJSON: [UInt8]
    /// Between written words, by the ordinals of the two (`inventory.count` per row): none in
    /// Chinese, a space in English and Hindi, `-` in twenty-one. Empty when the grammar writes none.
    private let wordSeparators: [UInt8]
    /// Clip files by token key; empty without a pack.
    public let files: [String: String]
    /// Per-token output bytes by `Token.ordinal`, each table one flat array: appending a token is
    /// one copy, with no array of arrays to retain and release per token.
    private struct Table: Sendable {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        /// The longest token's bytes.
        var widest = 0

        mutating func add(_ text: String) {
            let start = bytes.count
            bytes.append(contentsOf: text.utf8)
            ranges.append(start..<bytes.count)
            widest = max(widest, bytes.count - start)
        }
    }
    private var tokenText = Table(), tokenTextJSON = Table(), tokenID = Table(), tokenJSON = Table(), fileText = Table(), fileJSON = Table()

    /// - Parameters:
    ///   - texts: the pack's `texts` (the words of its prefix and suffix).
    ///   - files: the pack's `clips`; needed for `.files`.
    ///   - namesPhrase: whether JSON lines say the phrase (a pack that declares phrases).
    init(announcement: Announcement, format: Format, texts: [String: String] = [:], files: [String: String] = [:], namesPhrase: Bool = false) {
        self.announcement = announcement
        self.format = format
        self.files = files
        let inventory = announcement.inventory, grammar = announcement.grammar
        wordSeparators = grammar.separator.isEmpty ? [] : inventory.flatMap { a in inventory.map { b in grammar.separator(between: a, and: b).utf8.first ?? 0 } }
        phraseJSON = namesPhrase ? Array(#""phrase":"\#(Self.jsonEscaped(announcement.phrase.id))","#.utf8) : []
        for token in announcement.inventory {
            let text = announcement.grammar.text(of: token, texts: texts), file = files[token.rawValue] ?? ""
            tokenText.add(text)
            tokenTextJSON.add(Self.jsonEscaped(text))
            tokenID.add(token.rawValue)
            tokenJSON.add("\"\(Self.jsonEscaped(token.rawValue))\"")
            fileText.add(Self.shellQuoted(file))
            fileJSON.add("\"\(Self.jsonEscaped(file))\"")
        }
    }

    /// `path` as one word of a POSIX shell: as it is when it needs no quoting, else in single quotes
    /// (a `'` inside written `'\''`).
    static func shellQuoted(_ path: String) -> String {
        let plain = !path.isEmpty && path.unicodeScalars.allSatisfy { s in
            (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || "._/-+,:@%=".unicodeScalars.contains(s) || s.value >= 0x80 && !s.properties.isWhitespace
        }
        return plain ? path : "'" + path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// Appends the answer for `amount` and a newline to `line`; `buffer` is scratch space. A phrase
    /// that says no amount is answered with nil.
    public func write(_ amount: Amount?, tokens buffer: inout [Token], into line: inout [UInt8]) {
        buffer.removeAll(keepingCapacity: true)
        if let amount { announcement.appendTokens(for: amount, to: &buffer) } else { buffer.append(contentsOf: announcement.frame([])) }
        switch format {
        case .tokens: Self.join(buffer, tokenID, UInt8(ascii: " "), into: &line)
        case .files: Self.join(buffer, fileText, UInt8(ascii: " "), into: &line)
        case .json:
            line.append(UInt8(ascii: "{"))
            line.append(contentsOf: phraseJSON)
            if let amount, announcement.saysAmount {
                line.append(contentsOf: #""amount":""#.utf8)
                line.append(contentsOf: amount.description.utf8)
                line.append(contentsOf: #"","#.utf8)
            }
            line.append(contentsOf: #""text":""#.utf8)
            Self.join(buffer, tokenTextJSON, nil, pairwise: wordSeparators, into: &line)
            line.append(contentsOf: #"","tokens":["#.utf8)
            Self.join(buffer, tokenJSON, UInt8(ascii: ","), into: &line)
            line.append(UInt8(ascii: "]"))
            if !files.isEmpty {
                line.append(contentsOf: #","files":["#.utf8)
                Self.join(buffer, fileJSON, UInt8(ascii: ","), into: &line)
                line.append(UInt8(ascii: "]"))
            }
            line.append(UInt8(ascii: "}"))
        case .text:
            Self.join(buffer, tokenText, nil, pairwise: wordSeparators, into: &line)
        }
        line.append(UInt8(ascii: "\n"))
    }

    /// Appends `buffer`'s tokens as `table` writes them, between each two `separator` or, without
    /// one, the byte `pairwise` gives for the pair (0: none).
    private static func join(_ buffer: [Token], _ table: Table, _ separator: UInt8?, pairwise: [UInt8] = [], into line: inout [UInt8]) {
        // Room for every token and separator at once, then plain copies into it: tokens are a
        // few bytes, and appending them one by one cost more than copying them.
        let start = line.count
        line.append(contentsOf: repeatElement(0, count: buffer.count * (table.widest + 1)))
        var end = start
        let width = table.ranges.count
        line.withUnsafeMutableBufferPointer { out in
            table.bytes.withUnsafeBufferPointer { bytes in
                table.ranges.withUnsafeBufferPointer { ranges in
                    pairwise.withUnsafeBufferPointer { pairs in
                        var previous = -1
                        for (i, token) in buffer.enumerated() {
                            if i > 0 {
                                if let separator { out[end] = separator; end += 1 } else if !pairs.isEmpty {
                                    let between = pairs[previous * width + token.ordinal]
                                    if between != 0 { out[end] = between; end += 1 }
                                }
                            }
                            previous = token.ordinal
                            let range = ranges[token.ordinal]
                            if let target = out.baseAddress, let source = bytes.baseAddress, !range.isEmpty {
                                (target + end).update(from: source + range.lowerBound, count: range.count)
                                end += range.count
                            }
                        }
                    }
                }
            }
        }
        line.removeSubrange(end...)
    }

    /// `text` as the inside of a JSON string.
    static func jsonEscaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\"" || $0 == "\\" || $0.value < 0x20 }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}

extension AnnouncementWriter {
    /// The writer for the pack at `directory` (its grammar, default phrase, texts and clip files)
    /// and the largest amount it may read (its maxAmount).
    public static func forPack(at directory: String, format: Format) throws(PackFileError) -> (writer: AnnouncementWriter, maximum: Amount) {
        let pack = try PackFileLoader.load(directory: directory)
        return (forPack(pack, phrase: pack.phrasebook.defaultPhrase, format: format), pack.maxAmount)
    }

    /// The writer of `phrase`, one of `pack`'s phrases.
    public static func forPack(_ pack: PackFile, phrase: Phrase, format: Format) -> AnnouncementWriter {
        let book = pack.phrasebook
        return AnnouncementWriter(announcement: book.announcement(phrase), format: format, texts: pack.texts, files: pack.clips, namesPhrase: book.isDeclared)
    }

    /// The writer for a grammar alone (no prefix or suffix, no clip files) and the largest amount
    /// the grammar reads.
    public static func forGrammar(_ grammar: Grammar, format: Format) -> (writer: AnnouncementWriter, maximum: Amount) {
        (AnnouncementWriter(announcement: .readingOnly(grammar), format: format), Amount(minorUnits: Amount.grammarLimit.minorUnits - 1))
    }
}

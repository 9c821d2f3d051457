// A team's own text-to-speech program, run once per clip: `synth --engine-command 'CMD {text} {out}'`.
// The template is split into words here (quotes group, nothing else is special) and the program is
// started directly, never through a shell: a clip's text is one argument whatever it holds.

import Foundation
import SoundpackSupport

/// A text-to-speech command line with `{text}`, `{out}` and optionally `{voice}` in its words.
public struct EngineCommand: Sendable, Equatable {
    /// The template's words, placeholders included, in order; the first names the program.
    package let words: [String]
    /// The longest one run may take before it is stopped.
    public var timeoutSeconds: Double

    static let textPlaceholder = "{text}"
    static let outPlaceholder = "{out}"
    static let voicePlaceholder = "{voice}"

    /// Why a template is not a command line, as data: the caller names the option it came from.
    public enum Problem: Error, Sendable, Equatable {
        /// A quote is opened and never closed.
        case unclosedQuote
        /// No words at all, or an empty program name.
        case empty
        /// The first word (the program) holds a placeholder.
        case startsWithPlaceholder
        /// `{text}` or `{out}` appears in no word.
        case missingPlaceholder(String)
        /// A word holds a NUL byte (no program can receive it).
        case nulByte
    }

    /// Splits `template` into words: whitespace separates them; '…' and "…" group (no escapes
    /// inside '…'; \" and \\ inside "…"). Needs `{text}` and `{out}`.
    public init(_ template: String, timeoutSeconds: Double = 60) throws(Problem) {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var iterator = template.makeIterator()
        while let character = iterator.next() {
            if let open = quote {
                if character == open { quote = nil; continue }
                if open == "\"", character == "\\", let next = iterator.next() {
                    if next != "\"" && next != "\\" { current.append("\\") }
                    current.append(next)
                    continue
                }
                current.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character.isWhitespace {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        guard quote == nil else { throw .unclosedQuote }
        if inWord { words.append(current) }
        guard let program = words.first, !program.isEmpty else { throw .empty }
        guard !program.contains(Self.textPlaceholder), !program.contains(Self.outPlaceholder) else { throw .startsWithPlaceholder }
        for placeholder in [Self.textPlaceholder, Self.outPlaceholder] where !words.contains(where: { $0.contains(placeholder) }) {
            throw .missingPlaceholder(placeholder)
        }
        guard words.allSatisfy({ !$0.contains("\0") }) else { throw .nulByte }
        self.words = words
        self.timeoutSeconds = timeoutSeconds
    }

    /// The program's name, as pack.json `source.engine` records it.
    var programName: String { (words[0] as NSString).lastPathComponent }

    /// The words with the placeholders filled: each placeholder of the word as written is replaced
    /// once, in one pass, so a text that holds `{out}` or `{voice}` is spoken as written.
    func arguments(text: String, out: String, voice: String?) -> [String] {
        words.map { Self.fill($0, [(Self.textPlaceholder, text), (Self.outPlaceholder, out), (Self.voicePlaceholder, voice ?? "")]) }
    }

    /// `word` with every occurrence of each placeholder replaced by its value, scanning the word once
    /// (placeholders are ASCII, so a byte match never splits a character).
    static func fill(_ word: String, _ values: [(placeholder: String, value: String)]) -> String {
        let bytes = Array(word.utf8)
        let patterns = values.map { (Array($0.placeholder.utf8), Array($0.value.utf8)) }
        var filled: [UInt8] = []
        filled.reserveCapacity(bytes.count)
        var index = 0
        scan: while index < bytes.count {
            if bytes[index] == UInt8(ascii: "{") {
                for (pattern, value) in patterns where bytes[index...].starts(with: pattern) {
                    filled.append(contentsOf: value)
                    index += pattern.count
                    continue scan
                }
            }
            filled.append(bytes[index])
            index += 1
        }
        return String(decoding: filled, as: UTF8.self)
    }

    /// Runs the command for `text`, to write `out`. Refused when it cannot start, fails, takes
    /// longer than the timeout or writes no file; what it printed last on stderr is quoted. It runs
    /// as ChildProcess runs programs: in a process group of its own, killed whole at the timeout and
    /// after it ends, so nothing it started outlives it.
    func run(text: String, out: String, voice: String?) throws(SoundpackError) {
        let arguments = arguments(text: text, out: out, voice: voice)
        let outcome: ChildProcess.Outcome
        do { outcome = try ChildProcess.run(arguments, timeoutSeconds: timeoutSeconds) } catch {
            throw .refused("cannot start the engine command '\(arguments[0].quoted(limit: 80))'", error.message,
                           hint: "give the program's path, or put it on PATH")
        }
        let said = outcome.lastLine
        let quote = said.isEmpty ? nil : "it said: \(said)"
        switch outcome.ending {
        case .exited(0): break
        case .timedOut:
            throw .refused("the engine command took longer than \(Int(timeoutSeconds)) s for '\(text.quoted(limit: 60))' and was stopped")
        case .interrupted(let signal):
            throw Interruption.error(signal)
        case .exited(let code):
            throw .refused("the engine command exited with status \(code) for '\(text.quoted(limit: 60))'", quote)
        case .signalled(let signal):
            throw .refused("the engine command was killed by signal \(signal) for '\(text.quoted(limit: 60))'", quote)
        }
        var file = stat()
        guard lstat(out, &file) == 0, file.st_mode & S_IFMT == S_IFREG, file.st_size > 0 else {
            throw .refused("the engine command wrote no audio file at {out} for '\(text.quoted(limit: 60))'",
                           quote, hint: "it must write the file named by {out}")
        }
    }
}

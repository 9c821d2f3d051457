// `soundpack say AMOUNT…`: the reading of amounts as words, tokens, clip files or JSON lines.

import Foundation
import SoundpackCore
import SoundpackKit

enum SayCommand: Command {
    static let spec = CommandSpec(
        name: "say",
        synopsis: "say AMOUNT... (--pack DIR | --grammar G) [--format text|tokens|files|json]",
        summary: "Print how amounts are read: one line per amount.",
        discussion: """
            AMOUNT is a decimal like 15.40 or 1,234.5 (at most 2 fraction digits, below 10^12 and at
            most the pack's maxAmount). `-` reads one amount per line from standard input; a bad line
            is reported on stderr with its line number, the others are still answered, and the exit
            code is 1. With --grammar alone there is no prefix and --format files is not available.
            Formats: text (微信到账十五点四元), tokens (space-separated token ids), files (clip paths as
            written in pack.json), json (one object per line).
            """,
        options: [
            .option("--pack", value: "DIR", help: "read with this pack's grammar, prefix, suffix and maxAmount"),
            .option("--grammar", value: "G", help: "zh-Hans or zh-Hant, without a pack"),
            .option("--two", value: "STYLE", help: "er (default) or liang, with --grammar"),
            .option("--format", value: "FORMAT", help: "text (default), tokens, files or json"),
        ])

    /// Everything needed to answer one amount, prepared once.
    struct Reader {
        var grammar: Grammar
        var maximum: Amount
        var prefix: Bool
        var suffix: Bool
        var texts: [String: String]
        var files: [String: String]
        var format: String
        /// Per-token output bytes by `Token.ordinal`, computed once so a million amounts cost only copying.
        var tokenText: [[UInt8]] = []
        var tokenTextJSON: [[UInt8]] = []
        var tokenID: [[UInt8]] = []
        var tokenJSON: [[UInt8]] = []
        var fileText: [[UInt8]] = []
        var fileJSON: [[UInt8]] = []

        mutating func prepare() {
            for token in Token.allCases {
                let text = grammar.text(of: token, texts: texts), file = files[token.rawValue] ?? ""
                tokenText.append(Array(text.utf8))
                tokenTextJSON.append(Array(jsonEscaped(text).utf8))
                tokenID.append(Array(token.rawValue.utf8))
                tokenJSON.append(Array("\"\(jsonEscaped(token.rawValue))\"".utf8))
                fileText.append(Array(file.utf8))
                fileJSON.append(Array("\"\(jsonEscaped(file))\"".utf8))
            }
        }

        /// Appends the answer for `amount` and a newline to `line`.
        func write(_ amount: Amount, tokens buffer: inout [Token], into line: inout [UInt8]) {
            buffer.removeAll(keepingCapacity: true)
            if prefix { buffer.append(.prefix) }
            grammar.appendTokens(for: amount, to: &buffer)
            if suffix { buffer.append(.suffix) }
            func join(_ parts: [[UInt8]], _ separator: UInt8?) {
                for (i, token) in buffer.enumerated() {
                    if i > 0, let separator { line.append(separator) }
                    line.append(contentsOf: parts[token.ordinal])
                }
            }
            switch format {
            case "tokens": join(tokenID, UInt8(ascii: " "))
            case "files": join(fileText, UInt8(ascii: " "))
            case "json":
                line.append(contentsOf: #"{"amount":""#.utf8)
                line.append(contentsOf: amount.description.utf8)
                line.append(contentsOf: #"","text":""#.utf8)
                join(tokenTextJSON, nil)
                line.append(contentsOf: #"","tokens":["#.utf8)
                join(tokenJSON, UInt8(ascii: ","))
                line.append(UInt8(ascii: "]"))
                if !files.isEmpty {
                    line.append(contentsOf: #","files":["#.utf8)
                    join(fileJSON, UInt8(ascii: ","))
                    line.append(UInt8(ascii: "]"))
                }
                line.append(UInt8(ascii: "}"))
            default:
                join(tokenText, nil)
            }
            line.append(UInt8(ascii: "\n"))
        }

        func jsonEscaped(_ text: String) -> String {
            guard text.contains(where: { $0 == "\"" || $0 == "\\" || $0.asciiValue.map { $0 < 0x20 } == true }) else { return text }
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

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(CLIError) -> ExitCode {
        let format = try arguments.choice("--format", ["text", "tokens", "files", "json"], default: "text")
        var reader = try makeReader(arguments, format: format, context)
        reader.prepare()
        guard !arguments.positionals.isEmpty else {
            throw .usage("say needs at least one amount, or - to read amounts from standard input", hint: "soundpack say 15.40 --grammar zh-Hans")
        }
        let out = context.stdout
        let errorLabel = Style.error(context.colours(context.stderr))
        var failed = false
        var buffer: [Token] = []
        buffer.reserveCapacity(32)
        var line: [UInt8] = []
        line.reserveCapacity(512)

        func answer(_ input: String, lineNumber: Int?) {
            do throws(AmountError) {
                let amount = try Amount(parsing: input, maximum: reader.maximum)
                line.removeAll(keepingCapacity: true)
                reader.write(amount, tokens: &buffer, into: &line)
                out.write(bytes: line)
            } catch {
                failed = true
                out.flush()
                context.stderr.write("\(errorLabel) \(lineNumber.map { "line \($0): " } ?? "")\(error.description)\n")
            }
        }

        for argument in arguments.positionals {
            if argument == "-" {
                var number = 0
                while let text = context.stdin.nextLine() {
                    number += 1
                    answer(text, lineNumber: number)
                }
            } else {
                answer(argument, lineNumber: nil)
            }
        }
        return failed ? .failure : .success
    }

    static func makeReader(_ arguments: ParsedArguments, format: String, _ context: CLIContext) throws(CLIError) -> Reader {
        if let pack = arguments.value("--pack") {
            guard arguments.value("--grammar") == nil, arguments.value("--two") == nil else {
                throw .usage("--pack and --grammar/--two cannot be combined", hint: "the pack's pack.json declares its grammar")
            }
            let manifest: PackManifest
            do { manifest = try ManifestLoader.load(directory: context.absolute(pack)) } catch {
                throw .failure("cannot use \(pack)/pack.json", error.description, hint: "run soundpack validate \(pack)")
            }
            return Reader(grammar: manifest.grammar, maximum: manifest.maxAmount, prefix: true,
                          suffix: manifest.clips[Token.suffix.rawValue] != nil, texts: manifest.texts, files: manifest.clips, format: format)
        }
        guard let name = arguments.value("--grammar") else {
            throw .usage("say needs --pack DIR or --grammar G", hint: "soundpack say 15.40 --grammar zh-Hans")
        }
        guard let id = GrammarID(rawValue: name) else {
            throw .usage("'\(name)' is not a known grammar", hint: "use one of: \(GrammarID.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let two = try arguments.choice("--two", TwoStyle.allCases.map(\.rawValue), default: "er")
        guard format != "files" else {
            throw .usage("--format files needs --pack", hint: "a grammar alone has no clip files")
        }
        let maximum = Amount(minorUnits: Amount.grammarLimit.minorUnits - 1)
        return Reader(grammar: Grammar(id, two: TwoStyle(rawValue: two) ?? .er), maximum: maximum, prefix: false,
                      suffix: false, texts: [:], files: [:], format: format)
    }
}

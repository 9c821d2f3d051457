// `soundpack say AMOUNT…`: the reading of amounts as words, tokens, clip files or JSON lines.

import Foundation
import SoundpackCore
import SoundpackKit

enum SayCommand: Command {
    static let spec = CommandSpec(
        name: "say",
        synopsis: "say AMOUNT...|- (--pack DIR [--phrase ID] | --grammar G [--two STYLE] [--money STYLE] [--ten-start STYLE]) [--format text|tokens|files|json|table]",
        summary: "Print how amounts are read: one line per amount.",
        discussion: """
            AMOUNT is a decimal like 15.40 or 1,234.5 (at most 2 fraction digits, below 10^12 and at
            most the pack's maxAmount). `-` reads one amount per line from standard input; a bad line
            is reported on stderr with its line number, the others are still answered, and the exit
            code is 1. With --grammar alone there is no prefix and --format files is not available;
            --two, --money and --ten-start choose its reading options (a pack's come from its pack.json).
            --phrase ID says one of the pack's phrases (default: its defaultPhrase); a phrase that says no
            amount (您有一笔新订单) takes none and prints one line.
            Formats: text (微信到账十五点四元), tokens (space-separated token ids), files (clip paths as
            written in pack.json, single-quoted for the shell when they hold spaces or quotes), json (one object per line),
            table (no amounts: the reading itself as the table a player reads amounts with, DESIGN §3b, as JSON on one line).
            """,
        options: Options.specs)

    struct Options: ParsableArguments {
        var amounts: [String] = []
        var pack: String?
        var phrase: String?
        var grammar: GrammarID?
        var reading = ReadingFlags()
        var format = SayFormat.text

        static let declarations: [Declaration<Self>] = [
            .arguments(to: \.amounts),
            .option("--pack", to: \.pack, value: "DIR", help: "read with this pack's grammar, phrases and maxAmount"),
            .option("--phrase", to: \.phrase, value: "ID", help: "the pack's phrase to say (default: its defaultPhrase)"),
            .choice("--grammar", to: \.grammar, value: "G", help: "the reading, without a pack"),
        ] + .group(\.reading) + [
            .choice("--format", to: \.format, value: "FORMAT"),
        ]
    }

    /// What `say` prints: one of the writer's formats, or the reading table.
    enum SayFormat: String, ArgumentChoice {
        case text, tokens, files, json, table

        /// The writer's format; nil for the table.
        var writer: AnnouncementWriter.Format? { AnnouncementWriter.Format(rawValue: rawValue) }
    }

    static func run(_ options: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        guard options.format != .table else { return try table(options, context) }
        let (writer, maximum) = try makeWriter(options, context)
        guard writer.announcement.saysAmount else {
            let phrase = writer.announcement.phrase.id
            guard options.amounts.isEmpty else { throw .usage("phrase '\(phrase)' says no amount; leave the amounts out", hint: "soundpack say --pack DIR --phrase \(phrase)") }
            var buffer: [Token] = [], line: [UInt8] = []
            writer.write(nil, tokens: &buffer, into: &line)
            context.stdout.write(bytes: line)
            return .success
        }
        guard !options.amounts.isEmpty else {
            throw .usage("say needs at least one amount, or - to read amounts from standard input", hint: "soundpack say 15.40 --grammar zh-Hans")
        }
        let out = context.stdout, errorLabel = Style.error(context.colours(context.stderr))
        let passed = writer.answer(options.amounts, lines: context.stdin, maximum: maximum, write: { out.write(bytes: $0) },
                                   stopped: { out.failure != nil }, reject: { out.flush(); context.stderr.write("\(errorLabel) \($0)\n") })
        return passed ? .success : .failure
    }

    /// The writer for the pack or grammar the options name, and the largest amount it may read.
    static func makeWriter(_ options: Options, _ context: CLIContext) throws(SoundpackError) -> (AnnouncementWriter, Amount) {
        let format = options.format.writer ?? .text
        if let pack = options.pack {
            guard options.grammar == nil, options.reading.firstGiven == nil else {
                throw .usage("--pack and --grammar/--two/--money/--ten-start cannot be combined", hint: "the pack's pack.json declares its grammar and options")
            }
            let packFile: PackFile
            do { packFile = try PackFileLoader.load(directory: context.absolute(pack)) } catch {
                let missing = !FileManager.default.fileExists(atPath: context.absolute(pack))
                throw .refused("cannot use \(pack)/pack.json", error.description,
                               hint: missing ? "check the folder name; soundpack init \(pack) --id ID creates a pack there" : "soundpack validate \(pack) shows what is wrong")
            }
            let book = packFile.phrasebook
            let phrase = try options.phrase.map { id throws(SoundpackError) in try book.phrase(named: id, of: packFile.id) } ?? book.defaultPhrase
            return (AnnouncementWriter.forPack(packFile, phrase: phrase, format: format), packFile.maxAmount)
        }
        guard options.phrase == nil else {
            throw .usage("--phrase needs --pack", hint: "a grammar alone has no phrases")
        }
        guard let id = options.grammar else {
            throw .usage("say needs --pack DIR or --grammar G", hint: "soundpack say 15.40 --grammar zh-Hans")
        }
        let reading = try options.reading.options(for: id)
        guard format != .files else {
            throw .usage("--format files needs --pack", hint: "a grammar alone has no clip files")
        }
        return AnnouncementWriter.forGrammar(Grammar(id, options: reading), format: format)
    }

    /// `--format table`: the reading of the pack's grammar, or of `--grammar` with its options, as JSON.
    static func table(_ options: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        guard options.amounts.isEmpty, options.phrase == nil else {
            throw .usage("--format table prints the reading itself; leave the amounts and --phrase out", hint: "soundpack say --grammar zh-Hans --format table")
        }
        let grammar: Grammar
        if let pack = options.pack {
            guard options.grammar == nil, options.reading.firstGiven == nil else {
                throw .usage("--pack and --grammar/--two/--money/--ten-start cannot be combined", hint: "the pack's pack.json declares its grammar and options")
            }
            do { grammar = try PackFileLoader.load(directory: context.absolute(pack)).grammar } catch {
                throw .refused("cannot use \(pack)/pack.json", error.description, hint: "soundpack validate \(pack) shows what is wrong")
            }
        } else {
            guard let id = options.grammar else { throw .usage("say needs --pack DIR or --grammar G", hint: "soundpack say --grammar zh-Hans --format table") }
            grammar = Grammar(id, options: try options.reading.options(for: id))
        }
        let json: Data
        do { json = try StoreJSON.encode(grammar.readingTable, compact: true) } catch { throw error.context("cannot write the table") }
        context.stdout.write(bytes: Array(json))
        return .success
    }
}

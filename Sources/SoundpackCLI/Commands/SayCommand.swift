// `soundpack say AMOUNT…`: the reading of amounts as words, tokens, clip files or JSON lines.

import Foundation
import SoundpackCore
import SoundpackKit

enum SayCommand: Command {
    static let spec = CommandSpec(
        name: "say",
        synopsis: "say AMOUNT...|- (--pack DIR [--phrase ID] | --grammar G [--two STYLE] [--money STYLE] [--ten-start STYLE]) [--format text|tokens|files|json]",
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
            written in pack.json, single-quoted for the shell when they hold spaces or quotes), json (one object per line).
            """,
        options: Options.specs)

    struct Options: ParsableArguments {
        var amounts: [String] = []
        var pack: String?
        var phrase: String?
        var grammar: GrammarID?
        var reading = ReadingFlags()
        var format = AnnouncementWriter.Format.text

        static let declarations: [Declaration<Self>] = [
            .arguments(to: \.amounts),
            .option("--pack", to: \.pack, value: "DIR", help: "read with this pack's grammar, phrases and maxAmount"),
            .option("--phrase", to: \.phrase, value: "ID", help: "the pack's phrase to say (default: its defaultPhrase)"),
            .choice("--grammar", to: \.grammar, value: "G", help: "the reading, without a pack"),
        ] + .group(\.reading) + [
            .choice("--format", to: \.format, value: "FORMAT"),
        ]
    }

    static func run(_ options: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
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
        let format = options.format
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
}

// `soundpack synth DIR --id ID --grammar G`: a complete pack spoken by a text-to-speech engine.

import Foundation
import SoundpackCore
import SoundpackKit

enum SynthCommand: Command {
    static let spec = CommandSpec(
        name: "synth",
        synopsis: "synth DIR --id ID [--grammar zh-Hans|zh-Hant|en-US|en-IN|hi-IN] [--two STYLE] [--money STYLE] [--ten-start STYLE] [--max-amount AMOUNT] [--voice V] [--engine-command 'CMD {text} {out}'] [--engine-timeout S] [--phrase-text ID=TEXT ...] [--rate HZ] [--codec pcm16|ulaw|alaw|ima4] [--force] [--format text|json]",
        summary: "Write a complete pack spoken by a text-to-speech engine: a clip for every token, converted, trimmed and levelled.",
        discussion: """
            Every clip the grammar, its options and the phrases need up to --max-amount is spoken from its written
            text (the grammar's words; --phrase-text for the phrases) by libespeak-ng with its voice for the
            language (cmn, en-us or hi; --voice picks another), each clip in a soundpack process of its own so a
            crash of the engine is an error naming the clip, or by --engine-command: a program run once per
            clip, directly and never through a shell, in a process group of its own with no signal blocked,
            with {text} replaced by the clip's text, {out} by the file it must write (any format soundpack
            reads) and {voice} by --voice (each placeholder of the template's words once; the text is never
            searched for them); it is stopped after --engine-timeout seconds (default 60), and the end of
            what it wrote on stderr is quoted when it fails. Every option is checked before the first clip is
            spoken; SIGINT or SIGTERM stops the engine, removes the working folder (under TMPDIR) and ends
            synth with that signal. The clips are then converted as `convert --mono --trim-silence
            --loudness -19 --rate HZ --codec CODEC` converts them (default 22050 Hz, pcm16, CAF), and the pack
            must validate without errors before it is renamed into DIR; a failure leaves no DIR. pack.json records
            "source": {"engine", "voice"}, which validate, show and the HTML report display (publish keeps it in the
            store's manifest.json): synthesised clips are placeholders until voices are recorded.
            --phrase-text ID=TEXT (repeatable): prefix=TEXT and suffix=TEXT set the words around the amount
            (default prefix: 收款到账, Payment received, भुगतान प्राप्त हुआ); any other ID declares a phrase
            whose TEXT marks the amount with {amount} (wechat='微信到账{amount}'; order='您有一笔新订单' says
            none); the first phrase given is the default. The words after {amount} are the clip ID-after; an ID
            given twice, or two phrases that need the same clip, are refused. Each clip is spoken into a file
            of its own.
            """,
        options: Options.specs)

    struct Options: ParsableArguments {
        var new = NewPackOptions()
        var voice: String?
        var engineCommand: EngineCommand?
        var engineTimeout: Double?
        var phraseTexts: [KeyValuePair] = []
        var rate: Int?
        var codec = AudioFileWriter.Encoding.pcm16
        var force = false
        var format = OutputFormat.text

        static let declarations: [Declaration<Self>] = .group(\.new) + [
            .option("--voice", to: \.voice, value: "V", help: "the engine's voice (espeak-ng: cmn, en-us, hi, ...)"),
            .option("--engine-command", to: \.engineCommand, value: "CMD", help: "a TTS program run per clip, e.g. 'my-tts --out {out} {text}'") {
                template throws(SoundpackError) in try SynthCommand.engineCommand(template)
            },
            .option("--engine-timeout", to: \.engineTimeout, value: "S", help: "seconds one engine command may take (default 60)") { text throws(SoundpackError) in
                guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 3600 else {
                    throw .usage("--engine-timeout must be seconds between 0 and 3600, e.g. 30")
                }
                return seconds
            },
            .phraseTexts(to: \.phraseTexts),
            .option("--rate", to: \.rate, value: "HZ", help: "sample rate of the clips (default 22050)") { text throws(SoundpackError) in
                let rates = PackConverter().limits.sampleRates
                guard let hz = Int(text) else { throw .usage("--rate must be a whole number of Hz") }
                guard rates.contains(hz) else { throw .usage("--rate \(hz) is outside \(rates.lowerBound)–\(rates.upperBound) Hz", hint: "e.g. --rate 22050") }
                return hz
            },
            .choice("--codec", to: \.codec, value: "CODEC", [.pcm16, .ulaw, .alaw, .ima4]),
            .flag("--force", to: \.force, help: "replace an existing DIR"),
            .choice("--format", to: \.format, value: "FORMAT"),
        ]
    }

    static func run(_ options: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let new = try options.new.resolved(command: "synth", example: "soundpack synth drafts/demo --id demo --grammar zh-Hans")
        let format = options.format
        let directory = new.directory
        var request = SynthRequest(id: new.id, grammar: new.grammar, maxAmount: new.maximum)
        request.voice = options.voice
        if var command = options.engineCommand {
            command.timeoutSeconds = options.engineTimeout ?? 60
            request.engine = .command(command)
        } else if options.engineTimeout != nil {
            throw .usage("--engine-timeout applies to --engine-command only")
        }
        request.phraseTexts = try PhraseTexts.reading(options.phraseTexts)
        if let hz = options.rate { request.convert.sampleRate = hz }
        request.convert.encoding = options.codec
        request.convert.force = options.force
        request.espeakHost = context.soundpackProgram.map { .worker(program: $0) } ?? .inProcess
        request.temporaryFolder = context.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : context.absolute($0) } ?? "/tmp"

        let summary: SynthSummary
        do {
            let synthesize = { () throws(SoundpackError) -> SynthSummary in try PackSynthesizer().synthesize(request, into: context.packFolder(directory)) }
            summary = try context.ownsProcess ? Interruption.catching(synthesize) : synthesize()
        } catch {
            let replaceable = !request.convert.force && FileManager.default.fileExists(atPath: context.absolute(directory))
            throw phrased(error).context("cannot synthesise \(directory)", hint: replaceable ? "pass --force to replace it" : nil)
        }
        let header = "\(directory.visible): \(summary.converted.clips.count) clips spoken by \(summary.source.description.visible), \(summary.converted.sampleRate) Hz mono \(request.convert.encoding.rawValue) caf\n"
        try context.emit(Validated(report: summary.converted.report, header: header), format)
        return .success
    }

    /// The pack.json field an engine error names (`SoundpackError.input`), as the option that sets it
    /// (`engine`: the engine itself cannot be used).
    static let optionSetting = [
        "source.engine": "--engine-command (the program's name, which pack.json records as source.engine)", "source.voice": "--voice",
        "maxAmount": "--max-amount", "id": "--id", "name": "--id",
    ]

    /// An engine error about one of the pack's fields, in the words of the option that set it: a
    /// usage error, as the value came from the command line.
    static func phrased(_ error: SoundpackError) -> SoundpackError {
        guard let field = error.input else { return error }
        // The engine cannot be used: the command line names the other one.
        if field == "engine" { return error.adding(hint: "--engine-command runs your own") }
        // DIR, as given on the command line.
        if field == "destination" { return error.of(.usage) }
        guard let option = optionSetting[field] else { return .usage("these phrase texts make no valid pack.json: field '\(field.quoted(limit: 60))': \(error.what)") }
        return .usage("\(option): \(error.what)")
    }

    /// `--engine-command`'s template as a command line, its problems phrased with the option.
    static func engineCommand(_ template: String) throws(SoundpackError) -> EngineCommand {
        do throws(EngineCommand.Problem) { return try EngineCommand(template) } catch {
            switch error {
            case .unclosedQuote: throw .usage("--engine-command has an unclosed quote", hint: "close it: 'my-tts --text {text} --out {out}'")
            case .empty: throw .usage("--engine-command is empty", hint: "e.g. 'espeak-ng -v en-us -w {out} {text}'")
            case .startsWithPlaceholder: throw .usage("--engine-command must start with the program, not a placeholder")
            case .missingPlaceholder(let placeholder):
                throw .usage("--engine-command needs \(placeholder) in its words", hint: "the text to speak is passed as {text}, the file to write as {out}")
            case .nulByte: throw .usage("--engine-command holds a NUL byte")
            }
        }
    }
}

extension EngineCommand: ArgumentValue {
    init?(argument: String) { try? self.init(argument) }
}

// `soundpack render`: the sound file an extension would build for each amount.

import Foundation
import SoundpackCore
import SoundpackKit

enum RenderCommand: Command {
    static let spec = CommandSpec(
        name: "render",
        synopsis: "render --pack DIR [--phrase ID] (AMOUNT... | --amounts FILE|-) -o FILE|DIR|- [--container caf|wav|aiff] [--codec pcm16|ulaw|alaw] [--gap-ms N] [--trim-silence] [--allow-long]",
        summary: "Join a pack's clips into one iOS-playable sound file per amount.",
        discussion: """
            One amount with -o FILE writes that file; its extension (.caf, .wav, .aiff) picks the container.
            Several amounts, or --amounts FILE (one per line; - for standard input), write one file per
            amount into the folder -o DIR, named from the amount (15.40.caf); equal amounts share one file.
            --phrase ID says one of the pack's phrases (default: its defaultPhrase); files in a folder are
            then named from the phrase and the amount (refund-15.40.caf). A phrase that says no amount
            (您有一笔新订单) takes none: -o FILE, or -o DIR for ID.caf.
            The output has the pack's sample rate and channels, 16-bit PCM unless --codec says otherwise.
            Each clip is decoded once per run. A bad amount is reported with its line number and the
            others are still rendered; the exit code is then 1. An announcement at or above the pack's
            checks.composeMaxSeconds (30 s, iOS's limit) is refused as [compose.too-long] unless --allow-long.
            """,
        options: Options.specs)

    struct Options: ParsableArguments {
        var amounts: [String] = []
        var pack: String?
        var phrase: String?
        var output: String?
        var amountsFile: String?
        var container: Container?
        var render = RenderOptions()
        var allowLong = false

        static let declarations: [Declaration<Self>] = [
            .arguments(to: \.amounts),
            .option("--pack", to: \.pack, value: "DIR", help: "the pack folder"),
            .option("--phrase", to: \.phrase, value: "ID", help: "the phrase to say (default: the pack's defaultPhrase)"),
            .option("-o", "--output", to: \.output, value: "PATH", help: "output file (one amount) or folder"),
            .option("--amounts", to: \.amountsFile, value: "FILE", help: "read amounts from FILE, one per line (- for stdin)"),
            .choice("--container", to: \.container, value: "C", [.caf, .wav, .aiff], shown: .caf, help: "the container of files written into a folder or to stdout"),
            .choice("--codec", to: \.render.encoding, value: "CODEC", [.pcm16, .ulaw, .alaw]),
            .option("--gap-ms", to: \.render.gapMs, value: "MS", help: "silence between clips (default 0)") { text throws(SoundpackError) in
                guard let ms = Double(text), ms >= 0, ms <= 5_000 else { throw .usage("--gap-ms must be a number of milliseconds from 0 to 5000") }
                return ms
            },
            .flag("--trim-silence", to: \.render.trimSilence, help: "cut each clip's leading and trailing silence before joining"),
            .flag("--allow-long", to: \.allowLong, help: "write announcements at or above the pack's composeMaxSeconds (iOS plays the default sound instead)"),
        ]
    }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        guard let packPath = arguments.pack else { throw .usage("render needs --pack DIR") }
        guard let output = arguments.output else { throw .usage("render needs -o FILE or -o DIR") }
        let options = arguments.render
        let amountsFile = arguments.amountsFile, allowLong = arguments.allowLong, phraseID = arguments.phrase
        let givesAmounts = !arguments.amounts.isEmpty || amountsFile != nil
        guard givesAmounts || phraseID != nil else {
            throw .usage("render needs amounts: AMOUNT... or --amounts FILE", hint: "soundpack render --pack packs/wechat 15.40 -o /tmp/a.caf")
        }
        // Without --phrase the output is checked before the pack is read (with one, how many files
        // there are depends on the phrase).
        let early = phraseID == nil ? try Self.destination(output, arguments, context) : nil
        var renderer: PackRenderer
        do { renderer = try PackRenderer(directory: context.absolute(packPath), options: options) } catch { throw error.context("cannot render with \(packPath)") }
        if let phraseID { renderer = renderer.speaking(try renderer.packFile.phrasebook.phrase(named: phraseID, of: renderer.packFile.id)) }
        let saysAmount = renderer.phrase.saysAmount
        if saysAmount != givesAmounts {
            throw saysAmount
                ? .usage("phrase '\(renderer.phrase.id)' says an amount: give AMOUNT... or --amounts FILE", hint: "soundpack render --pack \(packPath) --phrase \(renderer.phrase.id) 15.40 -o /tmp/a.caf")
                : .usage("phrase '\(renderer.phrase.id)' says no amount; leave the amounts out", hint: "soundpack render --pack \(packPath) --phrase \(renderer.phrase.id) -o /tmp/\(renderer.phrase.id).caf")
        }
        let destination: RenderDestination
        if let early { destination = early } else { destination = try Self.destination(output, arguments, context, amounts: saysAmount ? nil : 1) }
        guard case .folder(let folder, let container) = destination else {
            let amount = saysAmount ? arguments.amounts.first : nil
            try renderFile(renderer, amount, to: destination, output: output, allowLong: allowLong, phraseNamed: phraseID != nil, context)
            return .success
        }
        guard saysAmount else {
            try renderer.write([nil], intoFolder: folder, shown: output, container: container, namedByPhrase: true)
            try context.emit(RenderedFolder(output: output, count: 1, container: container, renderer: renderer), .text)
            return .success
        }
        // iOS plays the default sound instead of a file of 30 s or more: such a file is refused.
        let list = try AmountList.read(arguments: arguments.amounts, file: amountsFile.map(context.absolute), shown: amountsFile ?? "",
                                       standardInput: context.stdin, maximum: renderer.packFile.maxAmount, grouping: renderer.packFile.grammar.grouping) { amount in
            guard !allowLong, let finding = renderer.tooLong(amount) else { return nil }
            return "[\(finding.rule.rawValue)] \(finding.message) (shorten the clips, or pass --allow-long)"
        }
        let errorLabel = Style.error(context.colours(context.stderr))
        for rejection in list.rejections { context.stderr.write("\(errorLabel) \(rejection)\n") }
        let progress = Progress("rendering", total: list.amounts.count, sink: context.stderr, environment: context.environment)
        defer { progress.finish() }
        try renderer.write(list.amounts, intoFolder: folder, shown: output, container: container, namedByPhrase: phraseID != nil) { progress.advance() }
        try context.emit(RenderedFolder(output: output, count: list.amounts.count, container: container, renderer: renderer), .text)
        return list.rejections.isEmpty ? .success : .failure
    }

    /// One announcement (`amount`, as written, or none for a phrase that says none) into one file
    /// or to standard output.
    private static func renderFile(
        _ renderer: PackRenderer, _ written: String?, to destination: RenderDestination, output: String, allowLong: Bool, phraseNamed: Bool,
        _ context: CLIContext
    ) throws(SoundpackError) {
        var amount: Amount?
        if let written {
            do { amount = try Amount(parsing: written, maximum: renderer.packFile.maxAmount, grouping: renderer.packFile.grammar.grouping) } catch {
                throw .refused(error.description)
            }
        }
        let rendered: RenderedAmount
        do { rendered = try renderer.render(amount, to: destination, allowLong: allowLong, shown: output) } catch {
            throw error.kind == .refused ? error.with(hint: "shorten the clips, or pass --allow-long") : error
        }
        if let bytes = rendered.bytes { try context.writeOutput(bytes, to: output) } else {
            try context.emit(RenderedFile(output: output, rendered, phraseNamed: phraseNamed), .text)
        }
    }

    /// Where the output goes (the problems phrased with the flags that cause them).
    /// `amounts` is how many files are asked for when the arguments do not say (a phrase without an amount: 1).
    static func destination(_ output: String, _ arguments: Options, _ context: CLIContext, amounts given: Int? = nil) throws(SoundpackError) -> RenderDestination {
        let amounts = given ?? (arguments.amountsFile == nil ? arguments.amounts.count : nil)
        do { return try RenderDestination.resolve(path: context.absolute(output), isStandardOutput: output == "-", amounts: amounts, container: arguments.container) } catch {
            throw error.usage(output: output)
        }
    }
}

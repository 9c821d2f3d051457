// `soundpack report DIR… -o report.html`: one self-contained HTML file to see and hear the packs.

import Foundation
import SoundpackCore
import SoundpackKit

enum ReportCommand: Command {
    static let spec = CommandSpec(
        name: "report",
        synopsis: "report DIR... -o FILE [--amount AMOUNT]...",
        summary: "Write one self-contained HTML report: coverage, waveforms, loudness, findings and players for every clip.",
        discussion: """
            Per pack: the coverage table (token, file, format, duration), every clip's waveform with its leading
            and trailing silence shaded, each clip's momentary-max loudness against the pack median, every finding
            next to the clip it concerns, the longest announcement against iOS's 30 s, and audio players for every
            clip and for sample amounts rendered by the same code as `render` (--amount, repeatable; default
            0.05 15.40 1234.56 20000 and the worst case). Audio is embedded as data URIs; the file needs no network.
            """,
        options: Options.specs)

    struct Options: ParsableArguments {
        var packs: [String] = []
        var output: String?
        var amounts: [Amount] = []

        static let declarations: [Declaration<Self>] = [
            .arguments(to: \.packs),
            .option("-o", "--output", to: \.output, value: "FILE", help: "the HTML file to write"),
            // Amounts are checked like say's: a bad one is an error, never silently dropped.
            .option("--amount", to: \.amounts, value: "AMOUNT", help: "an amount to render as a player (repeatable)") { (text: String) throws(SoundpackError) -> Amount in
                do throws(AmountError) { return try Amount(parsing: text) } catch { throw .refused("--amount: \(error.description)") }
            },
        ]
    }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        guard !arguments.packs.isEmpty else { throw .usage("report needs at least one pack folder", hint: "soundpack report packs/wechat -o report.html") }
        guard let output = arguments.output else { throw .usage("report needs -o FILE") }
        let progress = Progress("measuring clips", total: nil, sink: context.stderr, environment: context.environment)
        let reports = Validator().validate(folders: arguments.packs.map(context.packFolder)) { done, total in progress.update(to: done, of: total) }
        progress.finish()
        var amounts = arguments.amounts
        if amounts.isEmpty { amounts = HTMLReport.defaultAmounts }
        let html = HTMLReport.render(reports, amounts: amounts, toolVersion: SoundpackCommand.version)
        try context.writeOutput(Data(html.utf8), to: output)
        // The report is written either way; like validate, a pack with errors makes the exit code 1.
        let failed = reports.filter { !$0.passed(strict: false) }.count
        if output != "-" {
            context.stdout.write("\(output.visible): \(reports.count) pack\(reports.count == 1 ? "" : "s") (\(failed) failed), \(reports.reduce(0) { $0 + $1.clips.count }) clips, \(html.utf8.count / 1024) KiB\n")
        }
        for report in reports where !report.passed(strict: false) {
            context.stderr.write("\(report.folder.shown.visible): failed — \(report.errors) error\(report.errors == 1 ? "" : "s") (soundpack validate \(report.folder.shown.visible) lists them)\n")
        }
        return failed == 0 ? .success : .failure
    }
}

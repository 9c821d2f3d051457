// `soundpack validate DIR…`: every rule on each pack, printed as text or JSON, recorded in the catalog.

import Foundation
import SoundpackKit

enum ValidateCommand: Command {
    static let spec = CommandSpec(
        name: "validate",
        synopsis: "validate DIR... [--format text|json] [--strict]",
        summary: "Check that each pack can say every amount up to its maxAmount, in a format iOS plays.",
        discussion: """
            Runs every rule (manifest.*, coverage.*, file.*, format.*, audio.*, compose.too-long) on each
            pack folder independently and records each run in the catalog. Text output uses the
            compiler shape `path: error: [rule] message`; JSON output follows schemas/report.schema.json.
            Exit 1 when any pack has an error (or, with --strict, a warning).
            """,
        options: [
            .option("--format", value: "FORMAT", help: "text (default) or json"),
            .flag("--strict", help: "warnings fail validation too"),
            .flag("--no-record", help: "do not record the run in the catalog"),
        ])

    /// The JSON document `validate --format json` prints.
    struct Document: Encodable {
        var tool = "soundpack"
        var version = SoundpackCommand.version
        var strict: Bool
        var passed: Bool
        var packs: [PackReport]
    }

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(CLIError) -> ExitCode {
        let format = try arguments.choice("--format", ["text", "json"], default: "text")
        guard !arguments.positionals.isEmpty else {
            throw .usage("validate needs at least one pack folder", hint: "soundpack validate packs/wechat")
        }
        let strict = arguments.has("--strict")
        let validator = Validator()
        var reports = validator.validate(directories: arguments.positionals.map(context.absolute))
        for index in reports.indices { reports[index].directory = arguments.positionals[index] }  // as the user wrote it
        let passed = reports.allSatisfy { $0.passed(strict: strict) }

        switch format {
        case "json":
            context.stdout.write(context.json(Document(strict: strict, passed: passed, packs: reports)))
        default:
            printText(reports, strict: strict, context)
        }

        if !arguments.has("--no-record") {
            let catalog = try context.openCatalog(arguments)
            for report in reports {
                do {
                    try catalog.recordValidation(report, strict: strict, toolVersion: SoundpackCommand.version, at: context.now())
                } catch {
                    throw .environment("cannot record the validation of \(report.directory) in the catalog", error.message)
                }
            }
        }
        return passed ? .success : .failure
    }

    static func printText(_ reports: [PackReport], strict: Bool, _ context: CLIContext) {
        let colour = context.colours(context.stdout)
        let out = context.stdout
        for report in reports {
            for finding in report.findings {
                let base = report.directory.hasSuffix("/") ? String(report.directory.dropLast()) : report.directory
                let location = "\(base)/\(finding.file ?? "pack.json")"
                let label = finding.severity == .error ? Style.error(colour) : Style.warning(colour)
                out.write("\(location): \(label) [\(finding.rule.rawValue)] \(finding.message)\n")
            }
            out.write(summary(report, strict: strict, colour: colour) + "\n")
        }
        if reports.count > 1 {
            let failed = reports.filter { !$0.passed(strict: strict) }.count
            let errors = reports.reduce(0) { $0 + $1.errors }, warnings = reports.reduce(0) { $0 + $1.warnings }
            out.write("\(reports.count) packs: \(reports.count - failed) passed, \(failed) failed (\(count(errors, "error")), \(count(warnings, "warning")))\n")
        }
    }

    static func summary(_ report: PackReport, strict: Bool, colour: Bool) -> String {
        let verdict = report.passed(strict: strict) ? Style.ok("passed", colour) : Style.paint("failed", "1;31", colour)
        var parts: [String] = []
        if let id = report.id, let version = report.version { parts.append("\(id) \(version)") }
        if !report.clips.isEmpty {
            var clips = "\(report.clips.count) clips"
            let formats = Set(report.clips.compactMap { $0.facts.map { "\($0.sampleRate) Hz \($0.channels == 1 ? "mono" : "stereo") \($0.codec.rawValue) \($0.container.rawValue)" } })
            if formats.count == 1, let only = formats.first { clips += " (\(only))" }
            parts.append(clips)
        }
        if let worst = report.worstCase {
            parts.append("longest announcement \(String(format: "%.2f", worst.seconds)) s for \(worst.amount)")
        }
        let details = parts.isEmpty ? "" : parts.joined(separator: ", ") + "; "
        return "\(report.directory): \(verdict) — \(details)\(count(report.errors, "error")), \(count(report.warnings, "warning"))"
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}

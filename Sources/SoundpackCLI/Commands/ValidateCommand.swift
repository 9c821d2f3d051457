// `soundpack validate DIR…`: every rule on each pack, printed as text or JSON, recorded in the catalog.

import Foundation
import SoundpackCore
import SoundpackKit

/// `validate --format`: the report's rendering.
enum ReportFormat: String, ArgumentChoice { case text, json, junit, github, sarif }

enum ValidateCommand: Command {
    static let usesCatalogOrStore = true
    static let spec = CommandSpec(
        name: "validate",
        synopsis: "validate DIR... [--format text|json|junit|github|sarif] [--output FILE|-] [--strict] [--ignore RULE]... [--baseline FILE] [--no-record]",
        summary: "Check that each pack can say every amount up to its maxAmount, in a format iOS plays.",
        discussion: """
            Runs every rule (manifest.*, coverage.*, file.*, format.*, audio.*, compose.banner-cut, compose.too-long) on each
            pack folder independently and records each run in the catalog. Formats: text (compiler style,
            `path: error: [rule] message`), json (schemas/report.schema.json), junit (one testsuite per pack),
            github (workflow annotations), sarif (SARIF 2.1.0). --output writes the rendering to FILE and
            the text summary to the terminal. --ignore, pack.json "checks": {"ignore": [...]} and --baseline
            (a previous --format json report: only new findings count) suppress findings; suppressed findings
            are still reported, marked as such. Exit 1 when any pack has an error (or, with --strict, a warning).
            """,
        options: [
            .choice("--format", value: "FORMAT", default: ReportFormat.text),
            .option("-o", "--output", value: "FILE", help: "write the rendering to FILE; the text summary goes to the terminal"),
            .flag("--strict", help: "warnings fail validation too"),
            .choice("--ignore", value: "RULE", default: nil as RuleID?, help: "suppress a rule by id (repeatable)", repeatable: true),
            .option("--baseline", value: "FILE", help: "a previous --format json report; its findings do not count"),
            .flag("--no-record", help: "do not record the run in the catalog"),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let format: ReportFormat = try arguments.choice("--format")
        guard !arguments.positionals.isEmpty else {
            throw .usage("validate needs at least one pack folder", hint: "soundpack validate packs/wechat")
        }
        let strict = arguments.has("--strict")
        let ignored = Set(arguments.choices("--ignore", as: RuleID.self))
        var baseline: [String: Set<String>] = [:]
        if let file = arguments.value("--baseline") {
            let data: Data
            do { data = Data(try CappedFile.read(context.absolute(file), cap: Baseline.maxBytes, what: "a baseline")) } catch {
                throw error.context("cannot read the baseline \(file.visible)", hint: "write one with soundpack validate DIR --format json --output \(file)")
            }
            do { baseline = try Baseline.load(data) } catch { throw error.context("\(file) is not a usable baseline") }
        }

        let progress = Progress("validating clips", total: nil, sink: context.stderr, environment: context.environment)
        let started = ContinuousClock.now
        var reports = Validator().validate(folders: arguments.positionals.map(context.packFolder)) { done, total in progress.update(to: done, of: total) }
        progress.finish()
        for index in reports.indices {
            reports[index].suppress(rules: ignored, baseline: baseline[reports[index].id ?? reports[index].folder.shown] ?? [])
        }
        let elapsed = ContinuousClock.now - started
        let run = ValidationRun(reports: reports, strict: strict, toolVersion: SoundpackCommand.version,
                                seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)

        let rendering: String
        switch format {
        case .json:
            do { rendering = try FindingRenderer.json(run) } catch { throw error.context("cannot write the report") }
        case .junit: rendering = FindingRenderer.junit(run)
        case .github:
            rendering = FindingRenderer.github(run)
            if let summary = context.environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
                // The job summary page: appended, as every step of the job writes to the same file.
                do { try OutputFile.append(Data(FindingRenderer.markdownSummary(run).utf8), to: context.absolute(summary)) } catch {
                    throw .environment("cannot append to GITHUB_STEP_SUMMARY (\(summary.visible))", error.message)
                }
            }
        case .sarif: rendering = FindingRenderer.sarif(run)
        case .text: rendering = FindingRenderer.text(run, colour: context.colours(context.stdout))
        }
        if let output = arguments.value("--output") {
            try context.writeOutput(Data(rendering.utf8), to: output)
            // The text summary goes to the terminal, unless the rendering itself went to stdout.
            let summary = FindingRenderer.text(run, colour: context.colours(context.stderr))
            if output == "-" { context.stderr.write(summary) } else { context.stdout.write(summary) }
        } else {
            context.stdout.write(rendering)
        }

        if !arguments.has("--no-record") {
            let catalog = try context.openCatalog(arguments)
            do {
                try catalog.recordValidations(reports, strict: strict, toolVersion: SoundpackCommand.version, at: context.now())
            } catch {
                throw error.context("cannot record the validation in the catalog")
            }
        }
        return run.passed ? .success : .failure
    }
}

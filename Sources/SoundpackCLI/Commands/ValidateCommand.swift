// `soundpack validate DIR…`: every rule on each pack, printed as text or JSON, recorded in the catalog.

import Foundation
import SoundpackCore
import SoundpackKit

extension ReportFormat: ArgumentChoice {}
extension FindingGrouping: ArgumentChoice {}

enum ValidateCommand: Command {
    static let usesCatalogOrStore = true
    static let spec = CommandSpec(
        name: "validate",
        synopsis: "validate [DIR...] [--format text|json|junit|github|sarif] [--output FILE|-] [--group-by file|clip] [--strict] [--ignore RULE]... [--baseline FILE] [--no-record]",
        summary: "Check that each pack can say every amount up to its maxAmount, in a format iOS plays.",
        discussion: """
            Runs every rule (manifest.*, coverage.*, file.*, format.*, audio.*, compose.*) on each
            pack folder independently and records each run in the catalog. With no DIR, every pack under the project
            root's packs/ (each folder that holds a pack.json; anything else there is skipped, as publish skips it). Formats: text (compiler style,
            `path: error: [rule] message`), json (schemas/report.schema.json), junit (one testsuite per pack),
            github (workflow annotations), sarif (SARIF 2.1.0). --output writes the rendering to FILE and
            the text summary to the terminal. --group-by clip prints the text under a heading line per file
            (pack.json, then each clip), every finding line still the same `path: severity: [rule] message`
            line; it changes only text, so with another format it needs --output (the text on the terminal).
            --ignore, pack.json "checks": {"ignore": [...]} and --baseline
            (a previous --format json report: only new findings count) suppress findings; suppressed findings
            are still reported, marked as such. With a store configured (--store, SOUNDPACK_STORE, or the
            project's dist/ once it holds a publish), each pack's clips are compared with the store's newest
            version below it (audio.swapped). What a run could not check is said once per pack ("words not
            checked (no recogniser for zh-Hans)"): on its summary line, in the JSON report's notes, as SARIF
            notifications, and as skipped JUnit testcases. With SOUNDPACK_TIMINGS=1 in the environment, where the
            run's time went (pack.json, reading, hashing, decoding and measuring, voice prints, rules, the
            report, the catalog) is printed on stderr at the end, phase by phase. Exit 1 when any pack has
            an error (or, with --strict, a warning).
            """,
        options: Options.specs)

    struct Options: ParsableArguments {
        var packs: [String] = []
        var format = ReportFormat.text
        var output: String?
        var grouping = FindingGrouping.file
        var strict = false
        var ignored: [RuleID] = []
        var baseline: String?
        var noRecord = false

        static let declarations: [Declaration<Self>] = [
            .arguments(to: \.packs),
            .choice("--format", to: \.format, value: "FORMAT"),
            .option("-o", "--output", to: \.output, value: "FILE", help: "write the rendering to FILE; the text summary goes to the terminal"),
            .choice("--group-by", to: \.grouping, value: "BY", help: "how the text output orders findings: in rule order, or under a heading per clip file"),
            .flag("--strict", to: \.strict, help: "warnings fail validation too"),
            .choices("--ignore", to: \.ignored, value: "RULE", RuleID.reportable, help: "suppress a rule by id (repeatable)"),
            .option("--baseline", to: \.baseline, value: "FILE", help: "a previous --format json report; its findings do not count"),
            .flag("--no-record", to: \.noRecord, help: "do not record the run in the catalog"),
        ]
    }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let printTimings = context.startTimings(first: "validate, in all")
        defer { printTimings?() }
        return try PhaseTimes.measure("validate, in all") { () throws(SoundpackError) -> ExitCode in try prepareAndValidate(arguments, context) }
    }

    /// The packs and the session of the command line, then `validate`.
    private static func prepareAndValidate(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let (format, grouping) = (arguments.format, arguments.grouping)
        if grouping != .file && format != .text && arguments.output == nil {
            throw .usage("--group-by \(grouping.rawValue) groups the text output only, and --format \(format.rawValue) prints none",
                         hint: "use --format text, or add --output FILE so the text goes to the terminal")
        }
        let directories = arguments.packs.isEmpty ? try context.workspace().discoverPacks() : arguments.packs
        guard !directories.isEmpty else {
            throw .usage("no packs to validate: no folder under the project's packs/ holds a pack.json", hint: "soundpack validate DIR, or run it in a project that has packs/")
        }
        var session = ValidationSession(toolVersion: SoundpackCommand.version)
        session.strict = arguments.strict
        session.ignored = Set(arguments.ignored)
        if let file = arguments.baseline {
            do { try session.useBaseline(at: context.absolute(file)) } catch {
                let hint = error.kind == .environment ? "write one with soundpack validate DIR --format json --output \(file)" : nil
                throw error.context(error.kind == .environment ? "cannot read the baseline \(file.visible)" : "\(file) is not a usable baseline", hint: hint)
            }
        }
        session.earlier = try PhaseTimes.measure("store opened for earlier versions") { () throws(SoundpackError) in try earlierVoices(context) }
        return try validate(directories, with: session, arguments, context)
    }

    /// Validates the packs, writes the report and records the run.
    private static func validate(_ directories: [String], with session: ValidationSession, _ arguments: Options,
                                 _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let (format, grouping) = (arguments.format, arguments.grouping)
        let progress = Progress("validating clips", total: nil, sink: context.stderr, environment: context.environment)
        let run = session.run(directories.map(context.packFolder)) { done, total in progress.update(to: done, of: total) }
        progress.finish()

        let rendering = try PhaseTimes.measure("report rendered") { () throws(SoundpackError) in
            format == .text
                ? FindingRenderer.text(run, colour: context.colours(context.stdout), groupedBy: grouping)
                : try FindingRenderer.render(run, as: format, colour: context.colours(context.stdout))
        }
        if format == .github, let summary = context.environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
            // The job summary page: appended, as every step of the job writes to the same file.
            do { try OutputFile.append(Data(FindingRenderer.markdownSummary(run).utf8), to: context.absolute(summary)) } catch {
                throw .environment("cannot append to GITHUB_STEP_SUMMARY (\(summary.visible))", error.message)
            }
        }
        if let output = arguments.output {
            try context.writeOutput(Data(rendering.utf8), to: output)
            // The text summary goes to the terminal, unless the rendering itself went to stdout.
            let summary = FindingRenderer.text(run, colour: context.colours(context.stderr), groupedBy: grouping)
            if output == "-" { context.stderr.write(summary) } else { context.stdout.write(summary) }
        } else {
            context.stdout.write(rendering)
        }
        if !arguments.noRecord {
            try PhaseTimes.measure("catalog record") { () throws(SoundpackError) in try session.record(run, in: try context.openCatalog(), at: context.now()) }
        }
        return run.passed ? .success : .failure
    }

    /// The store's earlier versions (audio.swapped) when a store is configured: named (--store,
    /// SOUNDPACK_STORE), or the project's default that holds a publish. A named store that cannot
    /// be opened or holds nothing is said in each pack's report, never silently skipped.
    static func earlierVoices(_ context: CLIContext) throws(SoundpackError) -> (@Sendable (InspectedPack) -> Result<EarlierVoices?, SoundpackError>)? {
        let named = try context.setting(\.store, "--store", "SOUNDPACK_STORE")
        let workspace = Workspace(catalog: nil, store: named, s3Endpoint: context.global.s3Endpoint,
                                  workingDirectory: context.workingDirectory, environment: context.environment)
        let store: Store
        do {
            store = try workspace.openStore()
            try workspace.requireStore(store)
        } catch {
            guard named != nil else { return nil }
            let failure = error
            return { _ in .failure(failure) }
        }
        return store.earlierVoices()
    }
}

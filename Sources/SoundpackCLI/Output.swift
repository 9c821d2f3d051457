// The one output path: a command's result is Encodable (its JSON) and knows how it reads in a
// terminal (its text); `emit` prints it as `--format` asks.

import SoundpackCore
import SoundpackKit

/// What a command prints.
protocol CommandOutput: Encodable {
    /// The terminal rendering; `colour` says whether to paint it.
    func text(colour: Bool) -> String
}

/// What a checking command prints (`verify`, `payload lint`): its findings, which the renderers
/// of validate print as text, JUnit, GitHub annotations or SARIF; its JSON is its own document.
protocol CheckOutput: CommandOutput {
    var check: CheckReport { get }
}

extension CheckOutput {
    func text(colour: Bool) -> String { check.text(colour: colour) }
}

extension CLIContext {
    /// Prints `output` on stdout as `format` asks: JSON through the one encoder, or its text.
    func emit(_ output: some CommandOutput, _ format: OutputFormat) throws(SoundpackError) {
        stdout.write(format == .json ? try json(output) : output.text(colour: colours(stdout)))
    }

    /// Prints a check's `output` as `format` asks, through the findings renderers.
    func emit(_ output: some CheckOutput, _ format: ReportFormat) throws(SoundpackError) {
        let rendering = try output.check.render(as: format, colour: colours(stdout))
        if let rendering { stdout.write(rendering) } else { stdout.write(try json(output)) }
    }
}

/// `list`: the catalog's packs, or a line saying there are none.
struct PackList: CommandOutput {
    var packs: [CatalogPack]
    var catalog: String

    private enum CodingKeys: String, CodingKey { case packs }

    func text(colour: Bool) -> String {
        guard !packs.isEmpty else { return "no packs in the catalog at \(catalog.visible) (soundpack validate DIR records one)\n" }
        return Table.render([["ID", "VERSION", "PUBLISHED", "GRAMMAR", "LAST VALIDATED", "RESULT", "NAME"]] + packs.map {
            [$0.id, $0.latestVersion ?? "-", String($0.publishedVersions), $0.grammar, $0.lastValidated ?? "never", $0.lastResult ?? "-", $0.name ?? ""]
        })
    }
}

/// `verify`: notes and drift, file by file, and the count.
struct Verification: CheckOutput {
    var store: String
    var filesChecked: Int
    var drift: [Finding]
    var notices: [Finding]

    private enum CodingKeys: String, CodingKey { case store, filesChecked, drift, notices }

    var check: CheckReport {
        CheckReport(command: "verify", subject: store, scope: .store, findings: notices + drift,
                    summary: "\(store): \(filesChecked) files checked, \(drift.isEmpty ? "no drift" : "\(drift.count) problems")", toolVersion: SoundpackCommand.version)
    }
}

/// `publish`: what happened to each pack; a refused pack with errors shows its report first.
struct Publication: CommandOutput {
    var packs: [PublishOutcome]

    func text(colour: Bool) -> String {
        var out = ""
        for outcome in packs {
            switch outcome.status {
            case .published, .unchanged, .wouldPublish:
                out += "\(outcome.folder.shown.visible): \(outcome.message.visible)\n"
            case .refused:
                if outcome.report.errors > 0 {
                    out += FindingRenderer.text(ValidationRun(reports: [outcome.report], strict: false, toolVersion: SoundpackCommand.version), colour: colour)
                }
                out += FindingRenderer.line(at: outcome.folder.shown(PackFolder.packFile), label: Style.error(colour), rule: outcome.rule?.rawValue, outcome.message)
            }
        }
        return out
    }
}

/// `payload lint`: each finding on the payload, and the verdict.
struct PayloadLint: CheckOutput {
    var file: String
    var passed: Bool
    var findings: [Finding]

    var check: CheckReport {
        let errors = findings.filter { $0.severity == .error }.count
        let summary = "\(file): \(errors == 0 ? "passed" : "failed") — \(errors) error\(errors == 1 ? "" : "s"), \(findings.count - errors) warning\(findings.count - errors == 1 ? "" : "s")"
        return CheckReport(command: "payload lint", subject: file, scope: .payload, findings: findings, summary: summary, toolVersion: SoundpackCommand.version)
    }
}

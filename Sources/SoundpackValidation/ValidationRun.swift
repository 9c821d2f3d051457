// One run of validate over several packs, with --strict: what every renderer prints.

import SoundpackCore
import SoundpackPack

/// One `validate` run over several packs: the reports every renderer prints, and whether it passed.
public struct ValidationRun: Sendable {
    /// One report per pack, in the order the packs were named.
    public var reports: [PackReport]
    /// Warnings fail the run too (`--strict`).
    public var strict: Bool
    /// The version of soundpack that ran (SARIF's and JUnit's tool version).
    public var toolVersion: String
    /// Wall time of the whole run, for JUnit.
    public var seconds: Double

    /// A run of `reports`.
    public init(reports: [PackReport], strict: Bool, toolVersion: String, seconds: Double = 0) {
        self.reports = reports
        self.strict = strict
        self.toolVersion = toolVersion
        self.seconds = seconds
    }

    /// Whether no pack has a finding that fails the run (`verdict`).
    public var passed: Bool { reports.allSatisfy { verdict.passes($0.findings) } }

    /// Where a finding points: the pack folder joined with its file (pack.json when none).
    public static func location(_ report: PackReport, _ finding: Finding) -> String {
        report.folder.shown(finding.file ?? PackFolder.packFile)
    }

    /// `location:line:column` when the finding has a place in pack.json, as compilers print it.
    public static func placedLocation(_ report: PackReport, _ finding: Finding) -> String {
        let file = location(report, finding)
        guard let line = finding.line else { return file }
        return "\(file):\(line)" + (finding.column.map { ":\($0)" } ?? "")
    }

    /// What fails this run: errors, and warnings under --strict.
    public var verdict: Verdict { Verdict(strict: strict) }

    /// Whether the finding fails the run: an unsuppressed error, or warning under --strict.
    public func fails(_ finding: Finding) -> Bool { verdict.fails(finding) }
}

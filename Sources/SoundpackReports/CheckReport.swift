// The findings of a command that checks one subject rather than pack folders: the store
// (`verify`) or a push payload (`payload lint`). The same printers render them as validate's.

import SoundpackCore
import SoundpackSupport
import SoundpackValidation

/// The findings of a command that checks one subject rather than pack folders: the store (`verify`)
/// or a push payload (`payload lint`), rendered by the same printers as validate's.
public struct CheckReport: Sendable {
    /// The command, as the JUnit run and SARIF are named (`verify`, `payload lint`).
    public var command: String
    /// What was checked (the store's location, the payload file); findings' files are relative to it.
    public var subject: String
    /// The rules the command runs: SARIF's rule list, JUnit's passing testcases.
    public var scope: RuleID.Scope
    /// Every finding of the check, whatever its severity; `passed` looks at the errors.
    public var findings: [Finding]
    /// The closing line (`dist: 42 files checked, no drift`), without a line break.
    public var summary: String
    /// The soundpack version that ran the check, for SARIF and JUnit.
    public var toolVersion: String

    /// A report of `command` on `subject`, its `findings` against the rules of `scope`.
    public init(command: String, subject: String, scope: RuleID.Scope, findings: [Finding], summary: String, toolVersion: String) {
        self.command = command
        self.subject = subject
        self.scope = scope
        self.findings = findings
        self.summary = summary
        self.toolVersion = toolVersion
    }

    /// No error among the findings (warnings and notes do not fail a check).
    public var passed: Bool { !findings.contains { $0.severity == .error } }

    /// Where a finding points: the subject, joined with the finding's file when it has one.
    public func location(_ finding: Finding) -> String {
        finding.file.map { subject.hasSuffix("/") ? subject + $0 : "\(subject)/\($0)" } ?? subject
    }

    /// The terminal rendering: one compiler-style line per finding, then the summary.
    public func text(colour: Bool) -> String {
        var out = ""
        for finding in findings {
            out += FindingRenderer.line(at: location(finding), label: FindingRenderer.label(finding.severity, colour: colour), rule: finding.rule.rawValue, finding.message)
        }
        return out + summary.visible + "\n"
    }

    /// Rendered as `format`; JSON is the command's own document, so it is not rendered here.
    public func render(as format: ReportFormat, colour: Bool) throws(SoundpackError) -> String? {
        switch format {
        case .text: return text(colour: colour)
        case .json: return nil
        case .junit: return FindingRenderer.junit(self)
        case .github: return FindingRenderer.github(self)
        case .sarif:
            do { return try FindingRenderer.sarif(self) } catch { throw error.cause(of: .environment, "cannot write the SARIF report") }
        }
    }
}

/// One group of findings as the printers see it: a pack of a validation run, or a check's subject.
package struct FindingGroup {
    /// The testsuite's name and the passing testcases' location.
    var name: String
    /// JUnit's class name part.
    var className: String
    /// SARIF's `pack` property of findings about a token.
    var id: String
    var findings: [Finding]
    /// The rules the group ran (JUnit's testcases).
    var rules: [RuleID]
    var passed: Bool
    var summary: String
    var time: Double
    var properties: [(String, String)]
    var location: (Finding) -> String
    var placed: (Finding) -> String
    /// What fails the group: its errors, and its warnings under --strict.
    var verdict: Verdict
    var seconds: (String) -> Double
    /// What the run could not check, or found of the group as a whole (`PackReport.notes`).
    var notes: [String] = []
    /// The rules that could not run, and why (JUnit's skipped testcases).
    var unchecked: [RuleID: String] = [:]

    static func of(_ run: ValidationRun) -> [FindingGroup] {
        run.reports.map { report in
            let clipSeconds = Dictionary(report.clips.map { (report.folder.shown($0.file), $0.seconds) }, uniquingKeysWith: max)
            var group = FindingGroup(
                name: report.folder.shown, className: report.id ?? "pack", id: report.id ?? report.folder.shown, findings: report.findings, rules: RuleID.rules(of: .pack),
                verdict: run.verdict, passed: run.verdict.passes(report.findings), summary: FindingRenderer.summary(report, strict: run.strict, colour: false),
                time: report.seconds, properties: report.packFile.map { [("pack", PackRef.name($0.id, $0.version))] } ?? [],
                location: { ValidationRun.location(report, $0) }, placed: { ValidationRun.placedLocation(report, $0) },
                seconds: { clipSeconds[$0] ?? 0 })
            group.notes = report.notes
            group.unchecked = report.unchecked
            return group
        }
    }

    package init(name: String, className: String, id: String, findings: [Finding], rules: [RuleID], verdict: Verdict, passed: Bool, summary: String, time: Double,
         properties: [(String, String)], location: @escaping (Finding) -> String, placed: @escaping (Finding) -> String,
         seconds: @escaping (String) -> Double) {
        (self.name, self.className, self.id, self.findings, self.rules, self.verdict, self.passed) = (name, className, id, findings, rules, verdict, passed)
        (self.summary, self.time, self.properties) = (summary, time, properties)
        (self.location, self.placed, self.seconds) = (location, placed, seconds)
    }

    init(_ check: CheckReport) {
        self.init(name: check.subject, className: check.command.replacingOccurrences(of: " ", with: "-"), id: check.subject, findings: check.findings,
                  rules: RuleID.rules(of: check.scope), verdict: Verdict(), passed: check.passed, summary: check.summary, time: 0, properties: [],
                  location: check.location, placed: check.location, seconds: { _ in 0 })
    }
}

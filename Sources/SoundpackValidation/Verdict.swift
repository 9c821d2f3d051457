// Whether a run fails, and which findings do not count: the one answer every renderer, the
// catalog record and the exit code read.

import SoundpackPack
import SoundpackSupport

/// Whether findings fail a run. An error fails it, a warning only under `strict`, a note never;
/// a suppressed finding never does.
public struct Verdict: Sendable, Equatable {
    /// Warnings fail the run too (`validate --strict`).
    public var strict: Bool

    /// A verdict that fails on errors, and on warnings when `strict`.
    public init(strict: Bool = false) { self.strict = strict }

    /// Whether `finding` fails the run.
    public func fails(_ finding: Finding) -> Bool {
        finding.suppressed == nil && level(finding) == .error
    }

    /// Whether none of `findings` fails the run.
    public func passes(_ findings: [Finding]) -> Bool { !findings.contains(where: fails) }

    /// How grave `finding` is in this run, suppressed or not: SARIF's level, GitHub's command.
    public func level(_ finding: Finding) -> Severity {
        switch finding.severity {
        case .error: .error
        case .warning: strict ? .error : .warning
        case .note: .note
        }
    }
}

/// The findings that do not count, and why: pack.json's own `checks.ignore` (warnings only: a
/// pack cannot waive its errors), the rules the caller names (`--ignore`) and a baseline's
/// fingerprints, in that order. The one place a finding is suppressed.
public struct Suppressions: Sendable, Equatable {
    /// Rule ids the pack ignores (`checks.ignore`); only its warnings are suppressed.
    public var packIgnores: Set<String> = []
    /// Rules suppressed in every pack (`--ignore`).
    public var rules: Set<RuleID> = []
    /// Fingerprints of findings accepted earlier (`--baseline`).
    public var baseline: Set<String> = []

    /// Suppressions of the pack's own ignores, the named rules and a baseline.
    public init(packIgnores: Set<String> = [], rules: Set<RuleID> = [], baseline: Set<String> = []) {
        (self.packIgnores, self.rules, self.baseline) = (packIgnores, rules, baseline)
    }

    /// Why `finding` does not count, or nil when it does.
    public func reason(for finding: Finding) -> String? {
        if finding.severity == .warning && packIgnores.contains(finding.rule.rawValue) { return "ignored by pack.json checks.ignore" }
        if rules.contains(finding.rule) { return "ignored by --ignore \(finding.rule.rawValue)" }
        if finding.isCovered(by: baseline) { return "in the baseline" }
        return nil
    }

    /// `findings` with each one that does not count marked, a reason given earlier kept.
    public func apply(to findings: [Finding]) -> [Finding] {
        findings.map { finding in
            var finding = finding
            if finding.suppressed == nil { finding.suppressed = reason(for: finding) }
            return finding
        }
    }
}

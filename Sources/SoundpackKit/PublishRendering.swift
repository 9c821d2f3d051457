// A publish run in the renderers' terms: Reports renders finding groups and knows nothing of
// publishing, so the publish outcomes become groups here, above both.

import SoundpackCore
import SoundpackPublish
import SoundpackReports
import SoundpackSupport
import SoundpackValidation

extension FindingRenderer {
    /// `publish --format github`: each refused pack's errors and its refusal, and a notice per pack
    /// saying what happened to it.
    public static func github(_ outcomes: [PublishOutcome]) -> String { github(outcomes.map(FindingGroup.init(publishing:))) }
}

extension FindingGroup {
    /// A publish run: each pack's validation errors (when they refused it) and its refusal under
    /// its rule; the summary says what happened to it.
    init(publishing outcome: PublishOutcome) {
        let report = outcome.report
        var findings = outcome.status == .refused && report.errors > 0 ? report.findings : []
        if outcome.status == .refused, let rule = outcome.rule { findings.append(Finding(rule, .error, outcome.message)) }
        self.init(
            name: report.folder.shown, className: report.id ?? "pack", id: report.id ?? report.folder.shown, findings: findings,
            rules: RuleID.rules(of: .publication), verdict: Verdict(), passed: outcome.status != .refused,
            summary: "\(report.folder.shown): \(outcome.message)", time: report.seconds, properties: [],
            location: { ValidationRun.location(report, $0) }, placed: { ValidationRun.placedLocation(report, $0) },
            seconds: { _ in 0 })
    }
}

// What verify, payload lint and publish print: each result is Encodable (its JSON) and knows its text.

import Foundation
import SoundpackCore
import SoundpackKit

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

// What the catalog records of a validated pack: the one translation from a report to catalog rows.

import Foundation
import SoundpackCatalog
import SoundpackCore
import SoundpackSupport
import SoundpackValidation

extension ValidationRecord {
    /// The run of `report`, or nil when its pack.json could not be read (such runs have no pack
    /// id to file them under and are not recorded).
    public init?(_ report: PackReport, strict: Bool, toolVersion: String, at date: Date) {
        guard let identity = VersionIdentity(report) else { return nil }
        self.init(
            pack: identity, clips: report.clips.map { ClipRecord(key: $0.key, file: $0.file, facts: $0.facts) },
            path: report.folder.shown, ranAt: date, errors: report.errors, warnings: report.warnings,
            passed: report.passed(strict: strict), worstAmount: report.worstCase?.amount?.description, worstSeconds: report.worstCase?.seconds,
            toolVersion: toolVersion,
            findings: report.findings.map {
                FindingRecord(rule: $0.rule, severity: $0.severity, token: $0.token, file: $0.file, message: $0.message)
            })
    }
}

extension VersionIdentity {
    /// The identity a validated pack would be recorded under.
    public init?(_ report: PackReport) {
        guard let manifest = report.packFile, let digest = report.digest else { return nil }
        self.init(packID: manifest.id, packName: manifest.name, version: manifest.version, digest: digest,
                  grammar: manifest.grammar, maxAmount: manifest.maxAmount, source: manifest.source,
                  phrases: VersionPhrases(manifest.phrasebook, texts: manifest.texts))
    }
}

extension Catalog {
    /// Records the runs of every report that has a pack.json, in one transaction.
    public func recordValidations(_ reports: [PackReport], strict: Bool, toolVersion: String, at date: Date) throws(SoundpackError) {
        try recordValidations(reports.compactMap { ValidationRecord($0, strict: strict, toolVersion: toolVersion, at: date) })
    }
}

// One `validate` run from its request to its record: the packs validated, the suppressions a run
// applies (rule ids named by the caller, a baseline; pack.json's own `checks.ignore` is applied as
// the report is made, through the same `Suppressions`), the rendering, and the run recorded in the catalog.

import Foundation
import SoundpackCatalog
import SoundpackCore
import SoundpackPack
import SoundpackReports
import SoundpackSupport
import SoundpackValidation

/// One `validate` run's settings: strictness, the rules and baseline that do not count, and the
/// tool version recorded with it.
public struct ValidationSession: Sendable {
    /// Warnings fail the run too.
    public var strict = false
    /// Rules suppressed in every pack.
    public var ignored: Set<RuleID> = []
    /// Per pack (id, or the folder as shown when pack.json is unreadable): the fingerprints of
    /// findings that do not count (a previous run's JSON report).
    public var baseline: [String: Set<String>] = [:]
    /// Recorded with the run in the catalog (`soundpack --version`).
    public var toolVersion: String
    /// Finds each pack's earlier version (a store's, `Store.earlierVoices`) for `audio.swapped`;
    /// nil when no store is configured.
    public var earlier: (@Sendable (InspectedPack) -> Result<EarlierVoices?, SoundpackError>)?

    /// A session that suppresses nothing and fails on errors only.
    public init(toolVersion: String) {
        self.toolVersion = toolVersion
    }

    /// Takes the baseline from a previous `--format json` report at `path`.
    public mutating func useBaseline(at path: String) throws(SoundpackError) {
        let data = Data(try CappedFile.read(path, cap: Baseline.maxBytes, what: "a baseline"))
        baseline = try Baseline.load(data)
    }

    /// Validates `folders` (each independently, on every core) and applies the suppressions.
    public func run(_ folders: [PackFolder], progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) -> ValidationRun {
        let started = ContinuousClock.now
        var reports = Validator().validate(folders: folders, earlier: earlier, progress: progress)
        for index in reports.indices {
            reports[index].suppress(Suppressions(rules: ignored, baseline: baseline[reports[index].id ?? reports[index].folder.shown] ?? []))
        }
        let elapsed = ContinuousClock.now - started
        return ValidationRun(reports: reports, strict: strict, toolVersion: toolVersion,
                             seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// Records `run` in `catalog`: one row per pack, with its verdict under this session's strictness.
    public func record(_ run: ValidationRun, in catalog: any Catalog, at date: Date) throws(SoundpackError) {
        do { try catalog.recordValidations(run.reports, strict: strict, toolVersion: toolVersion, at: date) } catch {
            throw error.context("cannot record the validation in the catalog")
        }
    }
}

extension FindingRenderer {
    /// `run` rendered as `format`; `colour` applies to text only.
    public static func render(_ run: ValidationRun, as format: ReportFormat, colour: Bool) throws(SoundpackError) -> String {
        switch format {
        case .json:
            do { return try json(run) } catch { throw error.context("cannot write the report") }
        case .junit: return junit(run)
        case .github: return github(run)
        case .sarif:
            do { return try sarif(run) } catch { throw error.context("cannot write the report") }
        case .text: return text(run, colour: colour)
        }
    }
}

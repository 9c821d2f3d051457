// Runs every rule over an inspected pack and assembles the report all output formats render.

import SoundpackCore

/// Validates pack folders against the rules of DESIGN §6.
public struct Validator: Sendable {
    /// Every rule, in the order findings are reported.
    static let rules: [any ValidationRule] = [
        ManifestInvalid(), ManifestUnsafePath(), CoverageMissingToken(), CoverageUnknownToken(), CoverageOrphanFile(),
        FileUnreadable(), FileUnsafeName(), FormatUnsupported(), FormatMismatch(), AudioEmpty(), AudioTooLong(),
        AudioLeadingSilence(), AudioTrailingSilence(), AudioClipping(), AudioDCOffset(), AudioLoudnessOutlier(),
        ComposeTooLong(),
    ]

    public var inspector: PackInspector

    public init(inspector: PackInspector = PackInspector()) { self.inspector = inspector }

    public func validate(directory: String) -> PackReport {
        validate(directories: [directory])[0]
    }

    /// Validates each pack independently; clips of all packs are probed in one worker pool.
    public func validate(directories: [String], progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) -> [PackReport] {
        inspector.inspect(directories: directories, progress: progress).map { pack in
            var findings = Self.rules.flatMap { $0.check(pack) }
            for id in pack.manifest?.checks.ignore ?? [] where RuleID(rawValue: id) == nil {
                findings.insert(Finding(.manifestInvalid, .error, file: "pack.json",
                                        "field 'checks.ignore': '\(id)' is not a rule id (see soundpack validate --help)"), at: 0)
            }
            return PackReport(pack: pack, findings: findings)
        }
    }
}

/// The result of validating one pack: findings, each clip's facts, and the worst-case announcement.
public struct PackReport: Sendable, Codable, Equatable {
    public struct Clip: Sendable, Codable, Equatable {
        public var token: String
        public var file: String
        public var facts: ClipFacts?
        public var error: String?
    }

    public var directory: String
    public var id: String?
    public var name: String?
    public var version: String?
    public var grammar: String?
    /// `grammarOptions.two`.
    public var two: String?
    public var maxAmount: String?
    public var profile: String?
    public var texts: [String: String]?
    public var findings: [Finding]
    public var clips: [Clip]
    public var worstCase: WorstCase?
    /// The thresholds in force for this pack (defaults overridden by pack.json `checks`).
    public var checks: [String: Double]?
    /// SHA-256 over the pack's canonical manifest (identity, grammar and every clip's hash).
    public var digest: String?
    /// Findings that count: unsuppressed errors and warnings.
    public var errors: Int
    public var warnings: Int
    /// Findings reported but not counted (ignored or in the baseline).
    public var suppressed: Int
    /// Rule ids suppressed by pack.json `checks.ignore`.
    public var ignoredByPack: [String]?

    init(pack: InspectedPack, findings: [Finding]) {
        directory = pack.directory
        id = pack.manifest?.id
        name = pack.manifest?.name
        version = pack.manifest?.version.description
        grammar = pack.manifest?.grammar.id.rawValue
        two = pack.manifest?.grammar.two.rawValue
        profile = pack.manifest?.profile
        texts = pack.manifest?.texts
        maxAmount = pack.manifest?.maxAmount.description
        self.findings = findings
        clips = pack.clips.map { clip in
            var error: String?
            if let reason = clip.unsafePath { error = reason }
            if case .failure(let failure)? = clip.probe { error = failure.message }
            return Clip(token: clip.key, file: clip.path, facts: clip.facts, error: error)
        }
        worstCase = pack.worstCase
        checks = pack.manifest.map { Dictionary(uniqueKeysWithValues: $0.checks.values.map { ($0.name, $0.value) }) }
        digest = pack.manifest.map { PackDigest.digest(of: $0, clips: pack.clips) }
        ignoredByPack = pack.manifest.map { $0.checks.ignore }.flatMap { $0.isEmpty ? nil : $0 }
        (errors, warnings, suppressed) = (0, 0, 0)
        var findings = findings
        for index in findings.indices where ignoredByPack?.contains(findings[index].rule.rawValue) == true {
            findings[index].suppressed = "ignored by pack.json checks.ignore"
        }
        self.findings = findings
        recount()
    }

    /// Marks findings suppressed (by `--ignore` rules, or matching a baseline) and recounts.
    public mutating func suppress(rules: Set<RuleID>, baseline: Set<String>) {
        for index in findings.indices where findings[index].suppressed == nil {
            if rules.contains(findings[index].rule) {
                findings[index].suppressed = "ignored by --ignore \(findings[index].rule.rawValue)"
            } else if baseline.contains(findings[index].fingerprint) {
                findings[index].suppressed = "in the baseline"
            }
        }
        recount()
    }

    private mutating func recount() {
        let counted = findings.filter { $0.suppressed == nil }
        errors = counted.filter { $0.severity == .error }.count
        warnings = counted.filter { $0.severity == .warning }.count
        suppressed = findings.count - counted.count
    }

    /// Whether the pack passes: no errors, and under `strict` no warnings either.
    public func passed(strict: Bool) -> Bool { errors == 0 && (!strict || warnings == 0) }
}

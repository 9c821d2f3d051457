// One finding model for every output format: the rule, its severity, and the token and file it concerns.

/// How much a finding matters: errors fail validation, warnings fail it only under `--strict`.
public enum Severity: String, Sendable, Codable {
    case error, warning
}

/// The rule ids of DESIGN §6. They are a contract: users suppress and tune rules by these names.
public enum RuleID: String, Sendable, Codable, CaseIterable {
    case manifestInvalid = "manifest.invalid"
    case manifestUnsafePath = "manifest.unsafe-path"
    case coverageMissingToken = "coverage.missing-token"
    case coverageUnknownToken = "coverage.unknown-token"
    case coverageOrphanFile = "coverage.orphan-file"
    case fileUnreadable = "file.unreadable"
    case fileUnsafeName = "file.unsafe-name"
    case formatUnsupported = "format.unsupported"
    case formatMismatch = "format.mismatch"
    case audioEmpty = "audio.empty"
    case audioTooLong = "audio.too-long"
    case audioLeadingSilence = "audio.leading-silence"
    case audioTrailingSilence = "audio.trailing-silence"
    case audioClipping = "audio.clipping"
    case audioDCOffset = "audio.dc-offset"
    case audioLoudnessOutlier = "audio.loudness-outlier"
    case composeTooLong = "compose.too-long"
}

/// A problem found in a pack, located by token and/or file (relative to the pack folder).
public struct Finding: Sendable, Equatable, Codable {
    public var rule: RuleID
    public var severity: Severity
    public var token: String?
    public var file: String?
    public var message: String

    public init(_ rule: RuleID, _ severity: Severity, token: String? = nil, file: String? = nil, _ message: String) {
        self.rule = rule
        self.severity = severity
        self.token = token
        self.file = file
        self.message = message
    }
}

/// A check of DESIGN §6, run over a pack whose facts have already been gathered.
protocol ValidationRule: Sendable {
    static var id: RuleID { get }
    func check(_ pack: InspectedPack) -> [Finding]
}

// One finding model for every output format: the rule, its severity, and the token and file it concerns.

import SoundpackPack

/// How much a finding matters: errors fail validation, warnings fail it only under `--strict`,
/// notes never fail (`verify`'s leftovers of an interrupted publish; validate writes none).
public enum Severity: String, Sendable, Codable {
    case error, warning, note
}

/// The rule ids of DESIGN §6, of `payload lint` and of `verify`, in one namespace. They are a contract: users
/// suppress and tune rules by these names.
public enum RuleID: String, Sendable, Codable, CaseIterable {
    case manifestInvalid = "manifest.invalid"
    case manifestUnsafePath = "manifest.unsafe-path"
    case coverageMissingToken = "coverage.missing-token"
    case coverageUnknownToken = "coverage.unknown-token"
    case coverageOrphanFile = "coverage.orphan-file"
    case coverageUnspokenText = "coverage.unspoken-text"
    case fileUnreadable = "file.unreadable"
    case fileUnsafeName = "file.unsafe-name"
    case formatUnsupported = "format.unsupported"
    case formatMismatch = "format.mismatch"
    case audioEmpty = "audio.empty"
    case audioNonFinite = "audio.non-finite"
    case audioTooLong = "audio.too-long"
    case audioLeadingSilence = "audio.leading-silence"
    case audioTrailingSilence = "audio.trailing-silence"
    case audioClipping = "audio.clipping"
    case audioDCOffset = "audio.dc-offset"
    case audioLoudnessOutlier = "audio.loudness-outlier"
    case composeBannerCut = "compose.banner-cut"
    case composeTooLong = "compose.too-long"
    case composeDownloadSize = "compose.download-size"
    case catalogVersionConflict = "catalog.version-conflict"
    case catalogVersionYanked = "catalog.version-yanked"
    case catalogVersionNotNewer = "catalog.version-not-newer"
    case catalogVersionBump = "catalog.version-bump"
    case payloadInvalid = "payload.invalid"
    case payloadNoBody = "payload.no-body"
    case payloadNotMutable = "payload.not-mutable"
    case payloadTooLarge = "payload.too-large"
    case payloadInterruptionLevel = "payload.interruption-level"
    case payloadNoInterruptionLevel = "payload.no-interruption-level"
    case payloadCritical = "payload.critical"
    case payloadAmountUnreadable = "payload.amount-unreadable"
    case payloadUnknownPack = "payload.unknown-pack"
    case payloadUnknownPhrase = "payload.unknown-phrase"
    case payloadYankedPack = "payload.yanked-pack"
    case payloadMissingClip = "payload.missing-clip"
    case payloadPaymentID = "payload.payment-id"
    case payloadNoPaymentID = "payload.no-payment-id"
    case storeMissing = "store.missing"
    case storeChanged = "store.changed"
    case storeUnexpected = "store.unexpected"
    case storeIndex = "store.index"
    case storeSignature = "store.signature"
    case storeLeftover = "store.leftover"

    /// What a rule checks: a pack (validate), a publication, a push payload (`payload lint`) or
    /// the store (`verify`).
    public enum Scope: Sendable { case pack, publication, payload, store }

    public var scope: Scope {
        switch self {
        case .catalogVersionConflict, .catalogVersionYanked, .catalogVersionNotNewer, .catalogVersionBump: return .publication
        default:
            if rawValue.hasPrefix("payload.") { return .payload }
            return rawValue.hasPrefix("store.") ? .store : .pack
        }
    }

    /// The rules a pack's report can name (SARIF's rule list, `validate --ignore`): a pack's, and
    /// catalog.version-conflict, which validate has always listed and accepted in `--ignore` (a CI
    /// line naming it must keep working). The other refusals of publish are publish's alone.
    public static let reportable: [RuleID] = allCases.filter { $0.scope == .pack || $0 == .catalogVersionConflict }

    /// The rules of one scope, in declaration order (SARIF's rule list for that command).
    public static func rules(of scope: Scope) -> [RuleID] { allCases.filter { $0.scope == scope } }

    /// Severity when the rule fires (compose.too-long is a warning below its error limit): a pack
    /// or payload rule declares its own; the store's and publish's are here.
    public var defaultSeverity: Severity {
        if let rule = Self.declared[self] { return rule.severity }
        switch self {
        case .storeLeftover:
            return .note
        default:
            return .error
        }
    }

    /// One line on what the rule checks, for help texts and SARIF: a pack or payload rule declares its own.
    public var summary: String {
        if let rule = Self.declared[self] { return rule.summary }
        switch self {
        case .catalogVersionConflict, .catalogVersionYanked, .catalogVersionNotNewer, .catalogVersionBump:
            preconditionFailure("\(rawValue) is a publication rule: its file declares its summary (PublicationCandidate.rules)")
        case .manifestInvalid, .manifestUnsafePath, .coverageMissingToken, .coverageUnknownToken, .coverageOrphanFile, .coverageUnspokenText,
             .fileUnreadable, .fileUnsafeName, .formatUnsupported, .formatMismatch, .audioEmpty, .audioNonFinite, .audioTooLong,
             .audioLeadingSilence, .audioTrailingSilence, .audioClipping, .audioDCOffset, .audioLoudnessOutlier,
             .composeBannerCut, .composeTooLong, .composeDownloadSize:
            preconditionFailure("\(rawValue) is a pack rule: its file declares its summary (Validator.rules)")
        case .payloadInvalid, .payloadNoBody, .payloadNotMutable, .payloadTooLarge, .payloadInterruptionLevel, .payloadNoInterruptionLevel,
             .payloadCritical, .payloadAmountUnreadable, .payloadUnknownPack, .payloadUnknownPhrase, .payloadYankedPack, .payloadMissingClip,
             .payloadPaymentID, .payloadNoPaymentID:
            preconditionFailure("\(rawValue) is a payload rule: its file declares its summary (PushPayload.rules)")
        case .storeMissing: return "A file the catalog or a manifest lists is not in the store (or a signed manifest has no signature)."
        case .storeChanged: return "A file's bytes differ from the SHA-256 its manifest or the catalog records, a manifest is not one soundpack wrote, or a FIFO, device, socket, folder or symbolic link stands where soundpack wrote a file (or the file is reached through a link)."
        case .storeUnexpected: return "A file in the store that no manifest lists."
        case .storeIndex: return "index.json does not match the catalog's published versions."
        case .storeSignature: return "A manifest signature does not verify against the given public keys, or a version that must be signed is not."
        case .storeLeftover: return "What an interrupted publish left (staging, temporary files, an unrecorded version, or files of a version whose manifest never went up); the next publish cleans or completes it."
        }
    }
}

/// A problem found in a pack, located by token and/or file (relative to the pack folder).
public struct Finding: Sendable, Equatable, Codable {
    public var rule: RuleID
    public var severity: Severity
    public var token: String?
    public var file: String?
    public var message: String
    /// Why the finding does not count (`--ignore`, pack.json `checks.ignore`, `--baseline`); nil
    /// when it counts. Suppressed findings stay in every report so nothing is hidden silently.
    public var suppressed: String?
    /// Where in pack.json the finding points (1-based line, and column in UTF-16 code units), for
    /// findings about pack.json; nil for clip files and when pack.json could not be read.
    public var line: Int?
    public var column: Int?
    /// The pack.json key the finding is about (`clips.十`, `maxAmount`), resolved into `line` and
    /// `column` by the validator.
    var keyPath: String?

    public init(_ rule: RuleID, _ severity: Severity, token: String? = nil, file: String? = nil, at keyPath: String? = nil, _ message: String) {
        self.rule = rule
        self.severity = severity
        self.token = token
        self.file = file
        self.message = message
        self.suppressed = nil
        self.keyPath = keyPath
    }

    private enum CodingKeys: String, CodingKey { case rule, severity, token, file, message, suppressed, line, column }

    /// Whether the finding is about pack.json (so a line and column can place it).
    public var isAboutManifest: Bool { file == nil || file == PackFolder.packFile }

    /// What identifies "the same finding" across runs for a baseline: not the message, whose
    /// figures may move, but the severity: a warning accepted in the baseline that has become an
    /// error is a new finding.
    public var fingerprint: String { fingerprint(as: severity) }

    func fingerprint(as severity: Severity) -> String {
        [rule.rawValue, severity.rawValue, token ?? "", file ?? ""].joined(separator: "\u{1F}")
    }

    /// Whether `baseline` (fingerprints) holds this finding at its severity or a graver one.
    public func isCovered(by baseline: Set<String>) -> Bool {
        baseline.contains(fingerprint) || (severity == .warning && baseline.contains(fingerprint(as: .error)))
    }
}

/// A rule as it declares itself, in its own file: the id users know it by, the severity it fires
/// at, and one line on what it checks (help texts, SARIF). `RuleID` reads these from the
/// registries (`RuleID.declared`).
protocol Rule: Sendable {
    static var id: RuleID { get }
    static var severity: Severity { get }
    static var summary: String { get }
}

extension RuleID {
    /// The rules that declare themselves: the pack's (`Validator.rules`), publish's
    /// (`PublicationCandidate.rules`) and the payload's (`PushPayload.rules`, after the two that
    /// read the bytes).
    static let declared: [RuleID: any Rule.Type] = {
        let rules: [any Rule.Type] = Validator.rules.map { type(of: $0) } + PublicationCandidate.rules.map { type(of: $0) }
            + [PayloadTooLarge.self, PayloadInvalid.self] + PushPayload.rules.map { type(of: $0) }
        return Dictionary(uniqueKeysWithValues: rules.map { ($0.id, $0) })
    }()
}

/// A rule of DESIGN §6 over a pack whose facts have already been gathered, in its own file under
/// Rules/ with its check. `Validator.rules` runs them in order.
protocol PackRule: Rule {
    func check(_ pack: InspectedPack) -> [Finding]
}

extension PackRule {
    /// A finding of this rule at its severity.
    func finding(token: String? = nil, file: String? = nil, at keyPath: String? = nil, _ message: String) -> Finding {
        Finding(Self.id, Self.severity, token: token, file: file, at: keyPath, message)
    }
}

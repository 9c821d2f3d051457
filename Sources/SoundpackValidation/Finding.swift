// One finding model for every output format: the rule, its severity, and the token and file it concerns.

import SoundpackPack
import SoundpackSupport

/// The ids that exist are the declared rules': each rule declares its id in its own file
/// (`RuleID.audioClipping`, beside `AudioClipping`); the ids that exist, their order, scope,
/// severity and summary all come from the one list of rules, `RuleBook.rules`.
extension RuleID: RawRepresentable, Codable, CaseIterable {
    /// The rule called `rawValue`; nil when no rule is called that.
    public init?(rawValue: String) {
        guard RuleBook.byID[rawValue] != nil else { return nil }
        self.init(recorded: rawValue)
    }

    /// A rule's declaration of its id, in the rule's file.
    init(declaring rawValue: String) { self.init(recorded: rawValue) }

    /// Every rule id, in `RuleBook.rules` order.
    public static var allCases: [RuleID] { RuleBook.ids }

    /// What a rule checks: a pack (validate), a publication, a push payload (`payload lint`) or
    /// the store (`verify`).
    public enum Scope: Sendable { case pack, publication, payload, store }

    /// The rule's declaration.
    private var rule: any Rule.Type {
        guard let rule = RuleBook.byID[rawValue] else { preconditionFailure("\(rawValue) is declared but not in RuleBook.rules") }
        return rule
    }

    /// What the rule checks, as its declaration says.
    public var scope: Scope { rule.scope }

    /// The rules a pack's report can name (SARIF's rule list, `validate --ignore`): a pack's, and
    /// catalog.version-conflict, which validate has always listed and accepted in `--ignore` (a CI
    /// line naming it must keep working). The other refusals of publish are publish's alone.
    public static let reportable: [RuleID] = allCases.filter { $0.scope == .pack || $0 == .catalogVersionConflict }

    /// The rules of one scope, in declaration order (SARIF's rule list for that command).
    public static func rules(of scope: Scope) -> [RuleID] { allCases.filter { $0.scope == scope } }

    /// Severity when the rule fires (compose.too-long is a warning below its error limit), as the
    /// rule declares it.
    public var defaultSeverity: Severity { rule.severity }

    /// One line on what the rule checks, for help texts and SARIF, as the rule declares it.
    public var summary: String { rule.summary }
}

/// A problem found in a pack, located by token and/or file (relative to the pack folder).
public struct Finding: Sendable, Equatable, Codable {
    /// The rule that fired.
    public var rule: RuleID
    /// How much it matters here (a rule may fire at another severity than its default: compose.too-long).
    public var severity: Severity
    /// The clip key it concerns, if any.
    public var token: String?
    /// The file it concerns, relative to the pack folder (or the store's key, for verify).
    public var file: String?
    /// What is wrong and what to do, in one line.
    public var message: String
    /// Why the finding does not count (`--ignore`, pack.json `checks.ignore`, `--baseline`); nil
    /// when it counts. Suppressed findings stay in every report so nothing is hidden silently.
    public var suppressed: String?
    /// Where in pack.json the finding points (1-based line, and column in UTF-16 code units), for
    /// findings about pack.json; nil for clip files and when pack.json could not be read.
    public var line: Int?
    /// The column of `line`, in UTF-16 code units.
    public var column: Int?
    /// The pack.json key the finding is about (`clips.十`, `maxAmount`), resolved into `line` and
    /// `column` by the validator.
    var keyPath: String?

    /// A finding of `rule` at `severity`; `keyPath` names the pack.json key it is about.
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
/// at, and one line on what it checks (help texts, SARIF). `RuleBook.rules` lists every rule once.
protocol Rule: Sendable {
    static var id: RuleID { get }
    static var severity: Severity { get }
    static var summary: String { get }
    /// What it checks; each scope's rule protocol (`PackRule`…) says it.
    static var scope: RuleID.Scope { get }
}

/// A rule of DESIGN §6 over a pack whose facts have already been gathered, in its own file under
/// Rules/ with its check. `Validator.rules` runs them in order.
protocol PackRule: Rule {
    func check(_ pack: InspectedPack) -> [Finding]
}

extension PackRule {
    static var scope: RuleID.Scope { .pack }
}

extension PackRule {
    /// A finding of this rule at its severity.
    func finding(token: String? = nil, file: String? = nil, at keyPath: String? = nil, _ message: String) -> Finding {
        Finding(Self.id, Self.severity, token: token, file: file, at: keyPath, message)
    }
}

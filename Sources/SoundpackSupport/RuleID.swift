// A finding's rule id and severity as values, low enough for every layer that records or reports a
// finding (the catalog keeps them). Which rules exist, and what each checks, is SoundpackValidation's.

/// How much a finding matters: errors fail validation, warnings fail it only under `--strict`,
/// notes never fail (`verify`'s leftovers of an interrupted publish; validate writes none).
public enum Severity: String, Sendable, Codable {
    case error, warning, note
}

/// A rule's id: the name users suppress and tune it by (DESIGN §6, `payload lint`, `verify`), a
/// contract. Here only the value: SoundpackValidation declares the rules (`RuleID.audioClipping`,
/// beside `AudioClipping`) and the ids that parse, `RuleID(rawValue:)` and `RuleID.allCases`.
public struct RuleID: Hashable, Sendable {
    /// The id as users write it: `audio.clipping`.
    public let rawValue: String

    /// The id `rawValue` as a record holds it, whether or not this soundpack has a rule so called:
    /// an older or a newer one may have written it, and it still reads.
    package init(recorded rawValue: String) { self.rawValue = rawValue }
}

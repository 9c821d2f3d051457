import SoundpackSupport

/// `payload.missing-clip` (error): the published version lacks a clip the announcement needs —
/// of the amount with its phrase, or of a phrase that says no amount.
struct PayloadMissingClip: PayloadRule {
    static let id = RuleID.payloadMissingClip
    static let severity = Severity.error
    static let summary = "The version lacks a clip the amount's announcement needs."

    func check(_ payload: ReadPayload) -> [Finding] {
        guard let facts = payload.facts, let phrase = payload.phrase else { return [] }
        switch payload.amount {
        case .parsed(let amount):
            let tokens = facts.phrasebook.announcement(phrase).tokens(for: amount)
            let missing = Set(tokens.map(\.rawValue)).subtracting(facts.clipKeys)
            guard !missing.isEmpty else { return [] }
            return [finding("the pack cannot say \(amount): it has no clip for \(missing.sorted(by: facts.phrasebook.grammar.precedes).map { "'\($0)'" }.joined(separator: ", "))")]
        case .absent:
            let missing = Set(phrase.clips.map(\.rawValue)).subtracting(facts.clipKeys)
            guard !missing.isEmpty else { return [] }
            return [finding("the pack cannot say phrase '\(phrase.id)': it has no clip for \(missing.sorted().map { "'\($0)'" }.joined(separator: ", "))")]
        case .unreadable:
            return []
        }
    }
}

extension RuleID {
    /// `payload.missing-clip`, declared by `PayloadMissingClip`.
    public static let payloadMissingClip = RuleID(declaring: "payload.missing-clip")
}

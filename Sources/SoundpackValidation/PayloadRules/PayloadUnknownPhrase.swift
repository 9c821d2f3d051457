import SoundpackSupport

/// `payload.unknown-phrase` (error): `phrase` is not one the published version has (the phone
/// would fall back to its default phrase and say something else than meant), or not a string.
struct PayloadUnknownPhrase: PayloadRule {
    static let id = RuleID.payloadUnknownPhrase
    static let severity = Severity.error
    static let summary = "The phrase is not one the published version has."

    func check(_ payload: ReadPayload) -> [Finding] {
        switch payload.root["phrase"] {
        case nil:
            return []
        case let id as String:
            guard let facts = payload.facts, facts.phrasebook.phrase(id) == nil else { return [] }
            return [finding("phrase '\(id.quoted())' is not one of \(payload.root["pack"] as? String ?? "the pack")'s (\(facts.phrasebook.phrases.map(\.id).joined(separator: ", ")))")]
        default:
            return [finding("\"phrase\" must be a string, the id of one of the pack's phrases")]
        }
    }
}

extension RuleID {
    /// `payload.unknown-phrase`, declared by `PayloadUnknownPhrase`.
    public static let payloadUnknownPhrase = RuleID(declaring: "payload.unknown-phrase")
}

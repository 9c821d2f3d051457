// A push payload read once for the lint rules: its keys, the published version it names (when the
// store is known), the phrase it will be said with, and its amount as the phone reads it.

import Foundation
import SoundpackCore

struct ReadPayload {
    /// The amount as the phone reads it with the payload's phrase.
    enum AmountReading {
        /// An exact decimal string the version can say.
        case parsed(Amount)
        /// Why the phone cannot read it (or why there should be none).
        case unreadable(String)
        /// No `amount`, and the phrase says none: right.
        case absent
    }

    let root: [String: Any]
    let aps: [String: Any]
    let mutableContent: PushPayload.MutableContent
    /// The store's published versions by `id@version`; nil when the pack checks are skipped.
    let packs: [String: PushPayload.PackFacts]?
    /// The `pack` key, "" when it is missing or not a string.
    let packName: String
    /// What is known of the named version; nil when unknown or not checked.
    let facts: PushPayload.PackFacts?
    /// The phrase the phone says: the one named when the version has it, else the version's default.
    let phrase: Phrase?
    let amount: AmountReading

    /// The payload's keys, or nil when `data` is not a JSON object.
    init?(_ data: Data, packs: [String: PushPayload.PackFacts]?) {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        self.root = root
        aps = root["aps"] as? [String: Any] ?? [:]
        mutableContent = PushPayload.MutableContent.read(data)
        self.packs = packs
        packName = root["pack"] as? String ?? ""
        let facts = packs?[packName]
        self.facts = facts
        // The phone falls back to the default phrase for one it does not know.
        var phrase = facts.map { $0.phrasebook.defaultPhrase }
        if let facts, let id = root["phrase"] as? String, let known = facts.phrasebook.phrase(id) { phrase = known }
        self.phrase = phrase
        amount = Self.amount(root, facts: facts, phrase: phrase)
    }

    private static func amount(_ root: [String: Any], facts: PushPayload.PackFacts?, phrase: Phrase?) -> AmountReading {
        let saysAmount = phrase?.saysAmount ?? (root["phrase"] == nil)
        if let text = root["amount"] as? String {
            if let phrase, !phrase.saysAmount { return .unreadable("phrase '\(phrase.id)' says no amount; leave \"amount\" out") }
            do {
                return .parsed(try Amount(parsing: text, maximum: facts?.maxAmount ?? Amount(minorUnits: Amount.grammarLimit.minorUnits - 1),
                                          grouping: facts?.phrasebook.grammar.grouping ?? .thousands))
            } catch {
                return .unreadable(error.description)
            }
        }
        if root["amount"] != nil { return .unreadable("\"amount\" must be a string such as \"15.40\" (a JSON number is not exact)") }
        guard saysAmount else { return .absent }
        let named = facts?.phrasebook.isDeclared == true ? phrase : nil
        return .unreadable(named.map { "no \"amount\" key, and phrase '\($0.id)' says one" } ?? "no \"amount\" key")
    }
}

// How a pack frames a reading: the one place that says an announcement is a phrase's clips around
// the reading. `say`, `render`, the worst-case search, coverage and the phone's planner all frame
// here, so the tool and the extension can never frame an amount differently.

/// The tokens a pack plays for one of its phrases: the phrase's clips before the amount, the
/// reading, the clips after it (prefix, reading, suffix for a pack without phrases; `say --grammar`
/// alone reads without any).
public struct Announcement: Sendable, Hashable {
    public let grammar: Grammar
    public let phrase: Phrase
    /// Every token the pack's announcements can play, by ordinal (`Phrasebook.inventory`).
    public let inventory: [Token]

    init(grammar: Grammar, phrase: Phrase, inventory: [Token]) {
        self.grammar = grammar
        self.phrase = phrase
        self.inventory = inventory
    }

    /// The announcement of a pack without phrases: its prefix, the reading, its suffix when it has one.
    public init(grammar: Grammar, hasSuffix: Bool) {
        self = Phrasebook(grammar: grammar, hasSuffix: hasSuffix).announcement(phrase: nil)!
    }

    /// The bare reading, with no prefix or suffix (a grammar without a pack).
    public static func readingOnly(_ grammar: Grammar) -> Announcement {
        Announcement(grammar: grammar, phrase: Phrase(id: Phrasebook.implicitID, before: [], saysAmount: true, after: []), inventory: grammar.inventory)
    }

    /// Whether the phrase says an amount; one that does not plays its clips whatever the amount.
    public var saysAmount: Bool { phrase.saysAmount }

    /// `reading` framed by the phrase's clips (the phrase's clips alone when it says no amount).
    public func frame(_ reading: [Token]) -> [Token] {
        guard phrase.saysAmount else { return phrase.before }
        var tokens: [Token] = []
        tokens.reserveCapacity(reading.count + phrase.before.count + phrase.after.count)
        tokens.append(contentsOf: phrase.before)
        tokens.append(contentsOf: reading)
        tokens.append(contentsOf: phrase.after)
        return tokens
    }

    /// The announcement as an alert writes it: the phrase's texts around the amount in figures
    /// (微信到账15.40元), framed as the clips are; `amount` is not said by a phrase without one.
    public func alertText(for amount: Amount?, texts: [String: String]) -> String {
        let figures = phrase.saysAmount ? amount.map(grammar.figures) ?? "" : ""
        return grammar.joined([grammar.text(of: phrase.before, texts: texts), figures, grammar.text(of: phrase.after, texts: texts)])
    }

    /// The announcement of `amount`: 15.40 → prefix 十 五 点 四 元 (suffix).
    public func tokens(for amount: Amount) -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity(26)
        appendTokens(for: amount, to: &tokens)
        return tokens
    }

    /// Appends the announcement of `amount` to `tokens`; the allocation-free form for bulk use.
    public func appendTokens(for amount: Amount, to tokens: inout [Token]) {
        // Tested before appending: most phrases say one clip or none around the reading.
        if !phrase.before.isEmpty { tokens.append(contentsOf: phrase.before) }
        guard phrase.saysAmount else { return }
        grammar.appendTokens(for: amount, to: &tokens)
        if !phrase.after.isEmpty { tokens.append(contentsOf: phrase.after) }
    }

    /// Every token some announcement of an amount in `0...maximum` plays: the clips it needs.
    public func requiredTokens(upTo maximum: Amount) -> Set<Token> {
        var tokens: Set<Token> = phrase.saysAmount ? grammar.reachableTokens(upTo: maximum) : []
        tokens.formUnion(phrase.clips)
        return tokens
    }

    /// The amount in `0...maximum` whose announcement costs most, with `cost` per token and `gap`
    /// between consecutive tokens; the phrase's clips are costed once, outside the search. The
    /// amount is nil for a phrase that says none.
    public func costliest(upTo maximum: Amount, cost: (Token) -> Int64, gap: Int64 = 0) -> (amount: Amount?, tokens: [Token], cost: Int64) {
        // Each reading token costs itself plus the gap after it; the phrase adds its own tokens and gaps.
        let best = phrase.saysAmount ? grammar.costliestReading(upTo: maximum) { cost($0) + gap } : nil
        let tokens = frame(best?.tokens ?? [])
        let total = tokens.reduce(Int64(0)) { $0 + cost($1) } + gap * Int64(max(tokens.count - 1, 0))
        return (best?.amount, tokens, total)
    }
}

// How a pack frames a reading: the one place that says an announcement is prefix + reading +
// suffix. `say`, `render`, the worst-case search, coverage and the phone's planner all frame here,
// so the tool and the extension can never frame an amount differently.

/// The tokens a pack plays for an amount: its prefix clip, the reading, and its suffix clip when
/// it has one (`say --grammar` alone reads without either).
public struct Announcement: Sendable, Hashable {
    public let grammar: Grammar
    /// Whether the announcement starts with the `prefix` clip.
    public let hasPrefix: Bool
    /// Whether it ends with the `suffix` clip (a pack's suffix is optional).
    public let hasSuffix: Bool

    /// A pack's announcement: always its prefix, its suffix when it has one.
    public init(grammar: Grammar, hasSuffix: Bool) {
        self.init(grammar: grammar, hasPrefix: true, hasSuffix: hasSuffix)
    }

    private init(grammar: Grammar, hasPrefix: Bool, hasSuffix: Bool) {
        self.grammar = grammar
        self.hasPrefix = hasPrefix
        self.hasSuffix = hasSuffix
    }

    /// The bare reading, with no prefix or suffix (a grammar without a pack).
    public static func readingOnly(_ grammar: Grammar) -> Announcement {
        Announcement(grammar: grammar, hasPrefix: false, hasSuffix: false)
    }

    /// `reading` framed: prefix + reading + suffix, as the pack has them.
    public func frame(_ reading: [Token]) -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity(reading.count + 2)
        if hasPrefix { tokens.append(.prefix) }
        tokens.append(contentsOf: reading)
        if hasSuffix { tokens.append(.suffix) }
        return tokens
    }

    /// The announcement as an alert writes it: the prefix's and suffix's texts around the amount
    /// in figures (微信到账15.40元), framed as the clips are.
    public func alertText(for amount: Amount, texts: [String: String]) -> String {
        (hasPrefix ? texts[Token.prefix.rawValue] ?? "" : "") + grammar.figures(amount) + (hasSuffix ? texts[Token.suffix.rawValue] ?? "" : "")
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
        if hasPrefix { tokens.append(.prefix) }
        grammar.appendTokens(for: amount, to: &tokens)
        if hasSuffix { tokens.append(.suffix) }
    }

    /// Every token some announcement of an amount in `0...maximum` plays: the clips a pack needs.
    public func requiredTokens(upTo maximum: Amount) -> Set<Token> {
        var tokens = grammar.reachableTokens(upTo: maximum)
        if hasPrefix { tokens.insert(.prefix) }
        if hasSuffix { tokens.insert(.suffix) }
        return tokens
    }

    /// The amount in `0...maximum` whose announcement costs most, with `cost` per token and `gap`
    /// between consecutive tokens; the framing tokens are costed once, outside the search.
    public func costliest(upTo maximum: Amount, cost: (Token) -> Int64, gap: Int64 = 0) -> (amount: Amount, tokens: [Token], cost: Int64) {
        // Each reading token costs itself plus the gap after it; the framing adds its own tokens and gaps.
        let best = grammar.costliestReading(upTo: maximum) { cost($0) + gap }
        let tokens = frame(best.tokens)
        let total = tokens.reduce(Int64(0)) { $0 + cost($1) } + gap * Int64(max(tokens.count - 1, 0))
        return (best.amount, tokens, total)
    }
}

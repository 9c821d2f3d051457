// The zh-Hans and zh-Hant grammars: which tokens an amount is read as, and how they are written.

/// The grammars a pack can declare in pack.json (`grammar`).
public enum GrammarID: String, CaseIterable, Sendable, Codable {
    case zhHans = "zh-Hans"
    case zhHant = "zh-Hant"
}

/// How a 2 is said where Mandarin allows 两 (`grammarOptions.two`).
public enum TwoStyle: String, CaseIterable, Sendable, Codable {
    /// The style a pack has when pack.json names none.
    public static let `default` = TwoStyle.er

    /// Always 二.
    case er
    /// 两 in the hundreds and thousands place of a group, and for a group of exactly 2 before 万/亿.
    case liang
}

/// Reads amounts in Chinese as sequences of clip tokens (DESIGN §4).
///
/// zh-Hant uses the same sounds (and so the same tokens and clip keys) as zh-Hans; only the
/// written text differs (萬 億 點 兩).
public struct Grammar: Sendable, Hashable {
    public let id: GrammarID
    public let two: TwoStyle

    public init(_ id: GrammarID, two: TwoStyle = .default) {
        self.id = id
        self.two = two
    }

    /// Every token this grammar can say, including `prefix` and the optional `suffix` and 两.
    public var inventory: Set<Token> { Set(Token.allCases) }

    /// The tokens that read `amount`, without prefix or suffix: 15.40 → 十 五 点 四 元.
    public func tokens(for amount: Amount) -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity(24)
        appendTokens(for: amount, to: &tokens)
        return tokens
    }

    /// Appends the reading of `amount` to `tokens` (no prefix or suffix); the allocation-free form.
    public func appendTokens(for amount: Amount, to tokens: inout [Token]) {
        var state = ReadingMachine.State()
        let machine = ReadingMachine(two: two)
        for digit in ReadingMachine.digits(of: amount) { machine.step(&state, digit: digit, into: &tokens) }
    }

    /// The written form of a token: 十, 萬, 點 … `prefix`/`suffix` come from the pack's `texts`.
    public func text(of token: Token, texts: [String: String] = [:]) -> String {
        switch token {
        case .prefix, .suffix: return texts[token.rawValue] ?? "[\(token.rawValue)]"
        case .zero: return "零"
        case .one: return "一"
        case .two: return "二"
        case .three: return "三"
        case .four: return "四"
        case .five: return "五"
        case .six: return "六"
        case .seven: return "七"
        case .eight: return "八"
        case .nine: return "九"
        case .ten, .hundred, .thousand, .yuan: return token.rawValue
        case .tenThousand: return id == .zhHant ? "萬" : "万"
        case .hundredMillion: return id == .zhHant ? "億" : "亿"
        case .point: return id == .zhHant ? "點" : "点"
        case .liang: return id == .zhHant ? "兩" : "两"
        }
    }

    /// An amount in figures with the grammar's unit, as an alert's text writes it: 15.40元.
    public func figures(_ amount: Amount) -> String {
        "\(amount)\(text(of: .yuan))"
    }

    /// The written reading of a token sequence.
    public func text(of tokens: [Token], texts: [String: String] = [:]) -> String {
        var result = ""
        for token in tokens { result += text(of: token, texts: texts) }
        return result
    }

    /// The tokens some amount in `0...maximum` is read with (no prefix or suffix).
    ///
    /// A pack needs a clip for each of these; 亿 is not needed when `maxAmount` is below 10^8.
    public func reachableTokens(upTo maximum: Amount) -> Set<Token> {
        ReadingMachine(two: two).reachableTokens(upTo: maximum)
    }

    /// The amount in `0...maximum` whose reading costs most, with `cost` per token (for example
    /// a clip's frames). Searches the reading's structure digit by digit, not every amount.
    public func costliestReading(upTo maximum: Amount, cost: (Token) -> Int64) -> (amount: Amount, tokens: [Token], cost: Int64) {
        let amount = ReadingMachine(two: two).costliestAmount(upTo: maximum, cost: cost)
        let tokens = self.tokens(for: amount)
        return (amount, tokens, tokens.reduce(0) { $0 + cost($1) })
    }
}

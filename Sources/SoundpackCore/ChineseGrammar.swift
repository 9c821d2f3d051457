// The zh-Hans and zh-Hant reading (DESIGN §4, options §4a) as a digit transducer: the school rule
// for zeros by levels of four digits, 十 alone at the start, 两, and the three ways to say money.

/// How a 2 is said where Mandarin allows 两 (`grammarOptions.two`).
public enum TwoStyle: String, CaseIterable, Sendable, Codable {
    /// The style a pack has when pack.json names none.
    public static let `default` = TwoStyle.er

    /// Always 二.
    case er
    /// 两 in the hundreds and thousands place of a level, and for a level of exactly 2 before 万/亿.
    case liang
    /// 两 before 千, and for a level of exactly 2 before 万/亿; 二 before 百 and in the tens and units.
    case liangLarge = "liang-large"
}

/// How the currency and the fraction are said (`grammarOptions.money`).
public enum MoneyStyle: String, CaseIterable, Sendable, Codable {
    public static let `default` = MoneyStyle.yuan

    /// 十五点四元, 零点零五元: the fraction as decimals, 元 last.
    case yuan
    /// The formal reading: 十五元四角五分, 十五元零五分, 五分.
    case jiaoFen = "jiao-fen"
    /// The spoken reading: 十五块四毛五 (a 分 after 毛 is not said), 十五块零五分.
    case kuaiMao = "kuai-mao"
}

/// How a 1 in the tens place starts a number (`grammarOptions.tenStart`).
public enum TenStart: String, CaseIterable, Sendable, Codable {
    public static let `default` = TenStart.shi

    /// 十 alone: 10 → 十, 100000 → 十万.
    case shi
    /// 一十: 10 → 一十, 100000 → 一十万.
    case yiShi = "yi-shi"
}

/// The Chinese reading of amounts. zh-Hant uses the same sounds (and so the same tokens and clip
/// keys) as zh-Hans; only the written text differs (萬 億 點 兩 塊).
public struct ChineseGrammar: ReadingGrammar, Hashable {
    public var traditional: Bool
    public var two: TwoStyle
    public var money: MoneyStyle
    public var tenStart: TenStart

    public init(traditional: Bool = false, two: TwoStyle = .default, money: MoneyStyle = .default, tenStart: TenStart = .default) {
        self.traditional = traditional
        self.two = two
        self.money = money
        self.tenStart = tenStart
    }

    // The inventory: clip keys as pack.json writes them, in listing order. Computed from literals,
    // so the reading's hot path makes its tokens without touching a lazily initialised global.
    public static func digit(_ value: Int) -> Token {
        switch value {
        case 0: return Token("0", ordinal: 2)
        case 1: return Token("1", ordinal: 3)
        case 2: return Token("2", ordinal: 4)
        case 3: return Token("3", ordinal: 5)
        case 4: return Token("4", ordinal: 6)
        case 5: return Token("5", ordinal: 7)
        case 6: return Token("6", ordinal: 8)
        case 7: return Token("7", ordinal: 9)
        case 8: return Token("8", ordinal: 10)
        default: return Token("9", ordinal: 11)
        }
    }
    public static var ten: Token { Token("十", ordinal: 12) }
    public static var hundred: Token { Token("百", ordinal: 13) }
    public static var thousand: Token { Token("千", ordinal: 14) }
    public static var tenThousand: Token { Token("万", ordinal: 15) }
    public static var hundredMillion: Token { Token("亿", ordinal: 16) }
    public static var point: Token { Token("点", ordinal: 17) }
    public static var yuan: Token { Token("元", ordinal: 18) }
    public static var liang: Token { Token("两", ordinal: 19) }
    public static var jiao: Token { Token("角", ordinal: 20) }
    public static var fen: Token { Token("分", ordinal: 21) }
    public static var kuai: Token { Token("块", ordinal: 22) }
    public static var mao: Token { Token("毛", ordinal: 23) }

    public static let digits: [Token] = (0...9).map(digit)
    public static let inventory: [Token] = digits + [ten, hundred, thousand, tenThousand, hundredMillion, point, yuan, liang, jiao, fen, kuai, mao]
    public var tokens: [Token] { Self.inventory }

    private static let digitTexts = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"]
    private static let stems = ["shi", "bai", "qian", "wan", "yi", "dian", "yuan", "liang", "jiao", "fen", "kuai", "mao"]
    /// The unit of a place inside a level (个 has none), and of a level (个 has none).
    private static func unit(inLevel place: Int) -> Token? {
        switch place {
        case 1: return ten
        case 2: return hundred
        case 3: return thousand
        default: return nil
        }
    }

    private static func unit(ofLevel level: Int) -> Token? {
        switch level {
        case 1: return tenThousand
        case 2: return hundredMillion
        default: return nil
        }
    }

    public func text(of token: Token) -> String {
        let index = token.ordinal - Token.firstGrammarOrdinal
        if (0...9).contains(index) { return Self.digitTexts[index] }
        switch token.rawValue {
        case "万": return traditional ? "萬" : "万"
        case "亿": return traditional ? "億" : "亿"
        case "点": return traditional ? "點" : "点"
        case "两": return traditional ? "兩" : "两"
        case "块": return traditional ? "塊" : "块"
        default: return token.rawValue
        }
    }

    public func fileStem(of token: Token) -> String {
        let index = token.ordinal - Token.firstGrammarOrdinal
        return index >= 10 && index < 10 + Self.stems.count ? Self.stems[index - 10] : token.rawValue
    }

    public func figures(_ amount: Amount) -> String { "\(amount)\(text(of: Self.yuan))" }

    public struct State: Hashable, Sendable {
        /// A non-zero integer digit has been said.
        var started = false
        /// A zero was passed that earns one 零 before the next non-zero digit: a zero inside the
        /// current level, or a whole level of zeros. Zeros at the end of a level that said
        /// something are silent (DESIGN §4), so the level's end clears it.
        var pendingZero = false
        /// The current 4-digit level (units, 万, 亿) has a non-zero digit so far.
        var levelNonzero = false
        /// The first fraction digit, held until the second decides how it is said.
        var tenths = 0
    }

    public var start: State { State() }

    public func step(_ state: inout State, digit: Int, at position: Int, into tokens: inout [Token]) {
        if position < ReadingDigits.integerPlaces {
            integerStep(&state, digit: digit, place: ReadingDigits.integerPlaces - 1 - position, into: &tokens)
        } else if position == ReadingDigits.integerPlaces {
            // 零元 / 零点…元: nothing said before the fraction. The other styles decide at the end.
            if money == .yuan, !state.started { tokens.append(Self.digit(0)) }
            if state.started, money != .yuan { tokens.append(money == .kuaiMao ? Self.kuai : Self.yuan) }
            state.tenths = digit
        } else {
            fractionEnd(state, hundredths: digit, into: &tokens)
        }
    }

    func integerStep(_ state: inout State, digit: Int, place: Int, into tokens: inout [Token]) {
        let inLevel = place % 4, level = place / 4
        if digit != 0 {
            if state.pendingZero { tokens.append(Self.digit(0)) }
            state.pendingZero = false
            if inLevel == 1 && digit == 1 && !state.started && tenStart == .shi {
                // 十 alone at the start: 10 → 十, 100000 → 十万.
            } else if digit == 2 && saysLiang(inLevel: inLevel, level: level, levelNonzero: state.levelNonzero) {
                tokens.append(Self.liang)
            } else {
                tokens.append(Self.digit(digit))
            }
            if let unit = Self.unit(inLevel: inLevel) { tokens.append(unit) }
            state.started = true
            state.levelNonzero = true
        } else if state.started {
            state.pendingZero = true
        }
        if inLevel == 0 {
            if state.levelNonzero {
                if let unit = Self.unit(ofLevel: level) { tokens.append(unit) }
                // 204000 → 二十万四千: the zero closing the 万 level is silent.
                state.pendingZero = false
            }
            // A level of zeros keeps the 零 owed: 400005000 → 四亿零五千.
            state.levelNonzero = false
        }
    }

    /// Whether a 2 at this place is 两: a level that is exactly 2 before 万/亿 in both 两 styles,
    /// and before 百 (`liang`) or 千 (both).
    private func saysLiang(inLevel: Int, level: Int, levelNonzero: Bool) -> Bool {
        switch two {
        case .er: return false
        case .liang: return inLevel >= 2 || (inLevel == 0 && level > 0 && !levelNonzero)
        case .liangLarge: return inLevel == 3 || (inLevel == 0 && level > 0 && !levelNonzero)
        }
    }

    /// The fraction and the currency, once both fraction digits are known.
    func fractionEnd(_ state: State, hundredths: Int, into tokens: inout [Token]) {
        let tenths = state.tenths
        switch money {
        case .yuan:
            // Trailing zeros dropped: 15.40 → 十五点四元, 15.00 → 十五元.
            if tenths != 0 || hundredths != 0 {
                tokens.append(Self.point)
                tokens.append(Self.digit(tenths))
                if hundredths != 0 { tokens.append(Self.digit(hundredths)) }
            }
            tokens.append(Self.yuan)
        case .jiaoFen, .kuaiMao:
            let spoken = money == .kuaiMao
            if !state.started && tenths == 0 && hundredths == 0 {
                tokens.append(Self.digit(0))  // 零元, 零块
                tokens.append(spoken ? Self.kuai : Self.yuan)
                return
            }
            if tenths != 0 {
                tokens.append(Self.digit(tenths))
                tokens.append(spoken ? Self.mao : Self.jiao)
                if hundredths != 0 {
                    tokens.append(Self.digit(hundredths))
                    if !spoken { tokens.append(Self.fen) }  // 四毛五: the 分 after 毛 is not said
                }
            } else if hundredths != 0 {
                if state.started { tokens.append(Self.digit(0)) }  // 十五元零五分; 0.05 → 五分
                tokens.append(Self.digit(hundredths))
                tokens.append(Self.fen)
            }
        }
    }
}

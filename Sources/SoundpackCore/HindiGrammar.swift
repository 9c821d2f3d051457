// hi-IN (DESIGN §4b): ICU's spell-out of the integer for hi_IN, where every number 0…99 is one word
// (21 → इक्कीस, never "बीस एक"), in the Indian groups सौ हज़ार लाख करोड़ अरब खरब, and the currency
// after it: पन्द्रह रुपये चालीस पैसे.

/// Hindi readings: a clip for each of 0…99, the group words, and the currency.
public struct HindiGrammar: ReadingGrammar, Hashable {
    public init() {}

    // MARK: - Tokens (ordinals from Token.firstGrammarOrdinal, in listing order)

    /// The word of 0…99; its clip key is the number (`21`).
    static func number(_ n: Int) -> Token {
        switch n {
        case 0: return Token("0", ordinal: 2)
        case 1: return Token("1", ordinal: 3)
        case 2: return Token("2", ordinal: 4)
        case 3: return Token("3", ordinal: 5)
        case 4: return Token("4", ordinal: 6)
        case 5: return Token("5", ordinal: 7)
        case 6: return Token("6", ordinal: 8)
        case 7: return Token("7", ordinal: 9)
        case 8: return Token("8", ordinal: 10)
        case 9: return Token("9", ordinal: 11)
        case 10: return Token("10", ordinal: 12)
        case 11: return Token("11", ordinal: 13)
        case 12: return Token("12", ordinal: 14)
        case 13: return Token("13", ordinal: 15)
        case 14: return Token("14", ordinal: 16)
        case 15: return Token("15", ordinal: 17)
        case 16: return Token("16", ordinal: 18)
        case 17: return Token("17", ordinal: 19)
        case 18: return Token("18", ordinal: 20)
        case 19: return Token("19", ordinal: 21)
        case 20: return Token("20", ordinal: 22)
        case 21: return Token("21", ordinal: 23)
        case 22: return Token("22", ordinal: 24)
        case 23: return Token("23", ordinal: 25)
        case 24: return Token("24", ordinal: 26)
        case 25: return Token("25", ordinal: 27)
        case 26: return Token("26", ordinal: 28)
        case 27: return Token("27", ordinal: 29)
        case 28: return Token("28", ordinal: 30)
        case 29: return Token("29", ordinal: 31)
        case 30: return Token("30", ordinal: 32)
        case 31: return Token("31", ordinal: 33)
        case 32: return Token("32", ordinal: 34)
        case 33: return Token("33", ordinal: 35)
        case 34: return Token("34", ordinal: 36)
        case 35: return Token("35", ordinal: 37)
        case 36: return Token("36", ordinal: 38)
        case 37: return Token("37", ordinal: 39)
        case 38: return Token("38", ordinal: 40)
        case 39: return Token("39", ordinal: 41)
        case 40: return Token("40", ordinal: 42)
        case 41: return Token("41", ordinal: 43)
        case 42: return Token("42", ordinal: 44)
        case 43: return Token("43", ordinal: 45)
        case 44: return Token("44", ordinal: 46)
        case 45: return Token("45", ordinal: 47)
        case 46: return Token("46", ordinal: 48)
        case 47: return Token("47", ordinal: 49)
        case 48: return Token("48", ordinal: 50)
        case 49: return Token("49", ordinal: 51)
        case 50: return Token("50", ordinal: 52)
        case 51: return Token("51", ordinal: 53)
        case 52: return Token("52", ordinal: 54)
        case 53: return Token("53", ordinal: 55)
        case 54: return Token("54", ordinal: 56)
        case 55: return Token("55", ordinal: 57)
        case 56: return Token("56", ordinal: 58)
        case 57: return Token("57", ordinal: 59)
        case 58: return Token("58", ordinal: 60)
        case 59: return Token("59", ordinal: 61)
        case 60: return Token("60", ordinal: 62)
        case 61: return Token("61", ordinal: 63)
        case 62: return Token("62", ordinal: 64)
        case 63: return Token("63", ordinal: 65)
        case 64: return Token("64", ordinal: 66)
        case 65: return Token("65", ordinal: 67)
        case 66: return Token("66", ordinal: 68)
        case 67: return Token("67", ordinal: 69)
        case 68: return Token("68", ordinal: 70)
        case 69: return Token("69", ordinal: 71)
        case 70: return Token("70", ordinal: 72)
        case 71: return Token("71", ordinal: 73)
        case 72: return Token("72", ordinal: 74)
        case 73: return Token("73", ordinal: 75)
        case 74: return Token("74", ordinal: 76)
        case 75: return Token("75", ordinal: 77)
        case 76: return Token("76", ordinal: 78)
        case 77: return Token("77", ordinal: 79)
        case 78: return Token("78", ordinal: 80)
        case 79: return Token("79", ordinal: 81)
        case 80: return Token("80", ordinal: 82)
        case 81: return Token("81", ordinal: 83)
        case 82: return Token("82", ordinal: 84)
        case 83: return Token("83", ordinal: 85)
        case 84: return Token("84", ordinal: 86)
        case 85: return Token("85", ordinal: 87)
        case 86: return Token("86", ordinal: 88)
        case 87: return Token("87", ordinal: 89)
        case 88: return Token("88", ordinal: 90)
        case 89: return Token("89", ordinal: 91)
        case 90: return Token("90", ordinal: 92)
        case 91: return Token("91", ordinal: 93)
        case 92: return Token("92", ordinal: 94)
        case 93: return Token("93", ordinal: 95)
        case 94: return Token("94", ordinal: 96)
        case 95: return Token("95", ordinal: 97)
        case 96: return Token("96", ordinal: 98)
        case 97: return Token("97", ordinal: 99)
        case 98: return Token("98", ordinal: 100)
        default: return Token("99", ordinal: 101)
        }
    }

    static var hundred: Token { Token("hundred", ordinal: 102) }
    static var thousand: Token { Token("thousand", ordinal: 103) }
    static var lakh: Token { Token("lakh", ordinal: 104) }
    static var crore: Token { Token("crore", ordinal: 105) }
    static var arab: Token { Token("arab", ordinal: 106) }
    static var kharab: Token { Token("kharab", ordinal: 107) }
    /// The currency: its clip keys, their written text from pack.json `texts` (defaults below).
    static var unit: Token { Token("unit", ordinal: 108) }
    static var units: Token { Token("units", ordinal: 109) }
    static var subunit: Token { Token("subunit", ordinal: 110) }
    static var subunits: Token { Token("subunits", ordinal: 111) }

    public var tokens: [Token] {
        (0...99).map(Self.number) + [Self.hundred, Self.thousand, Self.lakh, Self.crore, Self.arab, Self.kharab,
                                     Self.unit, Self.units, Self.subunit, Self.subunits]
    }

    /// ICU's hi_IN spelling of 0…99.
    private static let numberTexts = [
        "शून्य", "एक", "दो", "तीन", "चार", "पाँच", "छह", "सात", "आठ", "नौ",
        "दस", "ग्यारह", "बारह", "तेरह", "चौदह", "पन्द्रह", "सोलह", "सत्रह", "अठारह", "उन्नीस",
        "बीस", "इक्कीस", "बाईस", "तेईस", "चौबीस", "पच्चीस", "छब्बीस", "सत्ताईस", "अट्ठाईस", "उनतीस",
        "तीस", "इकतीस", "बत्तीस", "तैंतीस", "चौंतीस", "पैंतीस", "छत्तीस", "सैंतीस", "अड़तीस", "उनतालीस",
        "चालीस", "इकतालीस", "बयालीस", "तैंतालीस", "चौवालीस", "पैंतालीस", "छियालीस", "सैंतालीस", "अड़तालीस", "उनचास",
        "पचास", "इक्यावन", "बावन", "तिरेपन", "चौवन", "पचपन", "छप्पन", "सत्तावन", "अट्ठावन", "उनसठ",
        "साठ", "इकसठ", "बासठ", "तिरेसठ", "चौंसठ", "पैंसठ", "छियासठ", "सड़सठ", "अड़सठ", "उनहत्तर",
        "सत्तर", "इकहत्तर", "बहत्तर", "तिहत्तर", "चौहत्तर", "पचहत्तर", "छिहत्तर", "सतहत्तर", "अठहत्तर", "उनासी",
        "अस्सी", "इक्यासी", "बयासी", "तिरासी", "चौरासी", "पचासी", "छियासी", "सत्तासी", "अट्ठासी", "नवासी",
        "नब्बे", "इक्यानबे", "बानबे", "तिरानबे", "चौरानबे", "पंचानबे", "छियानबे", "सत्तानबे", "अट्ठानबे", "निन्यानबे",
    ]
    private static let groupTexts = ["hundred": "सौ", "thousand": "हज़ार", "lakh": "लाख", "crore": "करोड़",
                                     "arab": "अरब", "kharab": "खरब"]
    /// The currency's words when pack.json `texts` names none.
    private static let currency = ["unit": "रुपया", "units": "रुपये", "subunit": "पैसा", "subunits": "पैसे"]

    public func text(of token: Token) -> String {
        let index = token.ordinal - Token.firstGrammarOrdinal
        if (0...99).contains(index) { return Self.numberTexts[index] }
        return Self.groupTexts[token.rawValue] ?? Self.currency[token.rawValue] ?? token.rawValue
    }

    public func text(of token: Token, texts: [String: String]) -> String {
        Self.currency[token.rawValue] != nil ? texts[token.rawValue] ?? text(of: token) : text(of: token)
    }

    public func fileStem(of token: Token) -> String { token.rawValue }
    public var separator: String { " " }
    public var grouping: DigitGrouping { .indian }
    public func figures(_ amount: Amount) -> String { "₹" + amount.description }

    // MARK: - Reading

    public struct State: Hashable, Sendable {
        /// The tens digit of the pair being read, until its units digit decides its word.
        var tens: Int8 = 0
        /// The integer part so far: 0 none, 1 exactly one, 2 more (the unit is singular for 1).
        var count: Int8 = 0
    }

    public var start: State { State() }

    /// The word said after a non-zero group ending at `place`: खरब (one digit), अरब करोड़ लाख हज़ार
    /// (two digits each), then सौ and the last two digits.
    private static func groupWord(ofPlace place: Int) -> Token? {
        switch place {
        case 11: return kharab
        case 9: return arab
        case 7: return crore
        case 5: return lakh
        case 3: return thousand
        default: return nil
        }
    }

    public func step(_ state: inout State, digit: Int, at position: Int, into tokens: inout [Token]) {
        if position < ReadingDigits.integerPlaces {
            let place = ReadingDigits.integerPlaces - 1 - position
            if digit != 0 { state.count = state.count == 0 && digit == 1 ? 1 : 2 } else if state.count == 1 { state.count = 2 }
            switch place {
            case 10, 8, 6, 4, 1:
                state.tens = Int8(digit)
            case 2:
                if digit != 0 {
                    tokens.append(Self.number(digit))
                    tokens.append(Self.hundred)
                }
            default:  // 11, 9, 7, 5, 3, 0: a group's last digit
                let value = Int(state.tens) * 10 + digit
                if value != 0 {
                    tokens.append(Self.number(value))
                    if let word = Self.groupWord(ofPlace: place) { tokens.append(word) }
                }
                state.tens = 0
            }
        } else if position == ReadingDigits.integerPlaces {
            state.tens = Int8(digit)
        } else {
            let fraction = Int(state.tens) * 10 + digit
            if state.count == 0 && fraction == 0 {
                tokens.append(Self.number(0))  // शून्य रुपये
                tokens.append(Self.units)
                return
            }
            if state.count != 0 { tokens.append(state.count == 1 ? Self.unit : Self.units) }
            if fraction != 0 {
                tokens.append(Self.number(fraction))
                tokens.append(fraction == 1 ? Self.subunit : Self.subunits)
            }
        }
    }
}

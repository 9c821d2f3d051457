// hi-IN (DESIGN §4b): ICU's spell-out of the integer for hi_IN, where every number 0…99 is one word
// (21 → इक्कीस, never "बीस एक"), in the Indian groups सौ हज़ार लाख करोड़ अरब खरब, and the currency
// after it: पन्द्रह रुपये चालीस पैसे.

/// Hindi readings: a clip for each of 0…99, the group words, and the currency.
public struct HindiGrammar: ReadingGrammar, Hashable {
    public init() {}

    // MARK: - Tokens (ordinals from Token.firstGrammarOrdinal, in listing order)

    /// The word of 0…99; its clip key is the number (`21`).
    static func number(_ n: Int) -> Token {
        let n = (0...99).contains(n) ? n : 99
        return Token(numberKeys[n], ordinal: 2 + n)
    }

    /// The clip keys of 0…99, as literals: a grammar token's key is a `StaticString`.
    private static let numberKeys: [StaticString] = [
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
        "10", "11", "12", "13", "14", "15", "16", "17", "18", "19",
        "20", "21", "22", "23", "24", "25", "26", "27", "28", "29",
        "30", "31", "32", "33", "34", "35", "36", "37", "38", "39",
        "40", "41", "42", "43", "44", "45", "46", "47", "48", "49",
        "50", "51", "52", "53", "54", "55", "56", "57", "58", "59",
        "60", "61", "62", "63", "64", "65", "66", "67", "68", "69",
        "70", "71", "72", "73", "74", "75", "76", "77", "78", "79",
        "80", "81", "82", "83", "84", "85", "86", "87", "88", "89",
        "90", "91", "92", "93", "94", "95", "96", "97", "98", "99",
    ]

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

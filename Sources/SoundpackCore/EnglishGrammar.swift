// en-US and en-IN (DESIGN §4b): ICU's spell-out of the integer for en_US and en_IN, a hyphenated
// word as its two clips (twenty-one → twenty one), and the currency said around it: fifteen dollars
// and forty cents; rupees one crore twenty-three lakh forty-five thousand six hundred seventy-eight.

/// English readings: American (thousand, million, billion; the unit after the number) or Indian
/// (thousand, lakh, crore, a crore counted up to 99,999; the unit before the number).
public struct EnglishGrammar: ReadingGrammar, Hashable {
    /// en-IN rather than en-US.
    public let indian: Bool

    public init(indian: Bool) { self.indian = indian }

    // MARK: - Tokens (ordinals from Token.firstGrammarOrdinal, in listing order)

    /// The words of 0…19.
    static func word(_ n: Int) -> Token {
        switch n {
        case 0: return Token("zero", ordinal: 2)
        case 1: return Token("one", ordinal: 3)
        case 2: return Token("two", ordinal: 4)
        case 3: return Token("three", ordinal: 5)
        case 4: return Token("four", ordinal: 6)
        case 5: return Token("five", ordinal: 7)
        case 6: return Token("six", ordinal: 8)
        case 7: return Token("seven", ordinal: 9)
        case 8: return Token("eight", ordinal: 10)
        case 9: return Token("nine", ordinal: 11)
        case 10: return Token("ten", ordinal: 12)
        case 11: return Token("eleven", ordinal: 13)
        case 12: return Token("twelve", ordinal: 14)
        case 13: return Token("thirteen", ordinal: 15)
        case 14: return Token("fourteen", ordinal: 16)
        case 15: return Token("fifteen", ordinal: 17)
        case 16: return Token("sixteen", ordinal: 18)
        case 17: return Token("seventeen", ordinal: 19)
        case 18: return Token("eighteen", ordinal: 20)
        default: return Token("nineteen", ordinal: 21)
        }
    }

    /// twenty … ninety (`n` is the tens digit, 2…9).
    static func tensWord(_ n: Int) -> Token {
        switch n {
        case 2: return Token("twenty", ordinal: 22)
        case 3: return Token("thirty", ordinal: 23)
        case 4: return Token("forty", ordinal: 24)
        case 5: return Token("fifty", ordinal: 25)
        case 6: return Token("sixty", ordinal: 26)
        case 7: return Token("seventy", ordinal: 27)
        case 8: return Token("eighty", ordinal: 28)
        default: return Token("ninety", ordinal: 29)
        }
    }

    static var hundred: Token { Token("hundred", ordinal: 30) }
    static var thousand: Token { Token("thousand", ordinal: 31) }
    static var million: Token { Token("million", ordinal: 32) }
    static var billion: Token { Token("billion", ordinal: 33) }
    static var lakh: Token { Token("lakh", ordinal: 32) }
    static var crore: Token { Token("crore", ordinal: 33) }
    static var and: Token { Token("and", ordinal: 34) }
    /// The currency: its clip keys, their written text from pack.json `texts` (defaults below).
    static var unit: Token { Token("unit", ordinal: 35) }
    static var units: Token { Token("units", ordinal: 36) }
    static var subunit: Token { Token("subunit", ordinal: 37) }
    static var subunits: Token { Token("subunits", ordinal: 38) }

    public var tokens: [Token] {
        (0...19).map(Self.word) + (2...9).map(Self.tensWord)
            + [Self.hundred, Self.thousand, indian ? Self.lakh : Self.million, indian ? Self.crore : Self.billion,
               Self.and, Self.unit, Self.units, Self.subunit, Self.subunits]
    }

    /// The currency's words when pack.json `texts` names none.
    var currency: [String: String] {
        indian ? ["unit": "rupee", "units": "rupees", "subunit": "paisa", "subunits": "paise"]
            : ["unit": "dollar", "units": "dollars", "subunit": "cent", "subunits": "cents"]
    }

    public func text(of token: Token) -> String { currency[token.rawValue] ?? token.rawValue }

    public func text(of token: Token, texts: [String: String]) -> String {
        currency[token.rawValue] != nil ? texts[token.rawValue] ?? text(of: token) : text(of: token)
    }

    public func fileStem(of token: Token) -> String { token.rawValue }
    public var separator: String { " " }

    /// ICU writes a tens word and the units word after it as one hyphenated word: twenty-one.
    public func separator(between a: Token, and b: Token) -> String {
        (22...29).contains(a.ordinal) && (3...11).contains(b.ordinal) && a == Self.tensWord(a.ordinal - 20) && b == Self.word(b.ordinal - 2) ? "-" : " "
    }
    public var grouping: DigitGrouping { indian ? .indian : .thousands }
    public func figures(_ amount: Amount) -> String { (indian ? "₹" : "$") + amount.description }

    // MARK: - Reading

    /// What the integer part is, so far: the unit is singular for exactly 1.
    enum Count: UInt8, Hashable, Sendable {
        case zero, one, many

        /// After one more integer digit.
        func then(_ digit: Int) -> Count {
            switch self {
            case .zero: return digit == 0 ? .zero : (digit == 1 ? .one : .many)
            case .one, .many: return .many
            }
        }
    }

    /// en-IN says the unit first, so its reading starts from a guess of what the amount is, and
    /// only the right guess is accepted at the end.
    enum Opening: UInt8, Hashable, Sendable {
        /// en-US: nothing is said before the number.
        case none
        /// 0.50 → fifty paise: no unit.
        case fraction
        /// 0 → rupees zero.
        case zero
        /// 1 → rupee one.
        case one
        /// rupees …
        case many
    }

    public struct State: Hashable, Sendable {
        /// The tens digit of the pair being read, until its units digit decides its words.
        var tens: Int8 = 0
        /// The current group (after which thousand, million … is said) has a non-zero digit.
        var group = false
        /// en-IN: the crore multiplier (the digits above 10^7) has a non-zero digit.
        var crore = false
        var count = Count.zero
        var opening = Opening.none
        /// The fraction is zero (known after the last digit).
        var noFraction = true
    }

    public var start: State { State() }

    public func start(for amount: Amount) -> State {
        guard indian else { return start }
        let integer = amount.integerPart
        var state = State()
        state.opening = integer == 0 ? (amount.fractionPart == 0 ? .zero : .fraction) : (integer == 1 ? .one : .many)
        return state
    }

    public var starts: [State] {
        guard indian else { return [start] }
        return [Opening.fraction, .zero, .one, .many].map { opening in
            var state = State()
            state.opening = opening
            return state
        }
    }

    public func accepts(_ state: State) -> Bool {
        switch state.opening {
        case .none: return true
        case .fraction: return state.count == .zero && !state.noFraction
        case .zero: return state.count == .zero && state.noFraction
        case .one: return state.count == .one
        case .many: return state.count == .many
        }
    }

    /// The words of 0…99 (nothing for 0): 21 → twenty one, 13 → thirteen.
    static func pair(_ tens: Int, _ units: Int, into tokens: inout [Token]) {
        if tens == 1 {
            tokens.append(word(10 + units))
        } else {
            if tens > 1 { tokens.append(tensWord(tens)) }
            if units > 0 { tokens.append(word(units)) }
        }
    }

    /// The place roles: US in groups of three (hundreds, tens, units: billion, million, thousand);
    /// IN: the crore multiplier (ten-thousands … units, thousand inside it), then lakh, thousand, hundred.
    private enum Role { case hundreds, tens, units(Token?) }

    private func role(ofPlace place: Int) -> Role {
        if indian {
            switch place {
            case 11, 8, 6, 4, 1: return .tens
            case 9, 2: return .hundreds
            case 10, 3: return .units(Self.thousand)
            case 5: return .units(Self.lakh)
            default: return .units(nil)  // 7 (crore, said after the multiplier) and 0
            }
        }
        switch place % 3 {
        case 2: return .hundreds
        case 1: return .tens
        default: return .units(place == 9 ? Self.billion : place == 6 ? Self.million : place == 3 ? Self.thousand : nil)
        }
    }

    public func step(_ state: inout State, digit: Int, at position: Int, into tokens: inout [Token]) {
        if position == 0 {
            switch state.opening {
            case .none, .fraction: break
            case .zero, .many: tokens.append(Self.units)
            case .one: tokens.append(Self.unit)
            }
        }
        if position < ReadingDigits.integerPlaces {
            let place = ReadingDigits.integerPlaces - 1 - position
            state.count = state.count.then(digit)
            if indian, place >= 7, digit != 0 { state.crore = true }
            switch role(ofPlace: place) {
            case .hundreds:
                if digit != 0 {
                    tokens.append(Self.word(digit))
                    tokens.append(Self.hundred)
                    state.group = true
                }
            case .tens:
                state.tens = Int8(digit)
            case .units(let groupWord):
                Self.pair(Int(state.tens), digit, into: &tokens)
                if state.tens != 0 || digit != 0 { state.group = true }
                if state.group, let groupWord { tokens.append(groupWord) }
                if indian, place == 7, state.crore { tokens.append(Self.crore) }
                state.group = false
                state.tens = 0
            }
        } else if position == ReadingDigits.integerPlaces {
            state.tens = Int8(digit)
        } else {
            let fraction = Int(state.tens) * 10 + digit
            state.noFraction = fraction == 0
            state.tens = 0
            if !indian {
                if state.count != .zero { tokens.append(state.count == .one ? Self.unit : Self.units) }
            } else if state.count == .zero && fraction == 0 {
                tokens.append(Self.word(0))  // rupees zero
            }
            if fraction != 0 {
                if state.count != .zero { tokens.append(Self.and) }
                Self.pair(fraction / 10, fraction % 10, into: &tokens)
                tokens.append(fraction == 1 ? Self.subunit : Self.subunits)
            } else if !indian && state.count == .zero {
                tokens.append(Self.word(0))  // zero dollars
                tokens.append(Self.units)
            }
        }
    }
}

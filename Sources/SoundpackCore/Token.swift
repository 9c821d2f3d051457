// The clip ids a pack maps to files: prefix, digits, units, point, currency, optional 两 and suffix.

/// One spoken unit of a reading; each token is one clip in a pack (`clips` keys in pack.json).
///
/// The raw value is the key written in pack.json. `zero` is also the 零 said for internal zeros.
public enum Token: String, CaseIterable, Sendable, Hashable, Codable, Comparable {
    case prefix
    case zero = "0", one = "1", two = "2", three = "3", four = "4"
    case five = "5", six = "6", seven = "7", eight = "8", nine = "9"
    case ten = "十", hundred = "百", thousand = "千"
    case tenThousand = "万", hundredMillion = "亿"
    case point = "点", yuan = "元"
    case liang = "两"
    case suffix

    /// The token for a decimal digit 0...9.
    public static func digit(_ value: Int) -> Token { digits[value] }
    static let digits: [Token] = [.zero, .one, .two, .three, .four, .five, .six, .seven, .eight, .nine]

    /// An ASCII file name stem for the token's clip (`shi` for 十), safe in URLs and sound names.
    public var fileStem: String {
        switch self {
        case .ten: return "shi"
        case .hundred: return "bai"
        case .thousand: return "qian"
        case .tenThousand: return "wan"
        case .hundredMillion: return "yi"
        case .point: return "dian"
        case .yuan: return "yuan"
        case .liang: return "liang"
        default: return rawValue
        }
    }

    /// Position in `allCases` (prefix, 0…9, units…): the order listings follow, and a cheap array
    /// index (hashing a `String`-backed enum hashes its raw value).
    public var ordinal: Int {
        switch self {
        case .prefix: return 0
        case .zero: return 1
        case .one: return 2
        case .two: return 3
        case .three: return 4
        case .four: return 5
        case .five: return 6
        case .six: return 7
        case .seven: return 8
        case .eight: return 9
        case .nine: return 10
        case .ten: return 11
        case .hundred: return 12
        case .thousand: return 13
        case .tenThousand: return 14
        case .hundredMillion: return 15
        case .point: return 16
        case .yuan: return 17
        case .liang: return 18
        case .suffix: return 19
        }
    }

    public static func < (lhs: Token, rhs: Token) -> Bool { lhs.ordinal < rhs.ordinal }

    /// Order of pack.json clip keys in listings: tokens in grammar order, then unknown keys by name.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        switch (Token(rawValue: a), Token(rawValue: b)) {
        case let (x?, y?): return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return a < b
        }
    }
}

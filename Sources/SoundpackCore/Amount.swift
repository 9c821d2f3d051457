// An exact payment amount in minor units (fen), parsed from the decimal strings people and servers write.

/// A non-negative amount of money held exactly as an integer count of minor units (1/100).
///
/// Amounts are never `Double`: `15.40` is 1540 minor units, and reading it back gives `15.40`.
public struct Amount: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The amount in minor units (1/100 of the major unit).
    public let minorUnits: Int64

    /// The exclusive upper limit of every grammar: 10^12 major units.
    public static let grammarLimit = Amount(minorUnits: 1_000_000_000_000 * 100)

    public init(minorUnits: Int64) {
        precondition(minorUnits >= 0, "amounts are never negative")
        self.minorUnits = minorUnits
    }

    /// The whole major units (yuan).
    public var integerPart: Int64 { minorUnits / 100 }
    /// The minor units after the point, 0...99.
    public var fractionPart: Int { Int(minorUnits % 100) }

    /// Canonical spelling: `15`, `15.40`, `0.05`.
    public var description: String {
        let cents = fractionPart
        if cents == 0 { return String(integerPart) }
        return "\(integerPart).\(cents < 10 ? "0" : "")\(cents)"
    }

    public static func < (lhs: Amount, rhs: Amount) -> Bool { lhs.minorUnits < rhs.minorUnits }

    /// Parses `[0-9]+(\.[0-9]{1,2})?` with optional thousands commas (`1,234.50`; with `.indian`
    /// grouping also `12,34,567.89`).
    ///
    /// Surrounding whitespace is ignored. Everything else (signs, exponents, full-width digits,
    /// misplaced commas, more than two fraction digits, 10^12 or more) is an ``AmountError``.
    public init(parsing input: String, grouping: DigitGrouping = .thousands) throws(AmountError) {
        let text = input.trimmingWhitespace()
        guard !text.isEmpty else { throw AmountError(input: input, problem: .empty) }
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            throw AmountError(input: input, problem: .nonASCII)
        }
        if bytes.first == UInt8(ascii: "-") { throw AmountError(input: input, problem: .negative) }
        if bytes.first == UInt8(ascii: "+") { throw AmountError(input: input, problem: .sign) }

        let pointIndex = bytes.firstIndex(of: UInt8(ascii: "."))
        let integerBytes = bytes[..<(pointIndex ?? bytes.endIndex)]
        let fractionBytes = pointIndex.map { bytes[($0 + 1)...] } ?? []

        func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        let allowed = integerBytes.allSatisfy { isDigit($0) || $0 == UInt8(ascii: ",") }
            && fractionBytes.allSatisfy(isDigit)
        guard allowed else {
            if bytes.contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
               bytes.contains(where: isDigit) {
                throw AmountError(input: input, problem: .exponent)
            }
            throw AmountError(input: input, problem: .notDecimal)
        }
        guard !integerBytes.isEmpty else { throw AmountError(input: input, problem: .notDecimal) }
        if pointIndex != nil {
            guard !fractionBytes.isEmpty else { throw AmountError(input: input, problem: .notDecimal) }
            guard fractionBytes.count <= 2 else { throw AmountError(input: input, problem: .tooManyFractionDigits) }
        }

        var digits = [UInt8]()
        if integerBytes.contains(UInt8(ascii: ",")) {
            let groups = integerBytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            let thousands = groups.first.map { (1...3).contains($0.count) } == true && groups.dropFirst().allSatisfy { $0.count == 3 }
            // Indian: the last group 3 digits, the others 2, the first 1 or 2 (12,34,567).
            let indian = grouping == .indian && groups.count >= 2 && groups.last?.count == 3
                && groups.first.map { (1...2).contains($0.count) } == true && groups.dropFirst().dropLast().allSatisfy { $0.count == 2 }
            guard thousands || indian else {
                throw AmountError(input: input, problem: grouping == .indian ? .badIndianGrouping : .badGrouping)
            }
            for group in groups { digits.append(contentsOf: group) }
        } else {
            digits = Array(integerBytes)
        }
        // Leading zeros are harmless; strip them before the length check so `0001` is 1.
        let significant = digits.drop(while: { $0 == UInt8(ascii: "0") })
        guard significant.count <= 12 else { throw AmountError(input: input, problem: .aboveGrammarLimit) }

        var integer: Int64 = 0
        for d in significant { integer = integer * 10 + Int64(d - UInt8(ascii: "0")) }
        var fraction: Int64 = 0
        for (i, d) in fractionBytes.enumerated() {
            fraction += Int64(d - UInt8(ascii: "0")) * (i == 0 ? 10 : 1)
        }
        self.minorUnits = integer * 100 + fraction
    }

    /// The amount of a line in the plain form `123` or `123.4` / `123.45` (ASCII digits, at most 12
    /// significant before the point, nothing else); nil for anything else, which `init(parsing:)`
    /// then reads or explains. Same value as `init(parsing:)` wherever both answer.
    public init?(plainDigits bytes: UnsafeBufferPointer<UInt8>) {
        var integer: Int64 = 0, significant = 0, index = 0
        let count = bytes.count
        while index < count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            if significant > 0 || digit != 0 { significant += 1 }
            guard significant <= 12 else { return nil }
            integer = integer &* 10 &+ Int64(digit)
            index += 1
        }
        guard index > 0 else { return nil }
        var fraction: Int64 = 0
        if index < count {
            guard bytes[index] == UInt8(ascii: "."), count - index - 1 == 1 || count - index - 1 == 2 else { return nil }
            let tens = bytes[index + 1] &- UInt8(ascii: "0")
            guard tens < 10 else { return nil }
            fraction = Int64(tens) * 10
            if count - index - 1 == 2 {
                let units = bytes[index + 2] &- UInt8(ascii: "0")
                guard units < 10 else { return nil }
                fraction += Int64(units)
            }
        }
        minorUnits = integer * 100 + fraction
    }

    /// Parses and checks the amount against an upper limit (a pack's `maxAmount`).
    public init(parsing input: String, maximum: Amount, grouping: DigitGrouping = .thousands) throws(AmountError) {
        try self.init(parsing: input, grouping: grouping)
        guard self <= maximum else {
            throw AmountError(input: input, problem: .aboveMaximum(maximum))
        }
    }
}

/// Why a string is not an amount. The message names the input and the rule it broke.
public struct AmountError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        case empty, nonASCII, negative, sign, exponent, notDecimal, badGrouping, badIndianGrouping
        case tooManyFractionDigits, aboveGrammarLimit
        case aboveMaximum(Amount)
    }

    public let input: String
    public let problem: Problem

    public var description: String {
        let shown = "'\(input.quoted())'"
        switch problem {
        case .empty: return "empty amount — expected digits like 15.40"
        case .nonASCII: return "\(shown) is not an amount — only ASCII digits 0-9, '.' and ',' are allowed (full-width or other digits are not)"
        case .negative: return "\(shown) is not an amount — amounts cannot be negative"
        case .sign: return "\(shown) is not an amount — write it without a sign"
        case .exponent: return "\(shown) is not an amount — exponent notation is not allowed; write the digits out"
        case .notDecimal: return "\(shown) is not an amount — expected digits with at most one '.', like 15.40"
        case .badGrouping: return "\(shown) is not an amount — thousands commas must separate groups of 3 digits, like 1,234,567.89"
        case .badIndianGrouping: return "\(shown) is not an amount — commas must separate groups of 3 digits (1,234,567.89) or the lakh and crore groups (12,34,567.89)"
        case .tooManyFractionDigits: return "\(shown) is not an amount — at most 2 digits after the point"
        case .aboveGrammarLimit: return "\(shown) is too large — amounts must be below 1000000000000 (10^12)"
        case .aboveMaximum(let max): return "\(shown) is too large — this pack's maxAmount is \(max)"
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[start...end])
    }
}

/// Amounts travel in files as their exact decimal strings ("99999999.99"), never as JSON numbers.
extension Amount: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do { self = try Amount(parsing: text) } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

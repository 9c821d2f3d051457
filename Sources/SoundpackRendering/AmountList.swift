// The amounts a command is given: its arguments, then the lines of a file or standard input.

import SoundpackCore
import SoundpackSupport

/// Amounts in the order given, each once; every input that is not one (or that `refuse` turns
/// down) is kept as a rejection with its line number, so a caller reports them all and renders
/// the rest.
public struct AmountList: Sendable {
    /// An amount is at most 17 characters with commas; a longer line is refused unread.
    static let maxLineBytes = 1_024

    /// An input that is not an amount (or that was refused), and why.
    public struct Rejection: Sendable, CustomStringConvertible {
        /// The line of the amounts file; nil for an argument.
        public var line: Int?
        /// Why it is not rendered: why it does not parse, or what `refuse` said.
        public var reason: String
        /// `line N: <reason>`, or the reason alone for an argument.
        public var description: String { (line.map { "line \($0): " } ?? "") + reason }
    }

    /// The amounts, in the order given, each once.
    public private(set) var amounts: [Amount] = []
    /// Every input that is not rendered, in the order given.
    public private(set) var rejections: [Rejection] = []

    package init(arguments: [String], lines: LineSource?, maximum: Amount, grouping: DigitGrouping = .thousands,
                refuse: (Amount) -> String? = { _ in nil }) {
        var seen = Set<Amount>()
        func take(_ text: String, line: Int?) {
            do {
                let amount = try Amount(parsing: text, maximum: maximum, grouping: grouping)
                if let reason = refuse(amount) {
                    rejections.append(Rejection(line: line, reason: reason))
                } else if seen.insert(amount).inserted {
                    amounts.append(amount)
                }
            } catch {
                rejections.append(Rejection(line: line, reason: error.description))
            }
        }
        for argument in arguments { take(argument, line: nil) }
        var number = 0
        while let line = lines?.nextLine(maxBytes: Self.maxLineBytes) {
            number += 1
            switch line {
            case .text(let text): take(text, line: number)
            case .tooLong(let start, let bytes):
                rejections.append(Rejection(line: number, reason: "'\(start.quoted())' is not an amount — the line is \(bytes) bytes, above \(Self.maxLineBytes)"))
            }
        }
    }
}

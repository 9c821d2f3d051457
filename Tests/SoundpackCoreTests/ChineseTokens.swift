// zh's tokens by name, so the Chinese reading tests can write [.ten, .five, .point, .four, .yuan].

@testable import SoundpackCore

extension Token {
    static let zero = ChineseGrammar.digits[0], one = ChineseGrammar.digits[1], two = ChineseGrammar.digits[2]
    static let three = ChineseGrammar.digits[3], four = ChineseGrammar.digits[4], five = ChineseGrammar.digits[5]
    static let six = ChineseGrammar.digits[6], seven = ChineseGrammar.digits[7], eight = ChineseGrammar.digits[8]
    static let nine = ChineseGrammar.digits[9]
    static let ten = ChineseGrammar.ten, hundred = ChineseGrammar.hundred, thousand = ChineseGrammar.thousand
    static let tenThousand = ChineseGrammar.tenThousand, hundredMillion = ChineseGrammar.hundredMillion
    static let point = ChineseGrammar.point, yuan = ChineseGrammar.yuan, liang = ChineseGrammar.liang
    static let jiao = ChineseGrammar.jiao, fen = ChineseGrammar.fen, kuai = ChineseGrammar.kuai, mao = ChineseGrammar.mao
    static let digits = ChineseGrammar.digits

    /// Every token a zh announcement can play (prefix, suffix and the grammar's own).
    static var allCases: [Token] { Grammar(.zhHans).inventory }

    var fileStem: String { Grammar(.zhHans).fileStem(of: self) }
}

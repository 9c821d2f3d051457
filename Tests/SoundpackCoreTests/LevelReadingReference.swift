// A second reading of amounts, written from the school rule's own words (split into levels of four
// digits, read each level, join levels with the boundary rule), to check the digit machine against.
// It shares nothing with ChineseGrammar: it works on whole levels and builds text, not tokens.

@testable import SoundpackCore

enum LevelReadingReference {
    private static let digitText: [Character] = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"]
    private static let placeText: [String] = ["", "十", "百", "千"]  // index = place inside the level
    private static let levelText: [String] = ["", "万", "亿"]        // index = level, 个 = 0

    /// The zh-Hans reading of `minorUnits` (no prefix or suffix), e.g. 20400000 → 二十万四千元.
    static func read(minorUnits: Int64, two: TwoStyle) -> String {
        read(minorUnits: minorUnits, options: GrammarOptions(two: two))
    }

    /// The reading with every option of DESIGN §4a, from the options' own words.
    static func read(minorUnits: Int64, options: GrammarOptions) -> String {
        let integer = minorUnits / 100
        let jiao = Int((minorUnits / 10) % 10), fen = Int(minorUnits % 10)
        let whole = integer == 0 ? "" : readInteger(integer, options: options)
        switch options.money {
        case .yuan:
            // 零点零五元; trailing fraction zeros dropped.
            var text = integer == 0 ? "零" : whole
            if jiao != 0 || fen != 0 {
                text += "点" + String(digitText[jiao])
                if fen != 0 { text.append(digitText[fen]) }
            }
            return text + "元"
        case .jiaoFen, .kuaiMao:
            let spoken = options.money == .kuaiMao
            let unit = spoken ? "块" : "元"
            if integer == 0 && jiao == 0 && fen == 0 { return "零" + unit }
            var text = integer == 0 ? "" : whole + unit
            if jiao != 0 {
                // 十五块四毛五: a 分 after 毛 is not said; 十五元四角五分 says it.
                text += String(digitText[jiao]) + (spoken ? "毛" : "角")
                if fen != 0 { text += String(digitText[fen]) + (spoken ? "" : "分") }
            } else if fen != 0 {
                // 十五元零五分, but 0.05 → 五分.
                text += (integer == 0 ? "" : "零") + String(digitText[fen]) + "分"
            }
            return text
        }
    }

    private static func readInteger(_ integer: Int64, options: GrammarOptions) -> String {
        // Levels, highest first: 亿, 万, 个.
        let levels = [Int((integer / 100_000_000) % 10_000), Int((integer / 10_000) % 10_000), Int(integer % 10_000)]
        var text = ""
        var saidSomething = false
        var zeroLevelSinceLastSaid = false
        for (index, value) in levels.enumerated() {
            let level = 2 - index
            if value == 0 {
                // A whole level of zeros after something was said owes one 零 to what follows.
                if saidSomething { zeroLevelSinceLastSaid = true }
                continue
            }
            // Boundary rule: a 零 joins this level to what was said when the digit above its first
            // non-zero digit is a zero of this level (value < 1000) or of an all-zero level between.
            if saidSomething && (value < 1000 || zeroLevelSinceLastSaid) { text += "零" }
            text += readLevel(value, isFirstSaid: !saidSomething, level: level, options: options)
            text += levelText[level]
            saidSomething = true
            zeroLevelSinceLastSaid = false
        }
        return text
    }

    /// One level of four digits, 1...9999: internal zero runs say one 零, trailing zeros are silent.
    private static func readLevel(_ value: Int, isFirstSaid: Bool, level: Int, options: GrammarOptions) -> String {
        let places = [value / 1000, (value / 100) % 10, (value / 10) % 10, value % 10]  // 千 百 十 个
        var text = ""
        var seenNonzero = false
        var zeroRun = false
        for (index, digit) in places.enumerated() {
            let place = 3 - index
            if digit == 0 {
                if seenNonzero { zeroRun = true }
                continue
            }
            if zeroRun { text += "零" }
            zeroRun = false
            // 十 alone at the start (10 → 十) unless tenStart says 一十.
            let lonelyTen = place == 1 && digit == 1 && isFirstSaid && !seenNonzero && options.tenStart == .shi
            if !lonelyTen {
                // 两: liang before 百 and 千, liang-large before 千 only; both for a level of exactly 2 before 万/亿.
                let exactlyTwoBeforeALevelUnit = value == 2 && level > 0
                let liangHere: Bool = switch options.two {
                case .er: false
                case .liang: place >= 2 || exactlyTwoBeforeALevelUnit
                case .liangLarge: place == 3 || exactlyTwoBeforeALevelUnit
                }
                let liang = digit == 2 && liangHere
                text += liang ? "两" : String(digitText[digit])
            }
            text += placeText[place]
            seenNonzero = true
        }
        return text
    }
}

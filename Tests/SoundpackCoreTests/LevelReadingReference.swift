// A second reading of amounts, written from the school rule's own words (split into levels of four
// digits, read each level, join levels with the boundary rule), to check the digit machine against.
// It shares nothing with ReadingMachine: it works on whole levels and builds text, not tokens.

@testable import SoundpackCore

enum LevelReadingReference {
    private static let digitText: [Character] = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"]
    private static let placeText: [String] = ["", "十", "百", "千"]  // index = place inside the level
    private static let levelText: [String] = ["", "万", "亿"]        // index = level, 个 = 0

    /// The zh-Hans reading of `minorUnits` (no prefix or suffix), e.g. 20400000 → 二十万四千元.
    static func read(minorUnits: Int64, two: TwoStyle) -> String {
        let integer = minorUnits / 100
        let jiao = Int((minorUnits / 10) % 10), fen = Int(minorUnits % 10)
        var text = integer == 0 ? "零" : readInteger(integer, two: two)
        if jiao != 0 || fen != 0 {
            text += "点" + String(digitText[jiao])
            if fen != 0 { text.append(digitText[fen]) }
        }
        return text + "元"
    }

    private static func readInteger(_ integer: Int64, two: TwoStyle) -> String {
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
            text += readLevel(value, isFirstSaid: !saidSomething, level: level, two: two)
            text += levelText[level]
            saidSomething = true
            zeroLevelSinceLastSaid = false
        }
        return text
    }

    /// One level of four digits, 1...9999: internal zero runs say one 零, trailing zeros are silent.
    private static func readLevel(_ value: Int, isFirstSaid: Bool, level: Int, two: TwoStyle) -> String {
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
            let lonelyTen = place == 1 && digit == 1 && isFirstSaid && !seenNonzero
            if !lonelyTen {
                let liang = two == .liang && digit == 2 && (place >= 2 || (value == 2 && level > 0))
                text += liang ? "两" : String(digitText[digit])
            }
            text += placeText[place]
            seenNonzero = true
        }
        return text
    }
}

import SoundpackCore
import SoundpackSupport

/// `compose.too-long` (error at `checks.composeMaxSeconds`, default and iOS limit 30 s; warning at
/// `checks.composeWarnSeconds`, default 10 s): the longest announcement of any amount up to
/// `maxAmount`. iOS plays the default sound instead of one 30 s or longer.
package struct ComposeTooLong: PackRule {
    static let id = RuleID.composeTooLong
    static let severity = Severity.error
    static let summary = "The longest announcement up to maxAmount reaches checks.composeMaxSeconds (error, iOS limit 30 s) or checks.composeWarnSeconds (warning)."

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let checks = pack.packFile?.checks, let worst = pack.worstCase else { return [] }
        let severity: Severity
        let limit: Double
        if Self.isTooLong(seconds: worst.seconds, checks: checks) {
            (severity, limit) = (.error, checks.composeMaxSeconds)
        } else if worst.seconds >= checks.composeWarnSeconds {
            (severity, limit) = (.warning, checks.composeWarnSeconds)
        } else {
            return []
        }
        return [Finding(Self.id, severity, at: "maxAmount",
                        "the longest announcement, for \(worst.said) (\(worst.text)), lasts \(Format.seconds(worst.seconds)), at or above \(Format.seconds(limit)); shorten the clips or lower maxAmount")]
    }
}

extension ComposeTooLong {
    /// Whether one announcement of `seconds` is one iOS would not play: the limit validate
    /// errors at, which render refuses to write (one owner of the comparison).
    package static func isTooLong(seconds: Double, checks: Checks) -> Bool { seconds >= checks.composeMaxSeconds }
}

extension RuleID {
    /// `compose.too-long`, declared by `ComposeTooLong`.
    public static let composeTooLong = RuleID(declaring: "compose.too-long")
}

// The rules of `payload lint`, each in its own file under Rules/, run in order over a payload read once.

import SoundpackCore
import SoundpackSupport

/// A rule of `payload lint` (`Rule`: id, severity, summary) and its check of one read payload. `PushPayload.lint` runs them in `PushPayload.rules` order.
protocol PayloadRule: Rule {
    func check(_ payload: ReadPayload) -> [Finding]
}

extension PayloadRule {
    static var scope: RuleID.Scope { .payload }

    /// A finding of this rule, at its severity.
    func finding(_ message: String) -> Finding { Finding(Self.id, Self.severity, message) }
}

extension PushPayload {
    /// Every rule run over a payload that reads as one JSON object, in the order findings are
    /// reported; `payload.too-large` and `payload.invalid` come first, from the bytes.
    static let rules: [any PayloadRule] = [
        PayloadNoBody(), PayloadNotMutable(), PayloadNoInterruptionLevel(), PayloadCritical(), PayloadInterruptionLevel(),
        PayloadYankedPack(), PayloadUnknownPack(), PayloadNoPaymentID(), PayloadPaymentID(), PayloadUnknownPhrase(),
        PayloadAmountUnreadable(), PayloadMissingClip(),
    ]
}

// The one answer to "does this run fail", and the one place findings are suppressed.

import SoundpackKit
import Testing

@Suite struct VerdictTests {
    let error = Finding(.fileUnreadable, .error, token: "5", file: "clips/5.caf", "cannot read")
    let warning = Finding(.audioClipping, .warning, token: "6", file: "clips/6.caf", "clipped")
    let note = Finding(.storeLeftover, .note, file: "wechat/.staging", "left by an interrupted publish")

    @Test func errorsFailWarningsOnlyUnderStrictNotesNever() {
        let lenient = Verdict(), strict = Verdict(strict: true)
        #expect(lenient.fails(error) && strict.fails(error))
        #expect(!lenient.fails(warning) && strict.fails(warning))
        #expect(!lenient.fails(note) && !strict.fails(note))
        #expect(lenient.passes([warning, note]) && !strict.passes([warning, note]))
        #expect(strict.level(warning) == .error && lenient.level(warning) == .warning && strict.level(note) == .note)
    }

    @Test func aSuppressedFindingNeverFailsButKeepsItsLevel() {
        var suppressed = error
        suppressed.suppressed = "in the baseline"
        #expect(!Verdict(strict: true).fails(suppressed))
        #expect(Verdict().level(suppressed) == .error)
        #expect(Verdict().passes([suppressed]))
    }

    @Test func aPackWaivesItsWarningsOnlyAndTheFirstReasonStays() {
        let suppressions = Suppressions(packIgnores: ["file.unreadable", "audio.clipping"], rules: [.audioClipping], baseline: [error.fingerprint])
        let marked = suppressions.apply(to: [error, warning])
        // The pack's ignore cannot waive its error; the baseline does.
        #expect(marked[0].suppressed == "in the baseline")
        // The pack's own ignore comes first, before --ignore names the same rule.
        #expect(marked[1].suppressed == "ignored by pack.json checks.ignore")
        #expect(Suppressions(rules: [.audioClipping]).apply(to: [warning])[0].suppressed == "ignored by --ignore audio.clipping")
        #expect(Suppressions().apply(to: [error, warning]).allSatisfy { $0.suppressed == nil })
        var earlier = warning
        earlier.suppressed = "ignored by --ignore audio.clipping"
        #expect(Suppressions(baseline: [warning.fingerprint]).apply(to: [earlier])[0].suppressed == "ignored by --ignore audio.clipping")
    }
}

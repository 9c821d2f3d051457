// Text on its way to a terminal is escaped once: an input a message already quotes (made visible)
// is not escaped again by the line that prints it, and no control character gets through either way.

import Foundation
import Testing
import SoundpackCore
import SoundpackTestSupport

@Suite struct EscapedOnceTests {
    @Test func aQuotedInputInAFindingIsEscapedOnce() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        try Fixtures.editManifest(pack) { manifest in
            var clips = manifest["clips"] as? [String: String] ?? [:]
            clips["bad\\u{1B}key"] = "clips/0.caf"
            manifest["clips"] = clips
        }
        let validated = try Executable.run(["validate", "wechat", "--no-record"], in: folder.path)
        #expect(validated.stdout.contains("clip key 'bad\\\\u{1B}key' is not a token"), "one escape of the backslash: \(validated.stdout)")
        #expect(!validated.stdout.contains("bad\\\\\\\\u{1B}"), "never two")
    }

    @Test func anErrorNamingARawInputIsTerminalSafeAndEscapedOnce() throws {
        let folder = TemporaryFolder()
        let said = try Executable.run(["say", "1", "--pack", "no\u{1B}[2Jpe"], in: folder.path)
        #expect(said.stderr.contains("cannot use no\\u{1B}[2Jpe/pack.json") && !said.stderr.contains("\u{1B}"), "\(said.stderr)")
    }

    @Test func terminalSafeEscapesControlsAndLeavesQuotedTextAlone() {
        #expect("a\u{1B}b\nc".terminalSafe == "a\\u{1B}b\\u{A}c")
        #expect("x\u{1B}".visible.terminalSafe == "x\\u{1B}", "what is visible already stays as it is")
        #expect("\\u{41}".visible.terminalSafe == "\\\\u{41}")
        #expect("plain".terminalSafe == "plain")
    }
}

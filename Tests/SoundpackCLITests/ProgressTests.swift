// Progress lines appear on a terminal and nowhere else.

import Foundation
import Testing
import SoundpackKit
import SoundpackTestSupport
@testable import SoundpackCLI

@Suite struct ProgressTests {
    static func run(_ arguments: [String], terminal: Bool, in folder: String, environment: [String: String] = ["NO_COLOR": "1"]) -> (code: ExitCode, stdout: String, stderr: String) {
        let out = OutputSink(capturingAsTerminal: false), err = OutputSink(capturingAsTerminal: terminal)
        let context = CLIContext(stdout: out, stderr: err, stdin: LineSource(text: ""), environment: environment, workingDirectory: folder)
        let code = SoundpackCommand.run(arguments, context)
        return (code, out.text, err.text)
    }

    @Test func validateAndRenderShowProgressOnATerminalOnly() throws {
        let folder = TemporaryFolder()
        try Fixtures.copyDemoPack(into: folder, as: "a")
        try Fixtures.copyDemoPack(into: folder, as: "b")
        let shown = Self.run(["validate", "a", "b", "--no-record"], terminal: true, in: folder.path)
        #expect(shown.code == .success)
        #expect(shown.stderr.contains("\rvalidating clips [") && shown.stderr.contains("/36 "), "\(shown.stderr.debugDescription)")
        // Cleared when done, so the next line starts clean and nothing stays on screen.
        #expect(shown.stderr.hasSuffix("\r\u{1B}[2K"))
        let quiet = Self.run(["validate", "a", "b", "--no-record"], terminal: false, in: folder.path)
        #expect(quiet.stderr.isEmpty)
        #expect(quiet.stdout == shown.stdout)

        let render = Self.run(["render", "--pack", "a", "1", "2", "3", "-o", "out"], terminal: true, in: folder.path)
        #expect(render.code == .success)
        #expect(render.stderr.contains("\rrendering [") && render.stderr.contains("/3 "), "\(render.stderr.debugDescription)")
        #expect(Self.run(["render", "--pack", "a", "1", "2", "3", "-o", "out2"], terminal: false, in: folder.path).stderr.isEmpty)
    }

    /// A dumb terminal takes a carriage return but no escape sequence: nothing of ours sends one.
    @Test func aDumbTerminalGetsNoEscapes() throws {
        let folder = TemporaryFolder()
        try Fixtures.copyDemoPack(into: folder, as: "a")
        try FileManager.default.removeItem(atPath: folder.file("a/clips/5.caf"))
        try Data(String(repeating: "not audio ", count: 500).utf8).write(to: URL(fileURLWithPath: folder.file("a/clips/5.caf")))
        let dumb = Self.run(["validate", "a", "--no-record"], terminal: true, in: folder.path, environment: ["TERM": "dumb"])
        #expect(dumb.code == .failure)
        #expect(dumb.stderr.contains("\rvalidating clips") && !dumb.stderr.contains("\u{1B}"), "\(dumb.stderr.debugDescription)")
        #expect(!dumb.stdout.contains("\u{1B}"))
    }
}

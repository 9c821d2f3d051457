// The command line's contract for every command: --help, and usage errors exit 2.

import Testing
import SoundpackTestSupport
@testable import SoundpackCLI

@Suite struct HelpAndUsageTests {
    @Test(arguments: [
        ["frobnicate"], ["validate"], ["validate", "x", "--format", "xml"], ["say", "1"], ["say", "1", "--grammar", "en"],
        ["list", "--bogus"], ["show"], ["init", "x"], [],
    ])
    func usageErrorsExitTwo(_ arguments: [String]) throws {
        let result = try Executable.run(arguments, in: "/")
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }

    @Test(arguments: SoundpackCommand.commands.map { $0.spec.name })
    func everyCommandHasHelp(_ command: String) throws {
        let result = try Executable.run([command, "--help"], in: "/")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("USAGE: soundpack \(command)"))
        #expect(result.stdout.contains("--catalog"))
    }
}

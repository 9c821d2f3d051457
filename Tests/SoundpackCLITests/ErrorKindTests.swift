// One error type from the engine to the exit code: the kind an engine error carries is the exit
// code the command returns, mapped in one place, and wrapping keeps both the kind and the text.

import Foundation
import Testing
import SoundpackKit
import SoundpackTestSupport
@testable import SoundpackCLI

@Suite struct ErrorKindTests {
    @Test func eachKindIsOneExitCode() {
        #expect(SoundpackError.refused("x").code == .failure)
        #expect(SoundpackError.usage("x").code == .usage)
        #expect(SoundpackError.environment("x").code == .environment)
        #expect(SoundpackError.environment("the catalog is locked").code == .environment, "an engine error with no kind named is an environment failure")
    }

    @Test func contextKeepsTheKindAndTheWholeReason() {
        let inner = SoundpackError.refused("clip '5.caf' refused", "not audio", hint: "run soundpack validate")
        let outer = inner.context("cannot render with packs/wechat")
        #expect(outer.kind == .refused)
        #expect(outer.description == "cannot render with packs/wechat — clip '5.caf' refused — not audio (run soundpack validate)")
        #expect(outer.of(.environment).code == .environment && outer.of(.environment).description == outer.description)
    }

    /// The kinds the engine gives reach the process as DESIGN §5's codes, through one mapping.
    @Test(arguments: [
        (["import", "not-an-archive.txt", "packs/x"], ExitCode.failure),  // the archive is refused (exit 1)
        (["diff", "wechat@1.x", "wechat@1.0.0"], .usage),  // a malformed version is a usage error
        (["list", "--catalog", "missing/catalog.sqlite"], .environment),  // a named catalog that is not there
    ])
    func engineKindsBecomeExitCodes(_ arguments: [String], _ code: ExitCode) throws {
        let folder = TemporaryFolder()
        try folder.write("plain text", to: "not-an-archive.txt")
        let result = try Executable.run(arguments, in: folder.path)
        #expect(result.status == code.rawValue, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("error: "))
    }
}

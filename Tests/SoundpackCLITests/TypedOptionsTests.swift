// Commands receive typed options: one generic decoder converts every value where it is read.

import Foundation
import Testing
import SoundpackCore
import SoundpackKit
import SoundpackTestSupport
@testable import SoundpackCLI

@Suite struct TypedOptionsTests {
    static func decode<Options: ParsableArguments>(_ arguments: [String], as type: Options.Type, command: String) throws(SoundpackError) -> Options {
        let spec = CommandSpec(name: command, synopsis: command, summary: "", options: Options.specs)
        return try Options.decode(try spec.parse(arguments), command: command)
    }

    @Test func valuesArriveAsTheirTypesAndDefaultsComeFromTheStruct() throws {
        let say = try Self.decode(["15.40", "--grammar", "zh-Hans", "--two", "liang", "-", "--format", "json"], as: SayCommand.Options.self, command: "say")
        #expect(say.amounts == ["15.40", "-"])
        #expect(say.grammar == .zhHans)
        #expect(say.reading.two == .liang && say.reading.money == nil, "a grouped flag lands in its group; one not given stays nil")
        #expect(say.format == .json)
        let plain = try Self.decode(["1"], as: SayCommand.Options.self, command: "say")
        #expect(plain.format == .text && plain.grammar == nil)

        let convert = try Self.decode(["raw", "out", "--rate", "16000", "--loudness", "-18", "--mono", "--codec", "ima4"], as: ConvertCommand.Options.self, command: "convert")
        #expect(convert.source == "raw" && convert.destination == "out")
        #expect(convert.convert.sampleRate == 16000 && convert.convert.loudness == -18 && convert.convert.mono && convert.convert.encoding == .ima4)

        let verify = try Self.decode(["--unsigned-before", "wechat@1.0.2", "--public-key", "a.pub", "--public-key", "b.pub"], as: VerifyCommand.Options.self, command: "verify")
        #expect(verify.unsignedBefore == [PackRef(id: "wechat", version: SemanticVersion("1.0.2"))])
        #expect(verify.publicKeys == ["a.pub", "b.pub"], "a repeatable option keeps every value in order")

        let validate = try Self.decode(["--ignore", "audio.clipping", "--ignore", "format.mismatch"], as: ValidateCommand.Options.self, command: "validate")
        #expect(validate.ignored == [.audioClipping, .formatMismatch])
    }

    @Test(arguments: [
        (["x", "y", "--rate", "fast"], "convert", "--rate must be a whole number of Hz"),
        (["--amount", "1.234", "p"], "report", "--amount:"),
        (["a@1.0.0", "b"], "yank", "yank takes one argument; 'b' is one too many"),
        (["x"], "list", "list takes no arguments; 'x' is one too many"),
        (["wechat@", "--reason", "r"], "yank", "'' in 'wechat@' is not a semantic version"),
        (["1", "--pack", "wechat", "--payment-id", "has space"], "payload", "--payment-id 'has space' is not a payment id"),
        (["wechat", "--base-url", "ftp://x"], "export", "ftp://x"),
        (["x", "--id", "Not_An_Id"], "init", "'Not_An_Id' is not a pack id"),
        (["x", "--format", "jsn"], "show", "did you mean 'json'?"),
    ])
    func aValueThatDoesNotConvertIsAUsageErrorInItsOptionsWords(_ arguments: [String], _ command: String, _ expected: String) throws {
        let result = try Executable.run([command] + arguments, in: "/")
        #expect(result.status == (command == "report" ? 1 : 2), "\(result.stderr)")
        #expect(result.stderr.contains(expected), "\(result.stderr)")
    }

    @Test func everyDeclaredOptionNameIsUniqueAcrossACommandAndTheGlobalOptions() {
        for command in SoundpackCommand.commands {
            let names = (command.spec.options + CommandSpec.globalOptions).flatMap(\.names)
            #expect(Set(names).count == names.count, "\(command.spec.name): \(names)")
        }
    }

    /// The issue's grep: a command reads its typed options, never an option by its name or a
    /// positional by its index.
    @Test func noCommandReadsAnOptionByNameOrAPositionalByIndex() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/SoundpackCLI")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20)
        // A read names the option alone (`arguments.value("--rate")`); a declaration goes on (`, to:`).
        let byName = try Regex(#"\.(value|values|has|choice|choices)\("--?[a-z0-9-]+"\)"#)
        for file in files where file != "Arguments.swift" {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let readsByName = text.contains(byName)
            #expect(!readsByName, "\(file) reads an option by name")
            #expect(!text.contains("positionals["), "\(file) reads a positional by index")
            #expect(!text.contains("ParsedArguments") || file == "SoundpackCommand.swift", "\(file) sees the untyped command line")
        }
    }
}

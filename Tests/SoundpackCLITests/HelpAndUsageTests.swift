// The command line's contract for every command: --help, and usage errors exit 2.

import Foundation
import Testing
import SoundpackKit
import SoundpackTestSupport
@testable import SoundpackCLI

@Suite struct HelpAndUsageTests {
    @Test(arguments: [
        ["frobnicate"], ["validate"], ["validate", "x", "--format", "xml"], ["say", "1"], ["say", "1", "--grammar", "en"],
        ["list", "--bogus"], ["show"], ["init", "x"], [],
    ])
    func usageErrorsExitTwo(_ arguments: [String]) throws {
        // The built binary: the exit status is the process's, not only the value `run` returns.
        let result = try Executable.spawn(arguments, in: "/")
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }

    @Test(arguments: SoundpackCommand.commands.map { $0.spec.name })
    func everyCommandHasHelp(_ command: String) throws {
        let result = try Executable.spawn([command, "--help"], in: "/")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("USAGE: soundpack \(command)"))
        #expect(result.stdout.contains("--catalog"))
    }
}

/// The command line as cargo and git users expect it: suggestions for typos, `--color`, and
/// completions and a man page generated from the same specs as `--help`.
@Suite struct CommandLineFeelTests {
    @Test(arguments: [(["valdate", "x"], "did you mean 'soundpack validate'?"), (["publsh"], "did you mean 'soundpack publish'?"),
                      (["validate", "x", "--fromat", "json"], "did you mean '--format'?"), (["say", "1", "--gramar", "zh-Hans"], "did you mean '--grammar'?")])
    func typosGetTheNearestName(_ arguments: [String], _ suggestion: String) throws {
        let result = try Executable.run(arguments, in: "/")
        #expect(result.status == 2)
        #expect(result.stderr.contains(suggestion), "\(result.stderr)")
    }

    static func colourOf(_ arguments: [String], environment: [String: String], terminal: Bool = true) -> Bool {
        let out = OutputSink(capturingAsTerminal: terminal)
        let context = CLIContext(stdout: out, stderr: OutputSink(capturingAsTerminal: terminal), stdin: LineSource(text: ""),
                                 environment: environment, workingDirectory: "/")
        _ = SoundpackCommand.run(arguments, context)
        return out.text.contains("\u{1B}[")
    }

    @Test func colourFollowsTheFlagThenNoColorThenTheTerminal() {
        let validate = ["validate", Fixtures.demoPack, "--no-record"]
        #expect(Self.colourOf(validate, environment: [:]))
        #expect(!Self.colourOf(validate, environment: [:], terminal: false))
        #expect(!Self.colourOf(validate, environment: ["NO_COLOR": "1"]))
        #expect(Self.colourOf(validate, environment: ["NO_COLOR": ""]), "an empty NO_COLOR does not count")
        #expect(!Self.colourOf(validate, environment: ["TERM": "dumb"]))
        #expect(Self.colourOf(validate + ["--color", "always"], environment: ["NO_COLOR": "1"], terminal: false))
        #expect(!Self.colourOf(validate + ["--color", "never"], environment: [:]))
    }

    static let everything: [(command: String, options: [String])] = SoundpackCommand.commands.map { command in
        (command.spec.name, (command.spec.options + CommandSpec.globalOptions).flatMap(\.names))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsNameEveryCommandAndOption(_ shell: String) throws {
        let script = try Executable.run(["completions", shell], in: "/").stdout
        for (command, options) in Self.everything {
            #expect(script.contains(command), "\(shell): \(command)")
            for option in options {
                let spelled = shell == "fish" ? (option.hasPrefix("--") ? "-l \(option.dropFirst(2))" : "-s \(option.dropFirst())") : option
                #expect(script.contains(spelled), "\(shell): \(command) \(option)")
            }
        }
        if shell == "bash" {
            let folder = TemporaryFolder()
            try folder.write(script, to: "soundpack.bash")
            let check = Process()
            check.executableURL = URL(fileURLWithPath: "/bin/bash")
            check.arguments = ["-n", folder.file("soundpack.bash")]
            try check.run()
            check.waitUntilExit()
            #expect(check.terminationStatus == 0)
        }
    }

    /// Runs `script` with `shell` (`-c`); nil when the shell is not installed.
    static func shell(_ shell: String, _ script: String) throws -> (status: Int32, output: String)? {
        try Tool.run("/usr/bin/\(shell)", shell == "zsh" ? ["-f", "-c", script] : ["-c", script]).map { ($0.status, $0.stdout + $0.stderr) }
    }

    /// Every option that takes a value from a list (`--format`, `--codec`, `--color`, …) completes to
    /// that list in bash and fish, as the shells themselves answer, and zsh reads the script.
    @Test func completionsOfferTheValuesOfEveryChoiceOption() throws {
        let folder = TemporaryFolder()
        for shell in ["bash", "zsh", "fish"] {
            try folder.write(try Executable.run(["completions", shell], in: "/").stdout, to: "soundpack.\(shell)")
        }
        let formats = SoundpackCommand.commands.filter { command in command.spec.options.contains { $0.names.contains("--format") } }
        #expect(formats.count >= 10)
        for command in formats {
            let option = try #require(command.spec.options.first { $0.names.contains("--format") })
            #expect(option.choices.count >= 2, "\(command.spec.name) --format lists its values")
        }
        var checked = 0
        for command in SoundpackCommand.commands {
            for option in command.spec.options + CommandSpec.globalOptions where !option.choices.isEmpty {
                let name = try #require(option.names.last)
                let words = "soundpack \(command.spec.name) x \(name)"
                if let bash = try Self.shell("bash", """
                    source \(folder.file("soundpack.bash")); COMP_WORDS=(\(words) ''); COMP_CWORD=4; _soundpack; printf '%s\\n' "${COMPREPLY[@]}"
                    """) {
                    #expect(bash.status == 0 && bash.output.split(separator: "\n").map(String.init).sorted() == option.choices.sorted(),
                            "bash: \(words): \(bash.output)")
                }
                if let fish = try Self.shell("fish", "source \(folder.file("soundpack.fish")); complete -C'\(words) '") {
                    let offered = fish.output.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }.sorted()
                    #expect(fish.status == 0 && offered == option.choices.sorted(), "fish: \(words): \(fish.output)")
                }
                checked += 1
            }
        }
        #expect(checked >= 30)
        if let zsh = try Self.shell("zsh", "zsh -n \(folder.file("soundpack.zsh"))") { #expect(zsh.status == 0, "\(zsh.output)") }
        let values = try Executable.run(["validate", Fixtures.demoPack, "--format", "sarfi"], in: "/")
        #expect(values.status == 2 && values.stderr.contains("use one of: text, json, junit, github, sarif"), "\(values.stderr)")
    }

    @Test func theManPageNamesEveryCommandAndOptionAndRenders() throws {
        let page = try Executable.run(["man"], in: "/").stdout
        for (command, options) in Self.everything {
            #expect(page.contains(".SS \(command)"), "\(command)")
            for option in options { #expect(page.contains(option.replacingOccurrences(of: "-", with: "\\-")), "\(command) \(option)") }
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else { return }
        let folder = TemporaryFolder()
        try folder.write(page, to: "soundpack.1")
        let groff = Process()
        groff.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        groff.arguments = ["-man", "-Tutf8", "-ww", "-z", folder.file("soundpack.1")]
        let errors = Pipe()
        groff.standardError = errors
        try groff.run()
        let warnings = String(decoding: Executable.readToEnd(errors.fileHandleForReading), as: UTF8.self)
        groff.waitUntilExit()
        #expect(groff.terminationStatus == 0 && warnings.isEmpty, "\(warnings)")
    }

    /// The USAGE line of every command names every one of its options.
    @Test func everyUsageLineListsEveryOption() {
        for command in SoundpackCommand.commands {
            for option in command.spec.options {
                #expect(option.names.contains { command.spec.synopsis.contains($0) }, "\(command.spec.name): \(option.names)")
            }
        }
    }
}

/// Errors say what, why and what to do, in soundpack's words, and never create what nobody asked for.
@Suite struct ErrorMessageTests {
    @Test func errorsSpeakPlainlyAndCreateNoFolders() throws {
        let folder = TemporaryFolder()
        let catalog = try Executable.run(["list", "--catalog", "typo/catalog.sqlite"], in: folder.path)
        #expect(catalog.status == 3 && catalog.stderr.contains("does not exist"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("typo")))
        let missing = try Executable.run(["list"], in: folder.path)
        #expect(missing.status == 3 && missing.stderr.contains("there is no catalog at"), "a read of no catalog says so: \(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file(".soundpack")))

        try folder.write(#"{"packs":[{}]}"#, to: "baseline.json")
        let baseline = try Executable.run(["validate", Fixtures.demoPack, "--no-record", "--baseline", "baseline.json"], in: folder.path)
        #expect(baseline.status == 1 && baseline.stderr.contains("'packs[0].directory' is missing"), "\(baseline.stderr)")

        let output = try Executable.run(["validate", Fixtures.demoPack, "--no-record", "--format", "json", "--output", "nowhere/x.json"], in: folder.path)
        #expect(output.status == 3 && output.stderr.contains("does not exist (create it first)"), "\(output.stderr)")
        #expect(!output.stderr.contains("NSCocoaErrorDomain"))

        let render = try Executable.run(["render", "--pack", Fixtures.demoPack, "5", "6", "-o", "typo/out"], in: folder.path)
        #expect(render.status == 3 && !FileManager.default.fileExists(atPath: folder.file("typo")), "\(render.stderr)")

        let say = try Executable.run(["say", "--pack", "packs/nonexist", "1"], in: folder.path)
        #expect(say.stderr.contains("check the folder name") && !say.stderr.contains("run soundpack validate"), "\(say.stderr)")
    }
}

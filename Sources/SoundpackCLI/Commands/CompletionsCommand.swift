// `soundpack completions bash|zsh|fish` and `soundpack man`: generated from the same command specs
// as `--help`, so a new command, option or choice value reaches them without another edit.

import Foundation
import SoundpackCore
import SoundpackKit

enum CompletionsCommand: Command {
    static let spec = CommandSpec(
        name: "completions",
        synopsis: "completions bash|zsh|fish",
        summary: "Print a shell completion script for every command and option.",
        discussion: """
            bash: source it, or save it as /etc/bash_completion.d/soundpack. zsh: save it as _soundpack in a
            folder on $fpath. fish: save it as ~/.config/fish/completions/soundpack.fish.
            """,
        options: Options.specs)

    struct Options: ParsableArguments {
        var shell: String?

        static let declarations: [Declaration<Self>] = [.argument(to: \.shell)]
    }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        guard let shell = arguments.shell else {
            throw .usage("completions needs a shell: bash, zsh or fish", hint: "soundpack completions bash > /etc/bash_completion.d/soundpack")
        }
        switch shell {
        case "bash": context.stdout.write(ShellCompletions.bash())
        case "zsh": context.stdout.write(ShellCompletions.zsh())
        case "fish": context.stdout.write(ShellCompletions.fish())
        default:
            throw .usage("'\(shell)' is not a shell soundpack completes", hint: Suggestions.nearest(shell, among: ["bash", "zsh", "fish"]).map { "did you mean '\($0)'?" } ?? "use bash, zsh or fish")
        }
        return .success
    }
}

enum ManCommand: Command {
    static let spec = CommandSpec(
        name: "man",
        synopsis: "man",
        summary: "Print the manual page (roff); read it with `soundpack man | man -l -`.",
        options: Options.specs)

    struct Options: ParsableArguments {
        static let declarations: [Declaration<Self>] = []
    }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        context.stdout.write(ManPage.roff())
        return .success
    }
}

// The soundpack command line: picks the command, runs it, prints errors, returns the exit code.

import Foundation
import SoundpackCore
import SoundpackKit

/// A subcommand: its spec (for parsing and `--help`, its options from `Options.specs`), its typed
/// options and its body.
protocol Command: SendableMetatype {
    associatedtype Options: ParsableArguments
    static var spec: CommandSpec { get }
    /// Whether the command reads or writes the catalog or the store (their settings are checked
    /// before it runs).
    static var usesCatalogOrStore: Bool { get }
    static func run(_ options: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode
}

extension Command {
    static var usesCatalogOrStore: Bool { false }
}

public enum SoundpackCommand {
    public static let version = "0.1.0"

    static let commands: [any Command.Type] = [
        InitCommand.self, ValidateCommand.self, SayCommand.self, RenderCommand.self, ConvertCommand.self, SynthCommand.self, PublishCommand.self,
        ReportCommand.self, ListCommand.self, ShowCommand.self, DiffCommand.self, YankCommand.self, VerifyCommand.self, ExportCommand.self,
        ImportCommand.self, PayloadCommand.self, KeygenCommand.self, CatalogCommand.self, CompletionsCommand.self, ManCommand.self,
    ]

    static var overview: String {
        var text = """
            soundpack \(version) — voice packs for iOS payment announcements

            USAGE: soundpack <command> [options]

            COMMANDS:

            """
        for command in commands {
            let name = command.spec.name
            text += "  \(name)\(String(repeating: " ", count: max(2, 12 - name.count)))\(command.spec.summary)\n"
        }
        text += """

            Run `soundpack <command> --help` for a command's options.
            Exit codes: 0 success, 1 check failed or request refused, 2 usage error, 3 environment or I/O failure.

            """
        return text
    }

    /// Runs the process's command line and exits with its code.
    public static func main() async {
        let context = CLIContext.process()
        let code = run(Array(CommandLine.arguments.dropFirst()), context)
        context.stdout.flush()
        context.stderr.flush()
        // A command that caught SIGINT/SIGTERM/SIGHUP has stopped and cleaned up: the process now
        // ends with that signal, as its parent (a shell, CI) expects of an interrupted program.
        // (Unblocked first: the mask soundpack was started with may block it on this thread.)
        if let caught = Interruption.caught {
            signal(caught, SIG_DFL)
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, caught)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            raise(caught)
            exit(128 + caught)
        }
        exit(code.rawValue)
    }

    /// Runs one command line against `context`. Output that could not be written (a full disk, a
    /// closed pipe) turns any result into exit 3 with an error on stderr.
    public static func run(_ arguments: [String], _ context: CLIContext) -> ExitCode {
        signal(SIGPIPE, SIG_IGN)
        let code = dispatch(arguments, context)
        context.stdout.flush()
        if let failure = context.stdout.failure {
            // The reader went away (`| head -1`): it asked for no more, so end quietly.
            if failure == EPIPE { return .success }
            context.stderr.write("\(Style.error(context.colours(context.stderr))) cannot write to standard output — \(String(cString: strerror(failure))) (nothing more was written)\n")
            return .environment
        }
        return code
    }

    private static func dispatch(_ arguments: [String], _ context: CLIContext) -> ExitCode {
        guard let first = arguments.first else {
            context.stderr.write(overview)
            return .usage
        }
        if first == "--help" || first == "-h" || first == "help" {
            guard arguments.count > 1 else {
                context.stdout.write(overview)
                return .success
            }
            guard let command = commands.first(where: { $0.spec.name == arguments[1] }) else {
                let hint = Suggestions.nearest(arguments[1], among: commands.map { $0.spec.name }).map { "did you mean 'soundpack help \($0)'?" }
                report(.usage("no command '\(arguments[1].visible)' to help with", hint: hint ?? "run soundpack --help for the list"), context)
                return .usage
            }
            context.stdout.write(command.spec.help)
            return .success
        }
        // The hidden worker synth starts to speak one clip with libespeak-ng in a process of its own.
        if first == EspeakWorker.subcommand {
            do { try EspeakWorker.serve(Array(arguments.dropFirst())) } catch {
                report(error, context)
                return error.code
            }
            return .success
        }
        if first == "--version" || first == "-V" {
            context.stdout.write("soundpack \(version)\n")
            return .success
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            let hint = Suggestions.nearest(first, among: commands.map { $0.spec.name }).map { "did you mean 'soundpack \($0)'?" }
            report(.usage("unknown command '\(first)'", hint: hint ?? "run soundpack --help for the list"), context)
            return .usage
        }
        var context = context
        do {
            let parsed = try command.spec.parse(Array(arguments.dropFirst()))
            context.global = try GlobalOptions.decode(parsed, command: nil)
            context.colour = context.global.colour
            // Settings checked before a command that uses them touches the disk: an empty
            // SOUNDPACK_STORE must not let a catalog be created first. Commands that use neither
            // (say, render, convert…) are not refused for them.
            if command.usesCatalogOrStore {
                _ = try context.setting(\.store, "--store", "SOUNDPACK_STORE")
                _ = try context.setting(\.catalog, "--catalog", "SOUNDPACK_CATALOG")
            }
            if context.global.help {
                context.stdout.write(command.spec.help)
                return .success
            }
            return try decodeAndRun(command, parsed, context)
        } catch {
            report(error, context)
            return error.code
        }
    }

    /// The command's options decoded from `parsed`, and its run.
    private static func decodeAndRun<Subcommand: Command>(_ command: Subcommand.Type, _ parsed: ParsedArguments, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        try command.run(Subcommand.Options.decode(parsed, command: command.spec.name), context)
    }

    static func report(_ error: SoundpackError, _ context: CLIContext) {
        context.stdout.flush()
        context.stderr.write("\(Style.error(context.colours(context.stderr))) \(abbreviated(error.description.terminalSafe))\n")
    }

    /// An error stays readable when it quotes a hostile argument: a word longer than 200
    /// characters (a path 30,000 levels deep) keeps its start and end around the count left out.
    static func abbreviated(_ text: String) -> String {
        guard text.count > 200 else { return text }
        return text.split(separator: " ", omittingEmptySubsequences: false).map { word in
            guard word.count > 200 else { return String(word) }
            return "\(word.prefix(80))…(\(word.count - 120) characters)…\(word.suffix(40))"
        }.joined(separator: " ")
    }
}

/// ANSI styling, applied only when asked (a terminal without NO_COLOR).
enum Style {
    static func error(_ colour: Bool) -> String { paint("error:", "1;31", colour) }
    static func warning(_ colour: Bool) -> String { paint("warning:", "1;33", colour) }
    static func ok(_ text: String, _ colour: Bool) -> String { paint(text, "1;32", colour) }
    static func bold(_ text: String, _ colour: Bool) -> String { paint(text, "1", colour) }
    static func paint(_ text: String, _ code: String, _ colour: Bool) -> String { FindingRenderer.paint(text, code, colour) }
}

extension CLIContext {
    /// With SOUNDPACK_TIMINGS=1 in the environment, starts measuring phases and returns what prints
    /// them on stderr, `first` at the top (called when the command ends, after its output); nil
    /// otherwise.
    func startTimings(first: String) -> (() -> Void)? {
        guard environment["SOUNDPACK_TIMINGS"] == "1" else { return nil }
        PhaseTimes.start()
        return {
            // stdout is written out when the command returns: what it printed goes first.
            stdout.flush()
            stderr.write("timings (SOUNDPACK_TIMINGS=1; phases nest, and work done at once on several cores or connections adds up beyond the wall time):\n"
                         + PhaseTimes.table(PhaseTimes.stop().sorted { $0.name == first && $1.name != $0.name }))
        }
    }

    /// The catalog, store and working folder of a command line: `--catalog`, else
    /// `SOUNDPACK_CATALOG`; `--store`, else `SOUNDPACK_STORE`; the defaults under the project root.
    func workspace() throws(SoundpackError) -> Workspace {
        Workspace(catalog: try setting(\.catalog, "--catalog", "SOUNDPACK_CATALOG"), store: try setting(\.store, "--store", "SOUNDPACK_STORE"),
                  s3Endpoint: global.s3Endpoint, workingDirectory: workingDirectory, environment: environment)
    }

    /// The global option at `path` (named `option`), else the environment variable `variable`. An empty one is refused:
    /// `SOUNDPACK_STORE=` (a CI secret that is not set) would otherwise name the working folder.
    func setting(_ path: KeyPath<GlobalOptions, String?>, _ option: String, _ variable: String) throws(SoundpackError) -> String? {
        if let given = global[keyPath: path] {
            guard !given.isEmpty else { throw .usage("\(option) is empty", hint: "name a \(option.dropFirst(2)), or leave the option out") }
            return given
        }
        if let given = environment[variable] {
            guard !given.isEmpty else { throw .usage("\(variable) is set but empty", hint: "unset it (the default is used), or set it to the \(option.dropFirst(2)) to use") }
            return given
        }
        return nil
    }

    /// The store the command line names (`dist/` under the project root by default). `existing`:
    /// for a command that reads it, a store that does not exist is an error (exit 3).
    func store(existing: Bool = false) throws(SoundpackError) -> Store {
        let workspace = try workspace()
        let store: Store
        do { store = try workspace.openStore() } catch { throw error.context("cannot use the store") }
        if existing {
            do { try workspace.requireStore(store) } catch where error.input == "store" {
                throw error.with(hint: "soundpack publish writes one; --store or SOUNDPACK_STORE names another")
            }
        }
        return store
    }

    /// The catalog the command works on (see `Workspace.openCatalog`).
    func openCatalog(readOnly: Bool = false, emptyWhenMissing: Bool = false) throws(SoundpackError) -> any Catalog {
        let workspace = try workspace()
        // A read of a catalog that does not exist says so in its own words (exit 3), unwrapped.
        if readOnly && !emptyWhenMissing {
            do { try workspace.requireCatalog() } catch where error.input?.hasPrefix("catalog") == true {
                let name = error.input == "catalog database" ? "check the database name in --catalog or SOUNDPACK_CATALOG" : "--catalog or SOUNDPACK_CATALOG names another"
                throw error.with(hint: "soundpack validate or publish writes one, catalog rebuild --from-store makes one from a store; \(name)")
            }
        }
        do { return try workspace.openCatalog(emptyWhenMissing: emptyWhenMissing) } catch {
            throw error.context("cannot use the catalog", hint: "--catalog or SOUNDPACK_CATALOG names it")
        }
    }

    /// A pack folder named on the command line: read from its absolute path, shown as written.
    func packFolder(_ argument: String) -> PackFolder {
        PackFolder(path: absolute(argument), shown: argument)
    }

    /// JSON text for machine-readable output: sorted keys, pretty, stable.
    /// A value that is not JSON (a NaN figure) is exit 3, never an empty document.
    func json<T: Encodable>(_ value: T) throws(SoundpackError) -> String {
        do { return String(decoding: try StoreJSON.encode(value), as: UTF8.self) } catch {
            throw error.context("cannot write the JSON output")
        }
    }
}

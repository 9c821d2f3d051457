// A team's own text-to-speech program, run once per clip: `synth --engine-command 'CMD {text} {out}'`.
// The template is split into words here (quotes group, nothing else is special) and the program is
// started directly, never through a shell: a clip's text is one argument whatever it holds.

import Foundation

/// A text-to-speech command line with `{text}`, `{out}` and optionally `{voice}` in its words.
public struct EngineCommand: Sendable, Equatable {
    public let words: [String]
    /// The longest one run may take before it is stopped.
    public var timeoutSeconds: Double

    public static let textPlaceholder = "{text}"
    public static let outPlaceholder = "{out}"
    public static let voicePlaceholder = "{voice}"

    /// Splits `template` into words: whitespace separates them; '…' and "…" group (no escapes
    /// inside '…'; \" and \\ inside "…"). Needs `{text}` and `{out}`.
    public init(_ template: String, timeoutSeconds: Double = 60) throws(SoundpackError) {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var iterator = template.makeIterator()
        while let character = iterator.next() {
            if let open = quote {
                if character == open { quote = nil; continue }
                if open == "\"", character == "\\", let next = iterator.next() {
                    if next != "\"" && next != "\\" { current.append("\\") }
                    current.append(next)
                    continue
                }
                current.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character.isWhitespace {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        guard quote == nil else { throw .usage("--engine-command has an unclosed quote", hint: "close it: 'my-tts --text {text} --out {out}'") }
        if inWord { words.append(current) }
        guard let program = words.first, !program.isEmpty else { throw .usage("--engine-command is empty", hint: "e.g. 'espeak-ng -v en-us -w {out} {text}'") }
        guard !program.contains(Self.textPlaceholder), !program.contains(Self.outPlaceholder) else {
            throw .usage("--engine-command must start with the program, not a placeholder")
        }
        for placeholder in [Self.textPlaceholder, Self.outPlaceholder] where !words.contains(where: { $0.contains(placeholder) }) {
            throw .usage("--engine-command needs \(placeholder) in its words", hint: "the text to speak is passed as {text}, the file to write as {out}")
        }
        guard words.allSatisfy({ !$0.contains("\0") }) else { throw .usage("--engine-command holds a NUL byte") }
        self.words = words
        self.timeoutSeconds = timeoutSeconds
    }

    /// The program's name, as pack.json `source.engine` records it.
    public var programName: String { (words[0] as NSString).lastPathComponent }

    /// The words with the placeholders filled.
    func arguments(text: String, out: String, voice: String?) -> [String] {
        words.map {
            $0.replacingOccurrences(of: Self.textPlaceholder, with: text)
                .replacingOccurrences(of: Self.outPlaceholder, with: out)
                .replacingOccurrences(of: Self.voicePlaceholder, with: voice ?? "")
        }
    }

    /// Runs the command for `text`, to write `out`. Refused when it cannot start, fails, takes
    /// longer than the timeout or writes no file; what it printed last on stderr is quoted. It runs
    /// in a process group of its own, killed whole at the timeout and after it ends, so nothing it
    /// started outlives it.
    func run(text: String, out: String, voice: String?, in folder: String) throws(SoundpackError) {
        let arguments = arguments(text: text, out: out, voice: voice)
        let program = arguments[0]
        let errorLog = folder + "/.engine-stderr"
        defer { unlink(errorLog) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let started = posix_spawnp(&child, program, &actions, &attributes, argv, environ)
        guard started == 0 else {
            throw .refused("cannot start the engine command '\(program.quoted(limit: 80))'", String(cString: strerror(started)),
                           hint: "give the program's path, or put it on PATH")
        }
        var status: Int32 = 0
        let deadline = DispatchTime.now() + timeoutSeconds
        var timedOut = false
        // Polled without reaping (WNOWAIT): until it is reaped its pid, and so its group id, cannot
        // be reused, so the group killed below is its own.
        while true {
            var info = siginfo_t()
            let polled = waitid(P_PID, id_t(child), &info, WEXITED | WNOHANG | WNOWAIT)
            if polled < 0 && errno == EINTR { continue }
            if polled < 0 || info._sifields._sigchld.si_pid == child { break }
            if DispatchTime.now() >= deadline { timedOut = true; break }
            usleep(2_000)
        }
        kill(-child, SIGKILL)  // at the timeout, the engine; after it ended, whatever it left running
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        if timedOut {
            throw .refused("the engine command took longer than \(Int(timeoutSeconds)) s for '\(text.quoted(limit: 60))' and was stopped")
        }
        // The last line it printed on stderr: where programs put their reason.
        let printed = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
        let said = printed.split(whereSeparator: \.isNewline).last.map { String($0.prefix(300)).trimmingCharacters(in: .whitespaces) } ?? ""
        let signal = status & 0x7F, code = (status >> 8) & 0xFF
        guard signal == 0, code == 0 else {
            let how = signal == 0 ? "exited with status \(code)" : "was killed by signal \(signal)"
            throw .refused("the engine command \(how) for '\(text.quoted(limit: 60))'", said.isEmpty ? nil : "it said: \(said)")
        }
        var file = stat()
        guard lstat(out, &file) == 0, file.st_mode & S_IFMT == S_IFREG, file.st_size > 0 else {
            throw .refused("the engine command wrote no audio file at {out} for '\(text.quoted(limit: 60))'",
                           said.isEmpty ? nil : "it said: \(said)", hint: "it must write the file named by {out}")
        }
    }
}

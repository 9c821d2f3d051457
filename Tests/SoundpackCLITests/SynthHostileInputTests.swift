// `soundpack synth` against hostile input: an engine that crashes, blocks signals, talks without
// end or is interrupted; phrase ids that collide with clip files; texts that hold placeholders; and
// options that used to be refused only after every clip was spoken.

import Foundation
import Testing
import SoundpackTestSupport

@Suite struct SynthHostileInputTests {
    /// A folder to be TMPDIR, so a test sees the working folder synth leaves (or not).
    static func temporary(in folder: TemporaryFolder) throws -> String {
        let path = folder.file("tmp")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func entries(_ path: String) -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] }

    /// An engine script: `body` runs first (it may exit); then it logs its call and writes a demo clip to {out}.
    static func engine(in folder: TemporaryFolder, name: String = "my-tts", _ body: String = "") throws -> String {
        let path = folder.file(name)
        let script = """
            #!/bin/sh
            out=$1; shift
            \(body)
            printf '%s\\n' "$@" >> "\(folder.file("calls.log"))"
            \(Fixtures.distinctDemoClip(to: "$out", slots: folder.file("slots")))
            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    // MARK: libespeak-ng crashes in a worker process, not in soundpack

    /// A voice name past espeak-ng's 40-byte variant buffer aborts libespeak-ng ("buffer overflow
    /// detected"): the clip's worker ends, soundpack says which clip, exits 1 and leaves nothing.
    @Test func anEspeakCrashIsAnErrorNamingTheClip() throws {
        let folder = TemporaryFolder()
        let temporary = try Self.temporary(in: folder)
        let voice = "en-us+" + String(repeating: "a", count: 40)
        let run = try Executable.spawn(["synth", "pack", "--id", "pack", "--grammar", "en-US", "--max-amount", "9", "--voice", voice],
                                       in: folder.path, environment: ["TMPDIR": temporary], timeout: 120)
        #expect(run.signal == nil && run.status == 1, "status \(run.status), signal \(String(describing: run.signal)): \(run.stderr)")
        #expect(run.stderr.contains("cannot speak clip 'prefix' ('Payment received')"), "\(run.stderr)")
        #expect(run.stderr.contains("libespeak-ng crashed (SIGABRT)"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("pack")))
        #expect(Self.entries(temporary).isEmpty, "\(Self.entries(temporary))")
    }

    /// Texts on which espeak-ng's Hindi voice reads uninitialised memory (valgrind shows it; the
    /// espeak-ng program segfaults on them now and then): however the engine fares, soundpack ends
    /// by itself, with a pack or with an error naming the clip, and removes its working folder.
    @Test(arguments: ["👍👍 ok", "$$ ok", "$₹ ok"])
    func hindiTextsThatCrashEspeakEndCleanly(text: String) throws {
        let folder = TemporaryFolder()
        let temporary = try Self.temporary(in: folder)
        let run = try Executable.spawn(["synth", "pack", "--id", "pack", "--grammar", "hi-IN", "--max-amount", "9", "--phrase-text", "prefix=\(text)"],
                                       in: folder.path, environment: ["TMPDIR": temporary], timeout: 300)
        #expect(run.signal == nil, "\(run.stderr)")
        #expect(run.status == 0 || (run.status == 1 && run.stderr.contains("cannot speak clip 'prefix' ('\(text)')")), "\(run.stderr)")
        #expect(Self.entries(temporary).isEmpty, "\(Self.entries(temporary))")
    }

    // MARK: engines start with no signal blocked or ignored

    #if os(Linux)
    /// soundpack ignores SIGPIPE and its threads block signals; an engine must start with neither
    /// (signals 32 and 33 are glibc's own, kept ignored by every posix_spawn).
    @Test func anEngineStartsWithNoSignalBlockedOrIgnored() throws {
        let folder = TemporaryFolder()
        let script = try Self.engine(in: folder, """
            while read -r key value; do
              case $key in SigBlk:|SigIgn:) [ $(( 0x$value & 0x7fffffff )) -eq 0 ] || { echo "$key $value" >&2; exit 5; } ;; esac
            done < /proc/$$/status
            """)
        let run = try Executable.run(["synth", "pack", "--id", "pack", "--max-amount", "9", "--engine-command", "\(script) {out} {text}"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
    }
    #endif

    // MARK: an interrupted synth stops its engine and cleans up

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalStopsTheEngineAndRemovesTheWorkingFolder(signal: Int32) throws {
        let folder = TemporaryFolder()
        let temporary = try Self.temporary(in: folder)
        let marker = folder.file("engine.pid")
        let script = try Self.engine(in: folder, "echo $$ > \"\(marker)\"\nexec sleep 60")
        let run = try Executable.spawn(["synth", "pack", "--id", "pack", "--max-amount", "9", "--engine-command", "\(script) {out} {text}"],
                                       in: folder.path, environment: ["TMPDIR": temporary], timeout: 50) { soundpack in
            // Once the engine runs (and has written its pid), interrupt soundpack.
            for _ in 0..<3000 where !FileManager.default.fileExists(atPath: marker) { usleep(10_000) }
            usleep(100_000)
            kill(soundpack, signal)
        }
        let engine = try #require(Int32(try String(contentsOfFile: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(-engine, SIGKILL) }
        #expect(!run.timedOut)
        #expect(run.signal == signal, "status \(run.status), signal \(String(describing: run.signal)): \(run.stderr)")
        #expect(kill(engine, 0) != 0 && errno == ESRCH, "the engine still runs")
        #expect(Self.entries(temporary).isEmpty, "\(Self.entries(temporary))")
        #expect(!FileManager.default.fileExists(atPath: folder.file("pack")))
    }

    // MARK: what an engine prints costs bounded memory

    /// 400 MB on stderr, then the reason: soundpack keeps the end of it, within 192 MiB of data.
    @Test func anEngineThatTalksWithoutEndCostsBoundedMemory() throws {
        let folder = TemporaryFolder()
        let script = try Self.engine(in: folder, """
            yes 'engine noise engine noise' | head -n 16000000 >&2
            echo 'voice licence expired' >&2
            exit 4
            """)
        let run = try #require(try Tool.run("/bin/sh", ["-c", "ulimit -d 196608 && exec \"$@\"", "sh", Executable.path,
                                                        "synth", "pack", "--id", "pack", "--max-amount", "9", "--engine-command", "\(script) {out} {text}"],
                                            in: folder.path))
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("exited with status 4") && run.stderr.contains("it said: voice licence expired"), "\(run.stderr)")
    }

    // MARK: two clips never share a file

    /// A phrase id equal to a token's file stem (点 is clips/dian) gets a file of its own: both
    /// clips keep their own recording.
    @Test(arguments: [("dian", "点", [String]()), ("fen", "分", ["--money", "jiao-fen"]), ("kuai", "块", ["--money", "kuai-mao"])])
    func aPhraseNamedLikeATokensFileKeepsItsOwnRecording(phrase: String, token: String, options: [String]) throws {
        let folder = TemporaryFolder()
        let made = try Executable.run(["synth", "pack", "--id", "pack", "--max-amount", "9.99", "--phrase-text", "\(phrase)=本店收款{amount}"] + options,
                                      in: folder.path)
        #expect(made.status == 0, "\(made.stderr)")
        let manifest = try SynthEndToEndTests.json(try String(contentsOfFile: folder.file("pack/pack.json"), encoding: .utf8))
        let clips = try #require(manifest["clips"] as? [String: String])
        let (mine, its) = (try #require(clips[phrase]), try #require(clips[token]))
        #expect(mine != its)
        let bytes = { (path: String) in FileManager.default.contents(atPath: folder.file("pack/" + path)) }
        #expect(bytes(mine) != bytes(its), "\(phrase) and \(token) hold the same recording")
    }

    /// Two texts for one clip are refused before anything is spoken: `pay`'s words after {amount}
    /// are clip `pay-after`, which the phrase `pay-after` also is; and an id given twice.
    @Test(arguments: [
        ["--phrase-text", "pay=收款{amount}元整", "--phrase-text", "pay-after=谢谢惠顾"],
        ["--phrase-text", "prefix=微信到账", "--phrase-text", "prefix=支付宝到账"],
        ["--phrase-text", "suffix=元", "--phrase-text", "suffix=整"],
    ])
    func twoTextsForOneClipAreRefused(options: [String]) throws {
        let folder = TemporaryFolder()
        let script = try Self.engine(in: folder)
        let run = try Executable.run(["synth", "pack", "--id", "pack", "--max-amount", "9", "--engine-command", "\(script) {out} {text}"] + options,
                                     in: folder.path)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("calls.log")), "the engine ran")
        #expect(!FileManager.default.fileExists(atPath: folder.file("pack")))
    }

    // MARK: placeholders are filled in the words, never in the text

    @Test func aTextHoldingPlaceholdersIsSpokenAsWritten() throws {
        let folder = TemporaryFolder()
        let script = try Self.engine(in: folder)
        let text = "付款{out}{voice}{text}"
        let run = try Executable.run(["synth", "pack", "--id", "pack", "--max-amount", "9", "--voice", "anna",
                                      "--engine-command", "\(script) {out} {text}", "--phrase-text", "prefix=\(text)"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        let calls = try String(contentsOfFile: folder.file("calls.log"), encoding: .utf8)
        #expect(calls.split(separator: "\n").contains(Substring(text)), "\(calls)")
    }

    // MARK: every option is checked before the engine speaks

    /// Each is a usage error (exit 2) with the engine never started.
    @Test(arguments: ["rate", "voice", "long-program", "temporary-folder"])
    func aBadOptionIsRefusedBeforeSpeaking(_ bad: String) throws {
        let folder = TemporaryFolder()
        let temporary = try Self.temporary(in: folder)
        var arguments = ["synth", "pack", "--id", "pack", "--max-amount", "9"]
        var environment = ["TMPDIR": temporary]
        var program = try Self.engine(in: folder)
        var says = ""
        switch bad {
        case "rate": arguments += ["--rate", "0"]; says = "--rate"
        case "voice": arguments += ["--voice", ""]; says = "--voice"
        case "long-program": program = try Self.engine(in: folder, name: String(repeating: "t", count: 210)); says = "--engine-command"
        default:
            // DIR holds TMPDIR, where the clips are spoken.
            let inside = folder.file("pack/tmp")
            try FileManager.default.createDirectory(atPath: inside, withIntermediateDirectories: true)
            environment["TMPDIR"] = inside
            arguments.append("--force")
            says = "temporary folder"
        }
        let run = try Executable.spawn(arguments + ["--engine-command", "\(program) {out} {text}"], in: folder.path, environment: environment, timeout: 120)
        #expect(run.status == 2, "\(bad): \(run.stderr)")
        #expect(run.stderr.contains(says) && !run.stderr.contains("source.voice"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("calls.log")), "\(bad): the engine ran")
    }
}

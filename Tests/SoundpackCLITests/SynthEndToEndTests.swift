// `soundpack synth` and `convert --codec ima4` through the tool: a spoken pack validates at once in
// every grammar, says where it came from, and an engine command gets each text as one argument
// and is held to its timeout and its output; an IMA4 copy of the demo pack is about a quarter of
// its bytes, measures like it and renders PCM.

import Foundation
import Testing
import SoundpackCore
import SoundpackTestSupport

@Suite struct SynthEndToEndTests {
    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test(arguments: ["zh-Hans", "en-US", "hi-IN"])
    func aSpokenPackValidatesAtOnce(grammar: String) throws {
        let folder = TemporaryFolder()
        let made = try Executable.run(["synth", "drafts/demo", "--id", "demo", "--grammar", grammar], in: folder.path)
        #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
        let voice = ["zh-Hans": "cmn", "en-US": "en-us", "hi-IN": "hi"][grammar]!
        #expect(made.stdout.contains("spoken by espeak-ng (voice \(voice))"), "\(made.stdout)")
        let validated = try Executable.run(["validate", "drafts/demo", "--no-record"], in: folder.path)
        #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")
        #expect(validated.stdout.contains("spoken by espeak-ng (voice \(voice))"), "\(validated.stdout)")
        let report = try Self.json(try Executable.run(["validate", "drafts/demo", "--no-record", "--format", "json"], in: folder.path).stdout)
        let pack = try #require((report["packs"] as? [[String: Any]])?.first)
        #expect(pack["source"] as? [String: String] == ["engine": "espeak-ng", "voice": voice])
        let manifest = try Self.json(try String(contentsOfFile: folder.file("drafts/demo/pack.json"), encoding: .utf8))
        // Every clip the grammar needs, spoken: as many as init lists for the same grammar.
        _ = try Executable.run(["init", "listed", "--id", "listed", "--grammar", grammar], in: folder.path)
        let listed = try Self.json(try String(contentsOfFile: folder.file("listed/pack.json"), encoding: .utf8))
        #expect(Set((manifest["clips"] as? [String: String] ?? [:]).keys) == Set((listed["clips"] as? [String: String] ?? [:]).keys))
        let reported = try Executable.run(["report", "drafts/demo", "-o", "report.html"], in: folder.path)
        #expect(reported.status == 0, "\(reported.stderr)")
        #expect(try String(contentsOfFile: folder.file("report.html"), encoding: .utf8).contains("Spoken by espeak-ng (voice \(voice))"))
        let said = try Executable.run(["say", "--pack", "drafts/demo", "21"], in: folder.path)
        #expect(said.status == 0 && !said.stdout.isEmpty)
    }

    @Test func phrasesAndIMA4() throws {
        let folder = TemporaryFolder()
        let made = try Executable.run(["synth", "merchant", "--id", "merchant", "--codec", "ima4", "--max-amount", "9999.99",
                                       "--phrase-text", "wechat=微信到账{amount}", "--phrase-text", "refund=退款{amount}元整",
                                       "--phrase-text", "order=您有一笔新订单"], in: folder.path)
        #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
        let manifest = try Self.json(try String(contentsOfFile: folder.file("merchant/pack.json"), encoding: .utf8))
        #expect(manifest["defaultPhrase"] as? String == "wechat")
        #expect((manifest["phrases"] as? [String: [String]])?["refund"] == ["refund", "{amount}", "refund-after"])
        #expect((manifest["phrases"] as? [String: [String]])?["order"] == ["order"])
        #expect(try Executable.run(["say", "--pack", "merchant", "--phrase", "refund", "15.40"], in: folder.path).stdout == "退款十五点四元元整\n")
        let validated = try Executable.run(["validate", "merchant", "--no-record"], in: folder.path)
        #expect(validated.status == 0 && validated.stdout.contains("ima4 caf"), "\(validated.stdout)")
        // Usage mistakes are refused before anything is spoken.
        for bad in [["--phrase-text", "Wechat=x{amount}"], ["--phrase-text", "a=x{amount}{amount}"], ["--phrase-text", "prefix=x", "--phrase-text", "a=y"],
                    ["--phrase-text", "novalue"], ["--engine-command", "tts {text}"], ["--engine-timeout", "5"]] {
            let run = try Executable.run(["synth", "bad", "--id", "bad"] + bad, in: folder.path)
            #expect(run.status == 2, "\(bad): \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("bad")))
        // An existing folder is kept unless --force.
        let again = try Executable.run(["synth", "merchant", "--id", "merchant"], in: folder.path)
        #expect(again.status == 1 && again.stderr.contains("--force"), "\(again.stderr)")
    }

    /// A script standing in for a team's TTS: logs its arguments one per line and writes a demo clip to {out}.
    static func engineScript(in folder: TemporaryFolder, body: String? = nil) throws -> String {
        let path = folder.file("my-tts")
        let script = body ?? """
            #!/bin/sh
            out=$1; shift
            printf '%s\\n' "$#" "$@" >> "\(folder.file("calls.log"))"
            \(Fixtures.distinctDemoClip(to: "$out", slots: folder.file("slots")))
            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    @Test func anEngineCommandGetsEachTextAsOneArgument() throws {
        let folder = TemporaryFolder()
        let script = try Self.engineScript(in: folder)
        let hostile = "付款 $(touch pwned) `id` ; \"quoted\" 'single'"
        let made = try Executable.run(["synth", "pack", "--id", "pack", "--max-amount", "9", "--voice", "anna",
                                       "--engine-command", "\(script) {out} --voice={voice} {text}", "--phrase-text", "prefix=\(hostile)"], in: folder.path)
        #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
        let calls = try String(contentsOfFile: folder.file("calls.log"), encoding: .utf8)
        // Three arguments after {out} was taken: --voice=anna and the text, whole.
        #expect(calls.contains("2\n--voice=anna\n\(hostile)\n"), "\(calls)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("pwned")))
        let manifest = try Self.json(try String(contentsOfFile: folder.file("pack/pack.json"), encoding: .utf8))
        #expect(manifest["source"] as? [String: String] == ["engine": "my-tts", "voice": "anna"])
        #expect(try Executable.run(["validate", "pack", "--no-record"], in: folder.path).status == 0)
    }

    @Test(arguments: [
        ("#!/bin/sh\necho 'voice not licensed' >&2\nexit 4\n", "exited with status 4"),
        ("#!/bin/sh\nexit 0\n", "wrote no audio file"),
        ("#!/bin/sh\necho garbage > \"$1\"\n", "no audio soundpack can read"),
        ("#!/bin/sh\nsleep 30\n", "longer than 1 s"),
    ])
    func aFailingEngineLeavesNothing(script body: String, says: String) throws {
        let folder = TemporaryFolder()
        let script = try Self.engineScript(in: folder, body: body)
        let run = try Executable.run(["synth", "pack", "--id", "pack", "--engine-command", "\(script) {out} {text}", "--engine-timeout", "1"], in: folder.path)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains(says), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("pack")))
        if says.hasPrefix("exited") { #expect(run.stderr.contains("voice not licensed")) }
    }

    /// convert --codec ima4 of the demo pack: about a quarter of the bytes, a pack that validates with
    /// its loudness and peaks close to the PCM original, and renders 16-bit PCM.
    @Test func anIMA4CopyOfTheDemoPack() throws {
        let folder = TemporaryFolder()
        let converted = try Executable.run(["convert", Fixtures.demoPack, "ima4", "--codec", "ima4"], in: folder.path)
        #expect(converted.status == 0, "\(converted.stdout)\(converted.stderr)")
        func clips(_ pack: String) throws -> [String: [String: Any]] {
            let report = try Self.json(try Executable.run(["validate", pack, "--no-record", "--format", "json"], in: folder.path).stdout)
            let clips = (report["packs"] as? [[String: Any]])?.first?["clips"] as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: clips.map { ($0["token"] as! String, $0["facts"] as! [String: Any]) })
        }
        let (pcm, ima4) = (try clips(Fixtures.demoPack), try clips("ima4"))
        #expect(pcm.count == ima4.count && !pcm.isEmpty)
        var pcmBytes = 0, ima4Bytes = 0
        for (token, original) in pcm {
            let coded = try #require(ima4[token])
            #expect(coded["codec"] as? String == "ima4")
            pcmBytes += original["bytes"] as! Int
            ima4Bytes += coded["bytes"] as! Int
            #expect(abs((original["momentaryMaxLufs"] as! Double) - (coded["momentaryMaxLufs"] as! Double)) <= 0.2, "\(token) loudness")
            #expect(abs((original["peakDbfs"] as! Double) - (coded["peakDbfs"] as! Double)) <= 1, "\(token) peak")
            #expect(abs((original["truePeakDbtp"] as! Double) - (coded["truePeakDbtp"] as! Double)) <= 1, "\(token) true peak")
            #expect(original["frames"] as? Int == coded["frames"] as? Int)
        }
        #expect(Double(ima4Bytes) / Double(pcmBytes) < 0.3, "\(ima4Bytes) of \(pcmBytes) bytes")
        let rendered = try Executable.run(["render", "--pack", "ima4", "15.40", "-o", "out.caf"], in: folder.path)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let probe = try Executable.run(["validate", "ima4", "--no-record"], in: folder.path)
        #expect(probe.status == 0)
        let header = Array(try Data(contentsOf: URL(fileURLWithPath: folder.file("out.caf"))).prefix(40))
        #expect(Array(header[28..<32]) == Array("lpcm".utf8), "render writes 16-bit PCM")
    }
}

/// A synthesised pack's source in the catalog: recorded by validate, kept by publish and by a
/// rebuild from the store (its manifest.json carries it), shown by show, on SQLite and PostgreSQL.
@Suite struct SynthSourceInTheCatalogTests {
    @Test(arguments: CatalogBackend.available)
    func showSaysWhoSpokeThePack(backend: CatalogBackend) throws {
        let folder = TemporaryFolder()
        let catalog = try backend.freshLocation(in: folder)
        @discardableResult func run(_ arguments: [String]) throws -> ExecutionResult {
            let result = try Executable.run(arguments + ["--catalog", catalog], in: folder.path)
            #expect(result.status == 0, "\(arguments) → \(result.stdout)\(result.stderr)")
            return result
        }
        try run(["synth", "packs/demo", "--id", "demo", "--grammar", "en-US", "--max-amount", "99.99"])
        try run(["validate", "packs/demo"])
        #expect(try run(["show", "demo"]).stdout.contains("spoken by   espeak-ng (voice en-us)"))
        try run(["publish", "packs/demo"])
        let manifest = try SynthEndToEndTests.json(try String(contentsOfFile: folder.file("dist/demo/0.1.0/manifest.json"), encoding: .utf8))
        #expect(manifest["source"] as? [String: String] == ["engine": "espeak-ng", "voice": "en-us"])
        let shown = try SynthEndToEndTests.json(try run(["show", "demo@0.1.0", "--format", "json"]).stdout)
        #expect(shown["source"] as? [String: String] == ["engine": "espeak-ng", "voice": "en-us"])
        // A catalog rebuilt from the store alone knows it too.
        let rebuilt = try backend.freshLocation(in: folder)
        let recovered = try Executable.run(["catalog", "rebuild", "--from-store", "--catalog", rebuilt], in: folder.path)
        #expect(recovered.status == 0, "\(recovered.stderr)")
        #expect(try Executable.run(["show", "demo", "--catalog", rebuilt], in: folder.path).stdout.contains("spoken by   espeak-ng (voice en-us)"))
    }
}

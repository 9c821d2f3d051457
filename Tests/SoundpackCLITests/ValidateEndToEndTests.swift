// `soundpack validate` run as a user runs it: a good pack, each rule on a pack made to break it,
// several packs at once, JSON output, and the catalog it records into.

import Foundation
import Testing
import SoundpackCore
import SoundpackKit
import SoundpackTestSupport

/// A way to break a copy of the demo pack, and the finding it must produce.
enum Breakage: String, CaseIterable, Sendable {
    case brokenJSON, missingField, parentPath, absolutePath, symlinkedClip, missingToken, unknownToken, orphanFile
    case textRenamedCAF, missingFile, unsafeName, unsupportedFormat, mismatchedRate, silentClip, longClip
    case leadingSilence, trailingSilence, composeWarning, composeError, bannerCut, downloadSize, clipped, dcOffset, quieterClip, nonFiniteSamples

    /// (rule, severity, exit status without --strict, text the message or location must contain)
    var expectation: (rule: String, severity: String, status: Int32, mentions: String) {
        switch self {
        case .brokenJSON: return ("manifest.invalid", "error", 1, "pack.json")
        case .missingField: return ("manifest.invalid", "error", 1, "maxAmount")
        case .parentPath: return ("manifest.unsafe-path", "error", 1, "../../etc/passwd")
        case .absolutePath: return ("manifest.unsafe-path", "error", 1, "/etc/hosts")
        case .symlinkedClip: return ("manifest.unsafe-path", "error", 1, "clips/shi.caf")
        case .missingToken: return ("coverage.missing-token", "error", 1, "'百'")
        case .unknownToken: return ("coverage.unknown-token", "warning", 0, "'11'")
        case .orphanFile: return ("coverage.orphan-file", "warning", 0, "clips/extra.wav")
        case .textRenamedCAF: return ("file.unreadable", "error", 1, "clips/5.caf")
        case .missingFile: return ("file.unreadable", "error", 1, "clips/nowhere.caf")
        case .unsafeName: return ("file.unsafe-name", "warning", 0, "clips/十.caf")
        case .unsupportedFormat: return ("format.unsupported", "error", 1, "clips/7.flac")
        case .mismatchedRate: return ("format.mismatch", "error", 1, "clips/8.caf")
        case .silentClip: return ("audio.empty", "error", 1, "clips/9.caf")
        case .longClip: return ("audio.too-long", "error", 1, "clips/2.caf")
        case .leadingSilence: return ("audio.leading-silence", "warning", 0, "clips/3.caf")
        case .trailingSilence: return ("audio.trailing-silence", "warning", 0, "clips/4.caf")
        case .composeWarning: return ("compose.too-long", "warning", 0, "the longest announcement, for amount")
        case .composeError: return ("compose.too-long", "error", 1, "amount")
        case .bannerCut: return ("compose.banner-cut", "warning", 0, "lasts 9.559 s, above 9.000 s")
        case .downloadSize: return ("compose.download-size", "warning", 0, "above 204,800 bytes (200 KiB) (checks.maxAnnouncementBytes)")
        case .clipped: return ("audio.clipping", "warning", 0, "clips/6.caf")
        case .dcOffset: return ("audio.dc-offset", "warning", 0, "clips/7.caf")
        case .quieterClip: return ("audio.loudness-outlier", "warning", 0, "LU quieter than the pack median")
        case .nonFiniteSamples: return ("audio.non-finite", "error", 1, "clips/5.wav")
        }
    }

    func apply(to pack: String) throws {
        let clips = pack + "/clips/"
        func setClip(_ key: String, _ path: String) throws {
            try Fixtures.editManifest(pack) { object in
                var clips = object["clips"] as? [String: Any] ?? [:]
                clips[key] = path
                object["clips"] = clips
            }
        }
        func setCheck(_ key: String, _ value: Double) throws {
            try Fixtures.editManifest(pack) { object in
                var checks = object["checks"] as? [String: Any] ?? [:]
                checks[key] = value
                object["checks"] = checks
            }
        }
        switch self {
        case .brokenJSON:
            try Data("{ \"id\": \"wechat\", ".utf8).write(to: URL(fileURLWithPath: pack + "/pack.json"))
        case .missingField:
            try Fixtures.editManifest(pack) { $0["maxAmount"] = nil }
        case .parentPath: try setClip("0", "../../etc/passwd")
        case .absolutePath: try setClip("0", "/etc/hosts")
        case .symlinkedClip:
            try FileManager.default.removeItem(atPath: clips + "shi.caf")
            try FileManager.default.createSymbolicLink(atPath: clips + "shi.caf", withDestinationPath: "1.caf")
        case .missingToken:
            try Fixtures.editManifest(pack) { object in
                var clips = object["clips"] as? [String: Any] ?? [:]
                clips["百"] = nil
                object["clips"] = clips
            }
            try FileManager.default.removeItem(atPath: clips + "bai.caf")
        case .unknownToken: try setClip("11", "clips/1.caf")
        case .orphanFile: try Fixtures.writeClip(Fixtures.tone(seconds: 0.2), to: clips + "extra.wav", container: .wav)
        case .textRenamedCAF:
            try Data(String(repeating: "not audio at all. ", count: 1_200).utf8).write(to: URL(fileURLWithPath: clips + "5.caf"))
        case .missingFile: try setClip("6", "clips/nowhere.caf")
        case .unsafeName:
            try FileManager.default.moveItem(atPath: clips + "shi.caf", toPath: clips + "十.caf")
            try setClip("十", "clips/十.caf")
        case .unsupportedFormat:
            try FileManager.default.removeItem(atPath: clips + "7.caf")
            try Fixtures.writeClip(Fixtures.tone(seconds: 0.3), to: clips + "7.flac", container: .flac)
            try setClip("7", "clips/7.flac")
        case .mismatchedRate:
            try Fixtures.writeClip(Fixtures.tone(seconds: 0.3, sampleRate: 44_100), to: clips + "8.caf", sampleRate: 44_100)
        case .silentClip:
            try Fixtures.writeClip([Float](repeating: 0, count: 6_000), to: clips + "9.caf")
        case .longClip:
            try Fixtures.writeClip(Fixtures.tone(seconds: 3.5), to: clips + "2.caf")
        case .leadingSilence:
            try Fixtures.writeClip(Fixtures.tone(seconds: 0.3, leadingSilence: 0.3), to: clips + "3.caf")
        case .trailingSilence:
            try Fixtures.writeClip(Fixtures.tone(seconds: 0.3, trailingSilence: 0.3), to: clips + "4.caf")
        case .composeWarning:
            try setCheck("composeWarnSeconds", 1)
        case .composeError:
            try setCheck("composeMaxSeconds", 5)
        case .bannerCut:
            try setCheck("bannerCutSeconds", 9)
        case .downloadSize:
            try setCheck("maxAnnouncementBytes", 204_800)
        case .clipped:
            // A speech-level sine pushed 6 dB past full scale: the writer clips it flat.
            try Fixtures.writeClip(Fixtures.tone(seconds: 0.3, amplitude: 2), to: clips + "6.caf")
        case .dcOffset:
            try Fixtures.writeClip(Fixtures.tone(seconds: 0.3, amplitude: 0.3, offset: 0.03), to: clips + "7.caf")
        case .nonFiniteSamples:
            var samples = Fixtures.tone(seconds: 0.3)
            for index in stride(from: 0, to: samples.count, by: 100) { samples[index] = .nan }
            try Data(Fixtures.floatWAV(samples)).write(to: URL(fileURLWithPath: clips + "5.wav"))
            try FileManager.default.removeItem(atPath: clips + "5.caf")
            try setClip("5", "clips/5.wav")
        case .quieterClip:
            let original = try AudioProbe().decode(path: clips + "8.caf")
            let gain = Float(pow(10, -10.0 / 20))
            try Fixtures.writeClip(original.samples.map { $0 * gain }, to: clips + "8.caf")
        }
    }
}

@Suite struct ValidateEndToEndTests {
    /// A float clip with NaN, infinite or absurd samples: refused in every format, and neither
    /// render nor report crashes on the pack (render refuses it).
    @Test(arguments: ["nan", "inf", "1e30"])
    func samplesThatAreNotNumbersFailTheGateInEveryFormat(_ kind: String) throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        let bad: Float = kind == "nan" ? .nan : kind == "inf" ? .infinity : 1e30
        var samples = Fixtures.tone(seconds: 0.3)
        for index in stride(from: 7, to: samples.count, by: 100) { samples[index] = bad }
        try Data(Fixtures.floatWAV(samples)).write(to: URL(fileURLWithPath: pack + "/clips/5.wav"))
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            clips["5"] = "clips/5.wav"
            object["clips"] = clips
        }
        let json = try Executable.run(["validate", pack, "--format", "json", "--no-record"], in: folder.path)
        #expect(json.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let findings = ((document["packs"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]]) ?? []
        #expect(findings.contains { $0["rule"] as? String == "audio.non-finite" })
        for format in ["sarif", "junit", "github", "text"] {
            let run = try Executable.run(["validate", pack, "--format", format, "--no-record"], in: folder.path)
            #expect(run.status == 1 && run.stdout.contains("audio.non-finite"), "\(format): \(run.stdout)")
        }
        let render = try Executable.run(["render", "--pack", pack, "5", "-o", folder.file("five.caf")], in: folder.path)
        // render refuses what validate calls an error, and writes nothing.
        #expect(render.status == 1 && render.stderr.contains("[audio.non-finite]"), "\(render.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("five.caf")))
        let report = try Executable.run(["report", pack, "-o", folder.file("report.html")], in: folder.path)
        #expect(report.status == 1 && FileManager.default.fileExists(atPath: folder.file("report.html")), "\(report.stderr)")
    }

    @Test func theDemoPackPasses() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        let result = try Executable.run(["validate", pack], in: folder.path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "\(pack): passed — wechat 1.0.0, 18 clips (22050 Hz mono lpcm caf), longest announcement 9.56 s for 33333333.33, words not checked (no recogniser for zh-Hans); 0 errors, 0 warnings\n")
        #expect(result.stderr.isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.file(".soundpack/catalog.sqlite")))
        #expect(try Executable.run(["validate", pack, "--strict", "--no-record"], in: folder.path).status == 0)
        // At the default threshold, its longest announcement (9.56 s) is above the 5 s a Temporary
        // banner is reported to allow: the one warning, which fails a strict run unless CI ignores it.
        try Fixtures.restoreDefaultBannerCut(pack)
        let warned = try Executable.run(["validate", pack, "--no-record"], in: folder.path)
        #expect(warned.status == 0 && warned.stdout.contains("0 errors, 1 warning"), "\(warned.stdout)")
        #expect(warned.stdout.contains("warning: [compose.banner-cut] the longest announcement, for amount 33333333.33, lasts 9.559 s, above 5.000 s"))
        #expect(try Executable.run(["validate", pack, "--strict", "--no-record"], in: folder.path).status == 1)
        let gate = try Executable.run(["validate", pack, "--strict", "--ignore", "compose.banner-cut", "--no-record"], in: folder.path)
        #expect(gate.status == 0, "\(gate.stdout)")
        #expect(gate.stdout.contains("suppressed [compose.banner-cut]"))
    }

    /// Every demo pack passes the gate the README and docs/ci.md recommend, --strict included, with no
    /// rule ignored; a demo pack that raises the banner threshold says why in checks.reasons.
    @Test func theDemoPacksPassTheStrictGate() throws {
        let root = Fixtures.repositoryRoot
        let packs = try FileManager.default.contentsOfDirectory(atPath: root + "/packs").sorted()
            .filter { FileManager.default.fileExists(atPath: root + "/packs/\($0)/pack.json") }.map { "packs/" + $0 }
        #expect(packs == ["packs/en-us", "packs/hi-in", "packs/merchant", "packs/wechat"])
        let result = try Executable.run(["validate"] + packs + ["--strict", "--no-record"], in: root)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix("4 packs: 4 passed, 0 failed (0 errors, 0 warnings)\n"), "\(result.stdout)")
        for pack in packs {
            let file = try PackFile(json: Data(contentsOf: URL(fileURLWithPath: root + "/" + pack + "/pack.json")))
            #expect(file.checks.ignore.isEmpty, "\(pack) waives a rule")
            if file.checks.bannerCutSeconds != Checks().bannerCutSeconds {
                #expect(file.checks.reasons["bannerCutSeconds"] != nil, "\(pack) raises bannerCutSeconds without a reason")
            }
        }
    }

    /// The demo pack's clips at 48 kHz stereo: the heaviest announcement's distinct files weigh more
    /// than 1 MiB, and the message's figures are those files' sizes; at 22.05 kHz mono (every demo
    /// pack) nothing is said; pack.json's threshold is honoured, and a misspelt one is named.
    @Test func heavyClipsWarnOfTheDownloadInTheExtension() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        for file in try FileManager.default.contentsOfDirectory(atPath: pack + "/clips") {
            let path = pack + "/clips/" + file
            let mono = try AudioProbe().decode(path: path).samples
            let resampled = try Resampler.resample(mono, channels: 1, from: 22_050, to: 48_000)
            try Fixtures.writeClip(resampled.flatMap { [$0, $0] }, to: path, sampleRate: 48_000, channels: 2)
        }
        let result = try Executable.run(["validate", pack, "--no-record"], in: folder.path)
        #expect(result.status == 0, "a warning: \(result.stdout)")
        let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("[compose.download-size]") }, "\(result.stdout)")
        #expect(line.hasPrefix("\(pack)/pack.json:") && line.contains(": warning: "))
        #expect(line.contains("the heaviest announcement, for amount 98765432.01 (微信到账九千八百七十六万五千四百三十二点零一元), downloads 17 clip files of "))
        #expect(line.contains("above 1,048,576 bytes (1.00 MiB)"))
        #expect(line.contains("--rate 22050 --mono") && line.contains("--codec ima4"))
        // The bytes are those of the amount's distinct files, each once.
        let files = try Executable.run(["say", "98765432.01", "--pack", pack, "--format", "files"], in: folder.path).stdout
        let distinct = Set(files.split(whereSeparator: \.isWhitespace).map(String.init))
        let bytes = try distinct.reduce(0) { $0 + ((try FileManager.default.attributesOfItem(atPath: pack + "/" + $1)[.size] as? Int) ?? 0) }
        #expect(distinct.count == 17)
        #expect(bytes > 1_048_576)
        #expect(line.contains("downloads 17 clip files of \(Format.bytes(Int64(bytes))),"), "\(line) \(bytes)")

        // pack.json raises the threshold above it: nothing to say.
        try Fixtures.editManifest(pack) { object in
            var checks = object["checks"] as? [String: Any] ?? [:]
            checks["maxAnnouncementBytes"] = bytes
            object["checks"] = checks
        }
        let raised = try Executable.run(["validate", pack, "--no-record"], in: folder.path)
        #expect(!raised.stdout.contains("compose.download-size"), "\(raised.stdout)")
        // A misspelt threshold is named, with the one meant.
        try Fixtures.editManifest(pack) { object in object["checks"] = ["maxAnouncementBytes": 2_000_000] }
        let misspelt = try Executable.run(["validate", pack, "--no-record"], in: folder.path)
        #expect(misspelt.status == 1)
        #expect(misspelt.stdout.contains("[manifest.invalid]") && misspelt.stdout.contains("'checks.maxAnouncementBytes': unknown check; did you mean 'maxAnnouncementBytes'?"), "\(misspelt.stdout)")

        // The demo packs, 22.05 kHz mono, weigh far less.
        let demos = try Executable.run(["validate", "--no-record"] + ["wechat", "merchant", "en-us", "hi-in"].map { Fixtures.repositoryRoot + "/packs/" + $0 }, in: folder.path)
        #expect(demos.status == 0 && !demos.stdout.contains("compose.download-size"), "\(demos.stdout)")
    }

    /// `--group-by clip`: a heading per file, its findings under it, each still a compiler-style
    /// line; the same finding lines as the default order. Other formats need --output.
    @Test func findingsGroupedByClipKeepTheirLines() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        try Fixtures.writeClip(Fixtures.tone(seconds: 0.3, leadingSilence: 0.3, trailingSilence: 0.3), to: pack + "/clips/3.caf")
        try Fixtures.writeClip(Fixtures.tone(seconds: 0.3, leadingSilence: 0.3), to: pack + "/clips/8.caf")
        let byFile = try Executable.run(["validate", pack, "--no-record"], in: folder.path)
        let byClip = try Executable.run(["validate", pack, "--no-record", "--group-by", "clip"], in: folder.path)
        #expect(byClip.status == byFile.status && byClip.stderr.isEmpty, "\(byClip.stderr)")
        let lines = byClip.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let headings = lines.filter { $0.hasPrefix("== ") }
        #expect(headings.map { $0.prefix { $0 != ":" } } == ["== \(pack)/pack.json", "== \(pack)/clips/3.caf ('3')", "== \(pack)/clips/8.caf ('8')"], "\(byClip.stdout)")
        #expect(headings[1].hasSuffix(": 0 errors, \(lines.filter { $0.hasPrefix("\(pack)/clips/3.caf: warning: ") }.count) warnings"), "\(headings)")
        // Under each heading, only findings of its file, each a whole compiler-style line.
        var current: String?
        for line in lines where !line.isEmpty && !line.hasPrefix("\(pack): ") {
            if line.hasPrefix("== ") { current = String(line.dropFirst(3).prefix { $0 != " " && $0 != ":" }); continue }
            let file = try #require(current, "a finding before any heading: \(line)")
            #expect(line.hasPrefix(file + ":") && line.contains(": warning: ["), "\(line) under \(file)")
        }
        // The same finding lines as the default order, none lost or added.
        let findingLines = { (text: String) in text.split(separator: "\n").filter { $0.contains(": warning: [") || $0.contains(": error: [") }.sorted() }
        #expect(findingLines(byClip.stdout) == findingLines(byFile.stdout))
        #expect(findingLines(byClip.stdout).count >= 4)

        // Other formats print no text: a usage error, unless --output leaves the text to the terminal.
        let sarif = try Executable.run(["validate", pack, "--no-record", "--group-by", "clip", "--format", "sarif"], in: folder.path)
        #expect(sarif.status == 2 && sarif.stderr.contains("--group-by clip groups the text output only"), "\(sarif.stderr)")
        let beside = try Executable.run(["validate", pack, "--no-record", "--group-by", "clip", "--format", "sarif", "--output", "out.sarif"], in: folder.path)
        #expect(beside.status == byFile.status && beside.stdout.contains("== \(pack)/clips/3.caf ('3')"), "\(beside.stdout)\(beside.stderr)")
    }

    @Test(arguments: Breakage.allCases)
    func eachRuleFiresOnAPackMadeToBreakIt(_ breakage: Breakage) throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        try breakage.apply(to: pack)
        let expected = breakage.expectation
        let result = try Executable.run(["validate", pack], in: folder.path)
        let lines = result.stdout.split(separator: "\n").filter { $0.contains("[\(expected.rule)]") }
        #expect(!lines.isEmpty, "\(breakage): no \(expected.rule) in\n\(result.stdout)")
        #expect(lines.contains { $0.contains(": \(expected.severity): ") && $0.contains(expected.mentions) },
                "\(breakage): \(lines)")
        #expect(result.status == expected.status, "\(breakage): \(result.stdout)")
        if expected.severity == "warning" {
            // This warning alone fails a strict run.
            #expect(try Executable.run(["validate", pack, "--strict"], in: folder.path).status == 1)
        }

        // The same finding, machine-readable.
        let json = try Executable.run(["validate", pack, "--format", "json", "--no-record"], in: folder.path)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let packs = try #require(document["packs"] as? [[String: Any]])
        let findings = try #require(packs.first?["findings"] as? [[String: Any]])
        #expect(findings.contains { $0["rule"] as? String == expected.rule && $0["severity"] as? String == expected.severity })
        #expect(document["passed"] as? Bool == (expected.status == 0))
    }

    /// A pack whose clips are all Apple IMA4 in CAF (which libsndfile refuses) validates through the binary.
    @Test func aPackOfIMA4ClipsValidates() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        let ima4 = Fixtures.repositoryRoot + "/Tests/SoundpackKitTests/Fixtures/ima4-mono.caf"
        // One take under every key (one file named by many keys; copies of it would be audio.duplicate).
        for file in try FileManager.default.contentsOfDirectory(atPath: pack + "/clips") {
            try FileManager.default.removeItem(atPath: pack + "/clips/" + file)
        }
        try FileManager.default.copyItem(atPath: ima4, toPath: pack + "/clips/take.caf")
        try Fixtures.editManifest(pack) { object in
            object["clips"] = (object["clips"] as? [String: Any] ?? [:]).mapValues { _ in "clips/take.caf" }
        }
        let result = try Executable.run(["validate", pack, "--format", "json", "--no-record"], in: folder.path)
        #expect(result.status == 0, "\(result.stdout)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let clips = try #require((document["packs"] as? [[String: Any]])?.first?["clips"] as? [[String: Any]])
        let codecs = Set(clips.compactMap { ($0["facts"] as? [String: Any])?["codec"] as? String })
        #expect(codecs == ["ima4"])
    }

    @Test func anOversizedManifestIsRefusedUnread() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        try Data(count: 2 << 20).write(to: URL(fileURLWithPath: pack + "/pack.json"))
        let result = try Executable.run(["validate", pack, "--no-record"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.stdout.contains("[manifest.invalid] pack.json is 2097152 bytes, above the 1024 KiB cap"))
    }

    @Test func severalPacksAreValidatedIndependently() throws {
        let folder = TemporaryFolder()
        let good = try Fixtures.copyDemoPack(into: folder, as: "good")
        let bad = try Fixtures.copyDemoPack(into: folder, as: "bad")
        try Breakage.textRenamedCAF.apply(to: bad)
        let missing = folder.file("missing")
        let result = try Executable.run(["validate", good, bad, missing], in: folder.path)
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(good): passed"))
        #expect(result.stdout.contains("\(bad): failed"))
        #expect(result.stdout.contains("\(missing)/pack.json: error: [manifest.invalid]"))
        #expect(result.stdout.contains("3 packs: 1 passed, 2 failed"))
    }

    @Test func jsonReportCarriesClipFactsAndTheWorstCase() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        let result = try Executable.run(["validate", pack, "--format", "json"], in: folder.path)
        #expect(result.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let report = try #require((document["packs"] as? [[String: Any]])?.first)
        let clips = try #require(report["clips"] as? [[String: Any]])
        #expect(clips.count == 18)
        let facts = try #require(clips.first?["facts"] as? [String: Any])
        for key in ["container", "codec", "sampleRate", "channels", "frames", "durationSeconds", "sha256", "leadingSilenceMs", "trailingSilenceMs"] {
            #expect(facts[key] != nil, "missing \(key)")
        }
        let worst = try #require(report["worstCase"] as? [String: Any])
        let amount = try #require(worst["amount"] as? String)
        #expect(try Amount(parsing: amount) <= Amount(parsing: "99999999.99"))
        #expect((worst["seconds"] as? Double ?? 0) > 1)
        #expect((report["digest"] as? String)?.count == 64)
    }

    @Test func theCatalogRecordsRunsForListAndShow() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        let catalog = folder.file("db/catalog.sqlite")
        // A catalog folder someone names must exist (only the default .soundpack/ is created).
        #expect(try Executable.run(["validate", pack], in: folder.path, environment: ["SOUNDPACK_CATALOG": catalog]).status == 3)
        try FileManager.default.createDirectory(atPath: folder.file("db"), withIntermediateDirectories: true)
        #expect(try Executable.run(["validate", pack], in: folder.path, environment: ["SOUNDPACK_CATALOG": catalog]).status == 0)
        let list = try Executable.run(["list"], in: folder.path, environment: ["SOUNDPACK_CATALOG": catalog])
        #expect(list.status == 0)
        #expect(list.stdout.contains("wechat  1.0.0"))
        let show = try Executable.run(["show", "wechat@1.0.0", "--catalog", catalog], in: folder.path)
        #expect(show.status == 0)
        #expect(show.stdout.contains("clips/shi.caf"))
        #expect(show.stdout.contains("validation history of digest 4366c76de5a2 (1 run)"), "\(show.stdout)")
        let json = try Executable.run(["show", "wechat", "--format", "json", "--catalog", catalog], in: folder.path)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["clips"] as? [Any])?.count == 18)
        let missing = try Executable.run(["show", "nope", "--catalog", catalog], in: folder.path)
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("error: no nope in the catalog"))
    }

    @Test func twoValidateProcessesShareOneCatalog() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        let results = FailureList()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            do {
                for _ in 0..<3 {
                    let result = try Executable.run(["validate", pack], in: folder.path)
                    if result.status != 0 { results.append(result.stderr) }
                }
            } catch { results.append("\(error)") }
        }
        #expect(results.all.isEmpty)
        let show = try Executable.run(["show", "wechat", "--format", "json"], in: folder.path)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
        #expect((object["runs"] as? [Any])?.count == 6)
    }

    @Test func anUnusableCatalogIsAnEnvironmentFailure() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        try folder.write("not a folder", to: "blocker")
        let result = try Executable.run(["validate", pack, "--catalog", folder.file("blocker/catalog.sqlite")], in: folder.path)
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("error: cannot use the catalog — "))
        #expect(result.stdout.contains("passed"))  // the findings were still printed
    }
}


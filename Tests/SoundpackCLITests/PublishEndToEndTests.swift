// publish, yank, diff, verify, export and import, run as a user runs them.

import Foundation
import Testing
import SoundpackKit
import SoundpackTestSupport

@Suite struct PublishEndToEndTests {
    /// A project folder with packs/wechat copied from the demo pack.
    static func project() throws -> TemporaryFolder {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("packs"), withIntermediateDirectories: true)
        try Fixtures.copyDemoPack(into: folder, as: "packs/wechat")
        return folder
    }

    static func run(_ arguments: [String], _ folder: TemporaryFolder, environment: [String: String] = [:]) throws -> ExecutionResult {
        try Executable.run(arguments, in: folder.path, environment: environment)
    }

    static func setVersion(_ pack: String, _ version: String) throws {
        try Fixtures.editManifest(pack) { $0["version"] = version }
    }

    static func fingerprint(_ folder: String) -> [String: String] {
        var result: [String: String] = [:]
        for case let file as String in FileManager.default.enumerator(atPath: folder) ?? FileManager.default.enumerator(atPath: "/dev/null")! {
            if let data = FileManager.default.contents(atPath: folder + "/" + file) { result[file] = Digest.sha256Hex(data) }
        }
        return result
    }

    /// SOUNDPACK_TIMINGS=1 prints where a publish's time went on stderr, phase by phase, after the
    /// output (which stays as it is); without it nothing is added.
    @Test func timingsArePrintedOnlyWhenAskedFor() throws {
        let plain = try Self.run(["publish", "--format", "json"], try Self.project())
        #expect(plain.status == 0 && !plain.stderr.contains("timings"), "\(plain.stderr)")
        // A process of its own: the timings are the process's, and this one runs other tests at once.
        let project = try Self.project()
        let timed = try withExtendedLifetime(project) {
            try Executable.spawn(["publish", "--format", "json"], in: project.path, environment: ["SOUNDPACK_TIMINGS": "1"])
        }
        #expect(timed.status == 0, "\(timed.stderr)")
        #expect((try? JSONSerialization.jsonObject(with: Data(timed.stdout.utf8))) != nil, "\(timed.stdout)")
        let (phases, first) = try Self.timings(timed.stderr)
        #expect(first == "publish, in all")
        for phase in ["validate (clips decoded, measured)", "archives and hashes, on every core", "version files written",
                      "index.json rewritten", "catalog: queries", "catalog: write transactions", "store locks taken"] {
            #expect((phases[phase]?.calls ?? 0) >= 1, "\(phase): \(timed.stderr)")
        }
        let whole = try #require(phases["publish, in all"])
        #expect(whole.calls == 1 && whole.ms > 0 && (phases["validate (clips decoded, measured)"]?.ms ?? .infinity) <= whole.ms)
    }

    /// The table SOUNDPACK_TIMINGS=1 prints on stderr: each phase's calls and milliseconds, and the
    /// name of the first phase.
    static func timings(_ stderr: String) throws -> (phases: [String: (calls: Int, ms: Double)], first: String) {
        let lines = stderr.split(separator: "\n").map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("timings (SOUNDPACK_TIMINGS=1") }, "\(stderr)")
        try #require(header + 2 < lines.count, "\(stderr)")
        #expect(lines[header + 1].hasPrefix("phase"))
        var phases: [String: (calls: Int, ms: Double)] = [:], first = ""
        for line in lines[(header + 2)...] {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            let name = fields.dropLast(2).joined(separator: " ")
            let calls = try #require(Int(fields[fields.count - 2]), "\(line)")
            let ms = try #require(Double(fields[fields.count - 1]), "\(line)")
            phases[name] = (calls, ms)
            if first.isEmpty { first = name }
        }
        return (phases, first)
    }

    /// validate with SOUNDPACK_TIMINGS=1: its phases on stderr after the report, which stays as it
    /// is; each clip file hashed and printed once, the rules run once for the pack.
    @Test func validateTimingsSayWhereTheTimeWent() throws {
        let project = try Self.project()
        let plain = try Self.run(["validate", "--no-record", "--format", "json"], project)
        #expect(plain.status == 0 && !plain.stderr.contains("timings"), "\(plain.stderr)")
        let timed = try withExtendedLifetime(project) {
            try Executable.spawn(["validate", "--format", "json"], in: project.path, environment: ["SOUNDPACK_TIMINGS": "1"])
        }
        #expect(timed.status == 0, "\(timed.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(timed.stdout.utf8)) as? [String: Any], "\(timed.stdout)")
        #expect((report["packs"] as? [Any])?.count == 1, "\(timed.stdout)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: project.file("packs/wechat/pack.json")))) as? [String: Any])
        let files = Set(try #require(manifest["clips"] as? [String: String]).values).count
        let (phases, first) = try Self.timings(timed.stderr)
        #expect(first == "validate, in all")
        let once = ["validate, in all", "store opened for earlier versions", "pack.json read, files listed", "clips listed for probing", "rules",
                    "reports built", "report rendered", "catalog record"]
        for phase in once { #expect(phases[phase]?.calls == 1, "\(phase): \(timed.stderr)") }
        for phase in ["clips hashed (SHA-256)", "voice prints (FFT, pitch)", "voice prints: resampled to 8 kHz"] {
            #expect(phases[phase]?.calls == files, "\(phase): \(timed.stderr)")
        }
        // The pack's clips are probed four at a time (KWeightedLanes.width mono clips side by side).
        let lanes = 4, groups = (files + lanes - 1) / lanes
        for phase in ["clips read", "clips decoded and measured"] { #expect(phases[phase]?.calls == groups, "\(phase): \(timed.stderr)") }
        // Nested phases add up within the phase around them (on several cores, not within the wall time).
        let probing = try #require(phases["clips decoded and measured"])
        #expect(try #require(phases["validate, in all"]).ms > 0)
        #expect((phases["clips hashed (SHA-256)"]?.ms ?? .infinity) + (phases["voice prints (FFT, pitch)"]?.ms ?? .infinity) <= probing.ms)
        // Both streams in one place (a terminal, a CI log): the report first, the table after it.
        // The binary and the ceiling go as the shell's $0 and $1, so no path is quoted into the script.
        let shell = "env -u SOUNDPACK_CATALOG SOUNDPACK_TIMINGS=1 NO_COLOR=1 SOUNDPACK_CEILING_DIRECTORIES=\"$1\" \"$0\" validate --no-record --format json 2>&1"
        let ceiling = FileManager.default.temporaryDirectory.standardizedFileURL.path
        let together = try #require(try Tool.run("/bin/sh", ["-c", shell, Executable.path, ceiling], in: project.path))
        #expect(together.status == 0, "\(together.stdout)")
        let table = try #require(together.stdout.range(of: "timings (SOUNDPACK_TIMINGS=1"), "\(together.stdout)")
        let before = try JSONSerialization.jsonObject(with: Data(together.stdout[..<table.lowerBound].utf8)) as? [String: Any]
        #expect((before?["packs"] as? [Any])?.count == 1, "\(together.stdout)")
    }

    @Test func publishIsIdempotentRefusesConflictsAndEnforcesBumps() throws {
        let folder = try Self.project()
        let pack = folder.file("packs/wechat")
        let first = try Self.run(["publish"], folder)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("published wechat@1.0.0"))
        for file in ["index.json", "wechat/1.0.0/manifest.json", "wechat/1.0.0/wechat-1.0.0.tar.gz", "wechat/1.0.0/wechat-1.0.0.zip",
                     "wechat/1.0.0/clips/shi.caf", "wechat/1.0.0/pack.json"] {
            #expect(FileManager.default.fileExists(atPath: folder.file("dist/\(file)")), "missing \(file)")
        }
        let again = try Self.run(["publish"], folder)
        #expect(again.status == 0)
        #expect(again.stdout.contains("nothing to do"))

        // One changed sample, same version: refused, and neither store nor catalog changes.
        let store = Self.fingerprint(folder.file("dist"))
        let shown = try Self.run(["show", "wechat@1.0.0", "--format", "json"], folder).stdout
        let audio = try AudioProbe().decode(path: pack + "/clips/3.caf")
        var samples = audio.samples
        samples[samples.count / 2] += 0.01
        try Fixtures.writeClip(samples, to: pack + "/clips/3.caf")
        let conflict = try Self.run(["publish"], folder)
        #expect(conflict.status == 1)
        #expect(conflict.stdout.contains("error: [catalog.version-conflict] wechat@1.0.0 is already published in the store dist with other content"), "\(conflict.stdout)")
        #expect(Self.fingerprint(folder.file("dist")) == store)
        let shownAfter = try Self.run(["show", "wechat@1.0.0", "--format", "json"], folder).stdout
        func published(_ json: String) throws -> [String] {
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
            let clips = (object["clips"] as? [[String: Any]] ?? []).map { "\($0["token"] ?? "") \($0["sha256"] ?? "")" }
            return ["\(object["digest"] ?? "")", "\(object["publishedAt"] ?? "")"] + clips
        }
        #expect(try published(shownAfter) == published(shown))

        // Changed audio needs a patch bump; a removed token needs a major one.
        try Self.setVersion(pack, "1.0.1")
        #expect(try Self.run(["publish"], folder).status == 0)
        let diff = try Self.run(["diff", "wechat@1.0.0", "wechat@1.0.1"], folder)
        #expect(diff.stdout.contains("audio changed: 3 (needs patch)"))
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            clips["亿"] = nil
            object["clips"] = clips
            object["version"] = "1.1.0"
        }
        try FileManager.default.removeItem(atPath: pack + "/clips/yi.caf")
        let minor = try Self.run(["publish"], folder)
        #expect(minor.status == 1)
        #expect(minor.stdout.contains("error: [catalog.version-bump] wechat@1.1.0 is a minor bump from 1.0.1, but tokens removed (亿) needs a major bump"), "\(minor.stdout)")
        try Self.setVersion(pack, "0.9.0")
        #expect(try Self.run(["publish"], folder).stdout.contains("error: [catalog.version-not-newer] wechat@0.9.0 is not newer than the published 1.0.1"))
        try Self.setVersion(pack, "2.0.0")
        #expect(try Self.run(["publish"], folder).status == 0)
        #expect(try Self.run(["verify"], folder).status == 0)
    }

    /// The same pack gives byte-identical archives under another umask, time zone and file mtimes.
    /// Versions are archived a few at a time on every core, but decided and recorded one by one,
    /// in the order given: two folders of one pack in one run see each other's outcome.
    @Test func oneRunDecidesEachVersionInOrder() throws {
        let folder = try Self.project()
        try FileManager.default.copyItem(atPath: folder.file("packs/wechat"), toPath: folder.file("packs/wechat-b"))
        try Self.setVersion(folder.file("packs/wechat"), "1.0.1")
        // 1.0.1 first, then 1.0.0: the second is not newer than what the first just published.
        let run = try Self.run(["publish", "packs/wechat", "packs/wechat-b"], folder)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("published wechat@1.0.1"))
        #expect(run.stdout.contains("wechat@1.0.0 is not newer than the published 1.0.1"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("dist/wechat/1.0.0")))
        // The same folder twice: published once, then nothing to do.
        try Self.setVersion(folder.file("packs/wechat"), "1.0.2")
        let twice = try Self.run(["publish", "packs/wechat", "packs/wechat"], folder)
        #expect(twice.status == 0, "\(twice.stdout)\(twice.stderr)")
        #expect(twice.stdout.contains("published wechat@1.0.2"))
        #expect(twice.stdout.contains("wechat@1.0.2 is already published with this content; nothing to do"))
        let listed = try Self.run(["list", "--format", "json"], folder)
        #expect(listed.stdout.contains("1.0.2"))
    }

    @Test func archivesAreReproducible() throws {
        let a = try Self.project(), b = try Self.project()
        let touch = Process()
        touch.executableURL = URL(fileURLWithPath: "/usr/bin/touch")
        touch.arguments = ["-d", "2001-02-03 04:05:06"] + (try FileManager.default.contentsOfDirectory(atPath: b.file("packs/wechat/clips"))).map { b.file("packs/wechat/clips/\($0)") }
        try touch.run()
        touch.waitUntilExit()
        for (folder, tz, mask) in [(a, "UTC", "022"), (b, "Asia/Shanghai", "077")] {
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", "umask \(mask) && TZ=\(tz) exec '\(Executable.path)' publish >/dev/null"]
            shell.currentDirectoryURL = URL(fileURLWithPath: folder.path)
            try shell.run()
            shell.waitUntilExit()
            #expect(shell.terminationStatus == 0)
        }
        for name in ["wechat-1.0.0.tar.gz", "wechat-1.0.0.zip"] {
            let x = FileManager.default.contents(atPath: a.file("dist/wechat/1.0.0/\(name)"))
            let y = FileManager.default.contents(atPath: b.file("dist/wechat/1.0.0/\(name)"))
            #expect(x != nil && x == y, "\(name) differs")
        }
        // SOURCE_DATE_EPOCH moves the tar mtime, the same way in every time zone.
        let c = try Self.project(), d = try Self.project()
        _ = try Self.run(["publish"], c, environment: ["SOURCE_DATE_EPOCH": "1700000000", "TZ": "America/New_York"])
        _ = try Self.run(["publish"], d, environment: ["SOURCE_DATE_EPOCH": "1700000000", "TZ": "Asia/Tokyo"])
        let tarC = FileManager.default.contents(atPath: c.file("dist/wechat/1.0.0/wechat-1.0.0.tar.gz"))
        #expect(tarC == FileManager.default.contents(atPath: d.file("dist/wechat/1.0.0/wechat-1.0.0.tar.gz")))
        #expect(tarC != FileManager.default.contents(atPath: a.file("dist/wechat/1.0.0/wechat-1.0.0.tar.gz")))
    }

    @Test func yankExportAndVerify() throws {
        let folder = try Self.project()
        #expect(try Self.run(["publish"], folder).status == 0)
        let yank = try Self.run(["yank", "wechat@1.0.0", "--reason", "clip 3 mispronounced"], folder)
        #expect(yank.status == 0, "\(yank.stderr)")
        let index = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("dist/index.json")))) as? [String: Any])
        let version = ((index["packs"] as? [String: Any])?["wechat"] as? [String: Any]).flatMap { ($0["versions"] as? [String: Any])?["1.0.0"] as? [String: Any] }
        #expect(version?["yanked"] as? Bool == true)
        #expect(version?["yankReason"] as? String == "clip 3 mispronounced")
        // A yanked version can never be published again, even unchanged.
        #expect(try Self.run(["publish"], folder).stdout.contains("error: [catalog.version-yanked] wechat@1.0.0 was yanked"))

        let plist = try Self.run(["export", "wechat@1.0.0", "--base-url", "https://cdn.example.com/p/", "--namespace"], folder)
        #expect(plist.status == 0, "\(plist.stderr)")
        let document = try #require(try PropertyListSerialization.propertyList(from: Data(plist.stdout.utf8), format: nil) as? [String: Any])
        let names = try #require(document["kMainAppMp3FileKey"] as? [String])
        #expect(names.count == 18)
        #expect(names.contains("wechat-shi.caf"))
        let packs = (document["soundpack"] as? [String: Any])?["packs"] as? [String: Any]
        let wechat = packs?["wechat"] as? [String: Any]
        #expect(wechat?["yanked"] as? Bool == true)
        let shi = (wechat?["tokens"] as? [String: Any])?["十"] as? [String: Any]
        #expect(shi?["url"] as? String == "https://cdn.example.com/p/wechat/1.0.0/clips/shi.caf")
        #expect((shi?["sha256"] as? String)?.count == 64)

        #expect(try Self.run(["verify"], folder).status == 0)
        try Data("tampered".utf8).write(to: URL(fileURLWithPath: folder.file("dist/wechat/1.0.0/clips/5.caf")))
        try FileManager.default.removeItem(atPath: folder.file("dist/wechat/1.0.0/wechat-1.0.0.zip"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.file("dist/wechat/1.0.0/stray.bin")))
        let verify = try Self.run(["verify"], folder)
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("clips/5.caf: error: [store.changed]"))
        #expect(verify.stdout.contains("wechat-1.0.0.zip: error: [store.missing]"))
        #expect(verify.stdout.contains("stray.bin: error: [store.unexpected]"))
    }

    @Test func signedManifestsVerify() throws {
        let folder = try Self.project()
        #expect(try Self.run(["keygen", "-o", "release.key"], folder).status == 0)
        #expect(try Self.run(["publish", "--sign-key", "release.key"], folder).status == 0)
        #expect(try Self.run(["verify", "--public-key", "release.key.pub"], folder).status == 0)
        let other = try Self.run(["keygen", "-o", "other.key"], folder)
        #expect(other.status == 0)
        // A signature file replaced by one from another key is caught.
        let manifest = try Data(contentsOf: URL(fileURLWithPath: folder.file("dist/wechat/1.0.0/manifest.json")))
        let key = try #require(SigningKey(secretKey: Array(Data(base64Encoded: String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder.file("other.key"))), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? Data())))
        try Data((Data(key.sign(Array(manifest))).base64EncodedString() + "\n").utf8).write(to: URL(fileURLWithPath: folder.file("dist/wechat/1.0.0/manifest.json.sig")))
        let verify = try Self.run(["verify", "--public-key", "release.key.pub"], folder)
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("[store.signature]"))
    }

    @Test func signingCanBeAdoptedAfterUnsignedReleases() throws {
        let folder = try Self.project()
        #expect(try Self.run(["publish"], folder).status == 0)  // 1.0.0, unsigned
        #expect(try Self.run(["keygen", "-o", "release.key"], folder).status == 0)
        try Self.setVersion(folder.file("packs/wechat"), "1.0.1")
        #expect(try Self.run(["publish", "--sign-key", "release.key"], folder).status == 0)
        let strict = try Self.run(["verify", "--public-key", "release.key.pub"], folder)
        #expect(strict.status == 1 && strict.stdout.contains("wechat@1.0.0 is not signed"), "\(strict.stdout)")
        let adopted = try Self.run(["verify", "--public-key", "release.key.pub", "--unsigned-before", "wechat@1.0.1"], folder)
        #expect(adopted.status == 0, "\(adopted.stdout)")
        #expect(adopted.stdout.contains("note: [store.signature] wechat@1.0.0 is not signed; accepted"), "\(adopted.stdout)")
        // The cut-off does not excuse the version it names, nor a later one.
        try Self.setVersion(folder.file("packs/wechat"), "1.0.2")
        #expect(try Self.run(["publish"], folder).status == 0)
        let later = try Self.run(["verify", "--public-key", "release.key.pub", "--unsigned-before", "wechat@1.0.1"], folder)
        #expect(later.status == 1 && later.stdout.contains("wechat@1.0.2 is not signed"), "\(later.stdout)")
        #expect(try Self.run(["verify", "--public-key", "release.key.pub", "--unsigned-before", "wechat"], folder).status == 2)
    }

    @Test func importsAPublishedArchive() throws {
        let folder = try Self.project()
        #expect(try Self.run(["publish"], folder).status == 0)
        for kind in ["tar.gz", "zip"] {
            let result = try Self.run(["import", "dist/wechat/1.0.0/wechat-1.0.0.\(kind)", "received-\(kind)"], folder)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("received-\(kind): passed"))
            #expect(Self.fingerprint(folder.file("received-\(kind)")) == Self.fingerprint(folder.file("packs/wechat")))
        }
        #expect(try Self.run(["import", "dist/wechat/1.0.0/wechat-1.0.0.zip", "received-zip"], folder).status == 1)
    }

    /// A zip whose one entry inflates from a few kilobytes to 20 MiB: stopped at the entry cap.
    @Test func aZipBombIsStoppedWhileItInflates() throws {
        let folder = TemporaryFolder()
        let bomb = try ReproducibleArchive.make([("pack.json", Array("{}".utf8)), ("clips/zero.caf", [UInt8](repeating: 0, count: 20 << 20))], under: "bomb",
                                                kind: .zip, mtime: 0, deflateZip: true)
        #expect(bomb.count < 100_000)
        try Data(bomb).write(to: URL(fileURLWithPath: folder.file("bomb.zip")))
        let result = try Executable.run(["import", "bomb.zip", "out"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("16 MiB"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["bomb.zip"])
    }

    enum Hostile: String, CaseIterable, Sendable {
        case parent, absolute, symlinkThenFile, hardLinkOut, duplicate, hugeDeclared, notAnArchive

        func archive() -> Data {
            var tar = TarBuilder()
            tar.add("pack.json", Array("{}".utf8))
            switch self {
            case .parent: tar.add("../escaped.txt", Array("x".utf8))
            case .absolute: tar.add("/tmp/soundpack-absolute.txt", Array("x".utf8))
            case .symlinkThenFile:
                tar.add("clips", kind: .symlink, link: "/tmp")
                tar.add("clips/soundpack-through-link.txt", Array("x".utf8))
            case .hardLinkOut: tar.add("clips/passwd", kind: .hardLink, link: "/etc/passwd")
            case .duplicate:
                tar.add("clips/a.caf", Array("one".utf8))
                tar.add("clips/a.caf", Array("two".utf8))
            case .hugeDeclared: tar.add("clips/huge.caf", Array(repeating: 0, count: 512), declaredSize: 10_000_000_000)
            case .notAnArchive: return Data(String(repeating: "plain text ", count: 300).utf8)
            }
            return tar.finished()
        }
    }

    @Test(arguments: Hostile.allCases)
    func hostileArchivesAreRefusedAndWriteNothing(_ hostile: Hostile) throws {
        let folder = TemporaryFolder()
        try hostile.archive().write(to: URL(fileURLWithPath: folder.file("evil.tar")))
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let result = try Executable.run(["import", "evil.tar", "out/pack"], in: folder.path)
        #expect(result.status == 1, "\(hostile): \(result.stdout)\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: cannot import evil.tar"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/pack")))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.file("out"))) ?? [] == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "out" } == before)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/soundpack-absolute.txt"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/soundpack-through-link.txt"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("escaped.txt")))
    }
}

/// publish --dry-run, yank --undo and diff against a working folder.
@Suite struct PublishingWorkflowTests {
    @Test func aDryRunChecksEverythingAndWritesNothing() throws {
        let folder = try PublishEndToEndTests.project()
        let dry = try PublishEndToEndTests.run(["publish", "--dry-run"], folder)
        #expect(dry.status == 0 && dry.stdout.contains("would publish wechat@1.0.0"), "\(dry.stdout)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("dist")) && !FileManager.default.fileExists(atPath: folder.file(".soundpack")))
        #expect(try PublishEndToEndTests.run(["publish"], folder).status == 0)
        // A new version that removes a token needs a major bump: the dry run says so, and still writes nothing.
        try Fixtures.editManifest(folder.file("packs/wechat")) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            clips["亿"] = nil
            object["clips"] = clips
            object["version"] = "1.1.0"
        }
        let refused = try PublishEndToEndTests.run(["publish", "--dry-run"], folder)
        #expect(refused.status == 1 && refused.stdout.contains("needs a major bump"), "\(refused.stdout)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("dist/wechat/1.1.0")))
        let diff = try PublishEndToEndTests.run(["diff", "wechat@1.0.0", "packs/wechat"], folder)
        #expect(diff.status == 0 && diff.stdout.contains("tokens removed: 亿 (needs major)") && diff.stdout.contains("required bump: major"), "\(diff.stdout)")
    }

    @Test func aYankCanBeTakenBack() throws {
        let folder = try PublishEndToEndTests.project()
        #expect(try PublishEndToEndTests.run(["publish"], folder).status == 0)
        #expect(try PublishEndToEndTests.run(["yank", "wechat@1.0.0", "--reason", "mistake"], folder).status == 0)
        let again = try PublishEndToEndTests.run(["yank", "wechat@1.0.0", "--reason", "other"], folder)
        #expect(again.stdout.contains("already yanked: mistake; the first reason stays"))
        let undo = try PublishEndToEndTests.run(["yank", "wechat@1.0.0", "--undo"], folder)
        #expect(undo.status == 0 && undo.stdout.contains("no longer yanked"))
        let index = try String(contentsOfFile: folder.file("dist/index.json"), encoding: .utf8)
        #expect(index.contains("\"latest\" : \"1.0.0\"") && index.contains("\"yanked\" : false"))
        #expect(try PublishEndToEndTests.run(["verify"], folder).status == 0)
        #expect(try PublishEndToEndTests.run(["yank", "wechat@1.0.0", "--undo"], folder).stdout.contains("nothing to undo"))
    }

    /// `ID[@VERSION]` is read once, by PackRef: an id that is no pack id or a version that is not
    /// one is a usage error (exit 2) naming the part.
    @Test func aReferenceThatIsNotIDAtVersionIsAUsageErrorNamingThePart() throws {
        let folder = try PublishEndToEndTests.project()
        let badID = try PublishEndToEndTests.run(["show", "WeChat@1.0.0"], folder)
        #expect(badID.status == 2 && badID.stderr.contains("'WeChat@1.0.0' is not ID[@VERSION]: 'WeChat' is not a pack id"), "\(badID.stderr)")
        let empty = try PublishEndToEndTests.run(["yank", "wechat@", "--reason", "x"], folder)
        #expect(empty.status == 2 && empty.stderr.contains("'' in 'wechat@' is not a semantic version"), "\(empty.stderr)")
    }
}

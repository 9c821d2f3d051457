// The second hostile-input round, through the built binary: one test per class of defect, each
// checked with the tool that consumes the output (bsdtar, plistlib, the shell) where there is one.

import Foundation
import Testing
import SoundpackKit
import SoundpackTestSupport

@Suite struct HostileInputSecondRoundTests {
    /// A folder with the demo pack at `wechat/`, and the arguments that name its own catalog and store.
    static func project() throws -> (folder: TemporaryFolder, pack: String, places: [String]) {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        return (folder, pack, ["--catalog", folder.file("catalog.sqlite"), "--store", folder.file("dist")])
    }

    static func publish(_ pack: String, _ places: [String], in folder: TemporaryFolder) throws {
        let result = try Executable.run(["publish", pack] + places, in: folder.path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    static func files(under root: String) -> [String: Data] {
        var out: [String: Data] = [:]
        for entry in Folders.walk(root) where entry.kind == .file {
            out[entry.path] = FileManager.default.contents(atPath: root + "/" + entry.path)
        }
        return out
    }

    // MARK: crashes

    /// libarchive's pax and zip writers dereferenced NULL for a name with no form in the "C"
    /// locale (SIGSEGV on 五.caf); the archives must now carry the name as bsdtar reads it.
    @Test func aClipWhoseNameIsNotASCIIIsPublishedAndArchived() throws {
        let (folder, pack, places) = try Self.project()
        try FileManager.default.moveItem(atPath: pack + "/clips/5.caf", toPath: pack + "/clips/五.caf")
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            clips["5"] = "clips/五.caf"
            object["clips"] = clips
        }
        try Self.publish(pack, places, in: folder)
        let version = folder.file("dist/wechat/1.0.0")
        for archive in ["wechat-1.0.0.tar.gz", "wechat-1.0.0.zip"] {
            guard let listing = try Tool.run("/usr/bin/bsdtar", ["-tf", version + "/" + archive]) else { continue }
            #expect(listing.status == 0, "\(listing.stderr)")
            #expect(listing.stdout.split(separator: "\n").contains("wechat-1.0.0/clips/五.caf"), "\(archive): \(listing.stdout)")
        }
        let imported = try Executable.run(["import", version + "/wechat-1.0.0.tar.gz", "back"], in: folder.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(FileManager.default.contents(atPath: folder.file("back/clips/五.caf")) == FileManager.default.contents(atPath: pack + "/clips/五.caf"))
    }

    /// `--key soundpack` made the encoder write two values under one key (a trap); the key must be
    /// one an XML property list can hold, and the output is read back with plistlib.
    @Test(arguments: ["soundpack", "", "a\u{01}b", "tab\tkey", "\u{FFFE}"])
    func anExportKeyThatCannotBeWrittenIsAUsageError(_ key: String) throws {
        let (folder, pack, places) = try Self.project()
        try Self.publish(pack, places, in: folder)
        let result = try Executable.run(["export", "wechat", "--key", key, "-o", "out.plist"] + places, in: folder.path)
        #expect(result.status == 2, "\(key.debugDescription): \(result.stderr)")
        #expect(result.stderr.contains("--key"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.plist")))
    }

    @Test func anExportWithAnOrdinaryKeyReadsBackInPlistlib() throws {
        let (folder, pack, places) = try Self.project()
        try Self.publish(pack, places, in: folder)
        let result = try Executable.run(["export", "wechat", "--key", "clips & <sounds>", "-o", "out.plist"] + places, in: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        guard let read = try Tool.run("/usr/bin/python3", ["-c", "import plistlib,sys; d=plistlib.load(open(sys.argv[1],'rb')); print(sorted(d))", folder.file("out.plist")]) else { return }
        #expect(read.status == 0 && read.stdout.contains("'clips & <sounds>'"), "\(read.stdout)\(read.stderr)")
    }

    /// A negative user_version indexed the migrations below zero (a trap).
    @Test(arguments: [-1, Int64(Int32.min)])
    func aCatalogWithANegativeSchemaVersionIsRefused(_ version: Int64) throws {
        let (folder, pack, places) = try Self.project()
        try Self.publish(pack, places, in: folder)
        try SQLiteDatabase(path: folder.file("catalog.sqlite")).execute("PRAGMA user_version = \(version)")
        let result = try Executable.run(["list"] + places, in: folder.path)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("schema version \(version)"), "\(result.stderr)")
    }

    // MARK: writing where nobody asked

    /// DEST a symlink to SRC, or a folder inside SRC reached through one: SRC is never written.
    @Test(arguments: ["link", "link/inner", "inside"])
    func convertNeverWritesIntoTheSourceThroughASymlink(_ destination: String) throws {
        let (folder, pack, _) = try Self.project()
        try FileManager.default.createSymbolicLink(atPath: folder.file("link"), withDestinationPath: pack)
        try FileManager.default.createSymbolicLink(atPath: folder.file("inside"), withDestinationPath: pack + "/clips")
        let before = Self.files(under: pack)
        let result = try Executable.run(["convert", "wechat", destination, "--force", "--rate", "16000"], in: folder.path)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("overlaps the source"), "\(result.stderr)")
        #expect(Self.files(under: pack) == before, "the source changed")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("link")) == pack)
    }

    @Test(arguments: [("SOUNDPACK_STORE", ["publish", "wechat"]), ("SOUNDPACK_CATALOG", ["list"]), ("SOUNDPACK_CATALOG", ["publish", "wechat"])])
    func anEmptyStoreOrCatalogVariableIsRefusedNotTheWorkingFolder(_ variable: String, _ arguments: [String]) throws {
        let (folder, _, _) = try Self.project()
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let result = try Executable.run(arguments, in: folder.path, environment: [variable: ""])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("\(variable) is set but empty"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
        let flag = try Executable.run(arguments + ["--store", ""], in: folder.path)
        #expect(flag.status == 2 && flag.stderr.contains("--store is empty"), "\(flag.stderr)")
        // A command that uses neither is not refused for it.
        let say = try Executable.run(["say", "15.40", "--grammar", "zh-Hans"], in: folder.path, environment: [variable: ""])
        #expect(say.status == 0, "\(say.stderr)")
    }

    /// SQLite writes PATH-journal beside the catalog: a device or FIFO is refused before that.
    @Test func aCatalogThatIsADeviceOrFIFOIsRefused() throws {
        let (folder, pack, _) = try Self.project()
        #expect(mkfifo(folder.file("fifo"), 0o600) == 0)
        let hadJournal = FileManager.default.fileExists(atPath: "/dev/null-journal")
        for catalog in ["/dev/null", folder.file("fifo")] {
            let result = try Executable.run(["publish", pack, "--catalog", catalog, "--store", folder.file("dist")], in: folder.path)
            #expect(result.status == 3, "\(catalog): \(result.stderr)")
            #expect(result.stderr.contains("not a regular file"), "\(result.stderr)")
        }
        #expect(hadJournal || !FileManager.default.fileExists(atPath: "/dev/null-journal"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("fifo-journal")))
    }

    /// A render killed mid-write leaves `.NAME.PID.N.partial.caf`; the next render into the folder removes it.
    @Test func aRenderIntoAFolderRemovesWhatAKilledRenderLeft() throws {
        let (folder, pack, _) = try Self.project()
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: true)
        let leftover = folder.file("out/.5.caf.\(gone.processIdentifier).12345.partial.caf")
        let someoneElses = folder.file("out/.6.caf.\(getpid()).12345.partial.caf")
        for file in [leftover, someoneElses] { #expect(FileManager.default.createFile(atPath: file, contents: Data([1, 2, 3]))) }
        let result = try Executable.run(["render", "--pack", pack, "5", "6", "-o", "out"], in: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: leftover), "the dead process's temporary is removed")
        #expect(FileManager.default.fileExists(atPath: someoneElses), "a live process's temporary is left alone")
    }

    // MARK: secrets

    /// The secret key is created 0600: a poller never sees it (or its temporary) readable by others.
    @Test func keygenNeverLetsOthersReadTheSecretKey() throws {
        let folder = TemporaryFolder()
        let done = ManagedFlag()
        nonisolated(unsafe) var exposed: [String] = []
        let watcher = Thread {
            while !done.isSet {
                for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !name.contains(".pub") {
                    var info = stat()
                    if stat(folder.file(name), &info) == 0, info.st_mode & 0o077 != 0 { exposed.append(name) }
                }
            }
        }
        watcher.start()
        for index in 0..<20 {
            let result = try Executable.run(["keygen", "-o", "key\(index)"], in: folder.path)
            #expect(result.status == 0, "\(result.stderr)")
        }
        done.set()
        while !watcher.isFinished { usleep(1_000) }
        #expect(exposed.isEmpty, "readable by others: \(Set(exposed).sorted())")
        let again = try Executable.run(["keygen", "-o", "key0"], in: folder.path)
        #expect(again.status == 1, "keygen never overwrites")
    }

    @Test(arguments: ["https://user:secret@cdn.example.com/p", "https://@cdn.example.com/p", "https://cdn.example.com:99999/p",
                      "https://cdn.example.com:/p", "https://cdn.example.com\\evil.com/p", "https://cdn.example.com/a b"])
    func aBaseURLWithCredentialsABadPortOrABackslashIsRefused(_ url: String) throws {
        let (folder, pack, places) = try Self.project()
        try Self.publish(pack, places, in: folder)
        let export = try Executable.run(["export", "wechat", "--base-url", url, "-o", "out.plist"] + places, in: folder.path)
        #expect(export.status == 2, "\(url): \(export.stderr)")
        #expect(!export.stderr.contains("secret"), "the password is never echoed")
        let payload = try Executable.run(["payload", "15.40", "--pack", "wechat@1.0.0", "--base-url", url] + places, in: folder.path)
        #expect(payload.status == 2, "\(url): \(payload.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.plist")))
    }

    // MARK: cost

    /// A store file of more than 2 GiB (sparse) is hashed as a stream: reported as changed, not missing.
    @Test func verifyHashesAHugeStoreFileAsAStream() throws {
        let (folder, pack, places) = try Self.project()
        try Self.publish(pack, places, in: folder)
        let clip = folder.file("dist/wechat/1.0.0/clips/5.caf")
        #expect(truncate(clip, (2 << 30) + 7) == 0)
        let result = try Executable.run(["verify"] + places, in: folder.path)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("clips/5.caf: error: [store.changed]"), "\(result.stdout)")
        #expect(!result.stdout.contains("[store.missing]"), "\(result.stdout)")
    }

    /// A FIFO, a folder or a device planted in the store where soundpack wrote a file is drift
    /// (store.changed, exit 1), found without opening it, and every other file is still verified.
    /// Run as the binary with a timeout: a verify that waits on the FIFO fails instead of hanging.
    @Test func verifyReportsOddFilesInTheStoreAsDriftAndChecksTheRest() throws {
        let (folder, pack, _) = try Self.project()
        let places = ["--catalog", "catalog.sqlite", "--store", "dist"]  // relative: the lines name dist/…
        try Self.publish(pack, places, in: folder)
        let version = folder.file("dist/wechat/1.0.0")
        let clean = try Executable.run(["verify"] + places, in: folder.path)
        #expect(clean.stdout == "dist: 23 files checked, no drift\n", "\(clean.stdout)\(clean.stderr)")

        try FileManager.default.removeItem(atPath: version + "/clips/5.caf")
        #expect(mkfifo(version + "/clips/5.caf", 0o644) == 0)
        try FileManager.default.removeItem(atPath: version + "/wechat-1.0.0.zip")
        try FileManager.default.createDirectory(atPath: version + "/wechat-1.0.0.zip", withIntermediateDirectories: false)
        let tampered = try FileHandle(forWritingTo: URL(fileURLWithPath: version + "/clips/7.caf"))
        try tampered.seekToEnd()
        try tampered.write(contentsOf: Data("x".utf8))
        try tampered.close()
        // Where this runs with the right to make devices: a copy of /dev/null in place of pack.json.
        var null = stat()
        try FileManager.default.removeItem(atPath: version + "/pack.json")
        let device = stat("/dev/null", &null) == 0 && mknod(version + "/pack.json", S_IFCHR | 0o644, null.st_rdev) == 0
        if !device { try Data("{}".utf8).write(to: URL(fileURLWithPath: version + "/pack.json")) }

        let result = try Executable.spawn(["verify"] + places, in: folder.path, timeout: 60)
        #expect(!result.timedOut, "verify waited on the FIFO")
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "dist/wechat/1.0.0/clips/5.caf: error: [store.changed] a FIFO, not a file: a store holds only the files soundpack wrote",
            lines.first { $0.hasPrefix("dist/wechat/1.0.0/clips/7.caf: error: [store.changed] SHA-256 is ") } ?? "clips/7.caf: (no finding)",
            device ? "dist/wechat/1.0.0/pack.json: error: [store.changed] a character device, not a file: a store holds only the files soundpack wrote"
                : lines.first { $0.hasPrefix("dist/wechat/1.0.0/pack.json: error: [store.changed] SHA-256 is ") } ?? "pack.json: (no finding)",
            "dist/wechat/1.0.0/wechat-1.0.0.zip: error: [store.changed] a folder, not a file: a store holds only the files soundpack wrote",
            // Every other file is hashed: 23 less the FIFO and the folder, and the device when there is one.
            "dist: \(device ? 20 : 21) files checked, 4 problems",
        ], "\(result.stdout)")
        var info = stat()
        #expect(lstat(version + "/clips/5.caf", &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "verify changes nothing")
    }

    /// A FIFO in place of index.json, a manifest or its signature is drift too; never waited on.
    @Test(arguments: ["index.json", "wechat/1.0.0/manifest.json", "wechat/1.0.0/manifest.json.sig"])
    func verifyReportsAFIFOInPlaceOfAStoreDocument(_ key: String) throws {
        let (folder, pack, places) = try Self.project()
        #expect(try Executable.run(["keygen", "-o", "release.key"], in: folder.path).status == 0)
        let published = try Executable.run(["publish", pack, "--sign-key", "release.key"] + places, in: folder.path)
        #expect(published.status == 0, "\(published.stdout)\(published.stderr)")
        try FileManager.default.removeItem(atPath: folder.file("dist/" + key))
        #expect(mkfifo(folder.file("dist/" + key), 0o644) == 0)
        let result = try Executable.spawn(["verify", "--public-key", "release.key.pub"] + places, in: folder.path, timeout: 60)
        #expect(!result.timedOut, "verify waited on the FIFO")
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.contains("dist/\(key): error: [store.changed] a FIFO, not a file"), "\(result.stdout)")
    }

    /// Reading a version back from the store (catalog rebuild, a publish with a lost catalog)
    /// refuses a FIFO in it at once, naming it; it never waits on it.
    @Test func recoveryFromTheStoreRefusesAFIFOWithoutWaiting() throws {
        let (folder, pack, places) = try Self.project()
        try Self.publish(pack, places, in: folder)
        let clip = folder.file("dist/wechat/1.0.0/clips/5.caf")
        try FileManager.default.removeItem(atPath: clip)
        #expect(mkfifo(clip, 0o644) == 0)
        let lost = ["--catalog", folder.file("lost.sqlite"), "--store", folder.file("dist")]
        for command in [["catalog", "rebuild", "--from-store"], ["publish", pack]] {
            let result = try Executable.spawn(command + lost, in: folder.path, timeout: 60)
            #expect(!result.timedOut, "\(command) waited on the FIFO")
            #expect(result.status == 3, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("dist/wechat/1.0.0/clips/5.caf is a FIFO, not a file (a store holds only the files soundpack wrote; soundpack verify checks the store)"),
                    "\(command): \(result.stderr)")
        }
    }

    /// GITHUB_STEP_SUMMARY (or -o) naming a FIFO nobody reads ends with an error, not a hang.
    @Test func aFIFONobodyReadsDoesNotHoldTheCommand() throws {
        let (folder, pack, _) = try Self.project()
        #expect(mkfifo(folder.file("summary"), 0o600) == 0)
        let summary = try Executable.run(["validate", pack, "--no-record", "--format", "github"], in: folder.path,
                                         environment: ["GITHUB_STEP_SUMMARY": folder.file("summary")])
        #expect(summary.status == 3, "\(summary.stderr)")
        #expect(summary.stderr.contains("nobody reads"), "\(summary.stderr)")
        let output = try Executable.run(["validate", pack, "--no-record", "--format", "json", "-o", "summary"], in: folder.path)
        #expect(output.status == 3, "\(output.stderr)")
    }

    // MARK: the store's own files

    /// `--store .` in the store (or any spelling that ends in it): the sidecar goes beside the
    /// store's real path, never inside it, and the store holds only what a CDN ships.
    @Test(arguments: [".", "./", "../dist/.", "../dist/"])
    func aStoreNamedFromInsideItKeepsItsSidecarOutside(_ spelling: String) throws {
        let (folder, pack, _) = try Self.project()
        try FileManager.default.createDirectory(atPath: folder.file("dist"), withIntermediateDirectories: true)
        let result = try Executable.run(["publish", pack, "--catalog", folder.file("catalog.sqlite"), "--store", spelling], in: folder.file("dist"))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("dist")).sorted() == ["index.json", "wechat"])
        #expect(FileManager.default.fileExists(atPath: folder.file(".dist.soundpack")))
    }

    /// A staging folder replaced by a symbolic link, in the store or in its sidecar, is never
    /// followed: publish's clean-up of leftovers removes nothing outside the store and its sidecar,
    /// and no version is staged through the link.
    @Test(arguments: ["dist/.staging", ".dist.soundpack/staging"])
    func theCleanUpOfLeftoversNeverFollowsALink(_ planted: String) throws {
        let (folder, pack, places) = try Self.project()
        // Named as leftovers are: without a PID (an older release's), and with one that is gone.
        try folder.write("keep", to: "important/notes.txt")
        try folder.write("keep", to: "important/wechat@1.0.0-4194305-1/clips/1.caf")
        try folder.write("keep", to: "important/.index.json.4194305.1.tmp")
        for made in ["dist", ".dist.soundpack"] { try FileManager.default.createDirectory(atPath: folder.file(made), withIntermediateDirectories: true) }
        try FileManager.default.createSymbolicLink(atPath: folder.file(planted), withDestinationPath: "../important")
        let before = Self.files(under: folder.file("important"))
        let result = try Executable.run(["publish", pack] + places, in: folder.path)
        #expect(Self.files(under: folder.file("important")) == before, "\(result.stdout)\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file(planted)) == "../important")
        if planted.hasPrefix("dist/") {
            // Versions are staged in the sidecar: the publish goes on; verify reports the link in the store.
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            let verify = try Executable.run(["verify"] + places, in: folder.path)
            #expect(verify.status == 1 && verify.stdout.contains(".staging: error: [store.unexpected]"), "\(verify.stdout)")
        } else {
            #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("is a symbolic link, not a folder soundpack made"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.file("dist/wechat")))
        }
    }

    /// A pack folder of the store that is a symbolic link: publish never writes a version through
    /// it (it wrote the version outside the store and said "published … to dist/wechat/1.0.0").
    @Test(arguments: ["dist/wechat", "dist/wechat/1.0.0"])
    func publishNeverWritesThroughALinkInTheStore(_ planted: String) throws {
        let (folder, pack, places) = try Self.project()
        try FileManager.default.createDirectory(atPath: folder.file("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: (folder.file(planted) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file(planted), withDestinationPath: folder.file("elsewhere"))
        let result = try Executable.run(["publish", pack] + places, in: folder.path)
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("symbolic link \(planted.dropFirst(5))") && result.stderr.contains("a store holds only"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("elsewhere")).isEmpty)
    }

    /// A published file (or the pack's folder) replaced by a symbolic link to the same bytes is
    /// drift: verify never reads the store through a link.
    @Test(arguments: ["wechat/1.0.0/pack.json", "wechat/1.0.0/manifest.json", "wechat"])
    func verifyReportsASymbolicLinkInTheStoreAsDrift(_ replaced: String) throws {
        let (folder, pack, places) = try Self.project()
        try Self.publish(pack, places, in: folder)
        try FileManager.default.moveItem(atPath: folder.file("dist/" + replaced), toPath: folder.file("moved"))
        try FileManager.default.createSymbolicLink(atPath: folder.file("dist/" + replaced), withDestinationPath: folder.file("moved"))
        let result = try Executable.run(["verify"] + places, in: folder.path)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("error: [store.changed]") && result.stdout.contains("symbolic link"), "\(result.stdout)")
    }

    /// A lock file planted as a dangling link: publish refuses to lock through it, and never
    /// creates the file it points to.
    @Test func publishNeverCreatesAFileThroughALockLink() throws {
        let (folder, pack, places) = try Self.project()
        let locks = folder.file(".dist.soundpack/locks")
        try FileManager.default.createDirectory(atPath: locks, withIntermediateDirectories: true)
        let name = Digest.sha256Hex(Data("soundpack.store.pack:wechat".utf8)).prefix(32) + ".lock"
        try FileManager.default.createSymbolicLink(atPath: locks + "/" + name, withDestinationPath: folder.file("created-by-publish"))
        let result = try Executable.run(["publish", pack] + places, in: folder.path)
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("cannot lock the store") && result.stderr.contains("is a symbolic link, not a lock file soundpack made"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("created-by-publish")))
    }

    // MARK: forged or wrong output

    @Test(arguments: ["\u{FFFE}", "\u{FFFF}"])
    func aTextXMLCannotCarryIsAManifestError(_ character: String) throws {
        let (folder, pack, _) = try Self.project()
        try Fixtures.editManifest(pack) { $0["texts"] = ["prefix": "微信\(character)到账"] }
        let result = try Executable.run(["validate", pack, "--no-record"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.stdout.contains("[manifest.invalid]") && result.stdout.contains("XML"), "\(result.stdout)")
        let export = try Executable.run(["export", pack, "-o", "out.plist"], in: folder.path)
        #expect(export.status == 1, "\(export.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.plist")))
    }

    /// `clips/é.caf` written precomposed and decomposed are two files on Linux and in object keys:
    /// each clip has its own facts, and both are published.
    @Test func namesThatDifferOnlyInNormalizationAreTwoFiles() throws {
        let (folder, pack, places) = try Self.project()
        let composed = "clips/\u{E9}.caf", decomposed = "clips/e\u{301}.caf"
        try FileManager.default.moveItem(atPath: pack + "/clips/5.caf", toPath: pack + "/" + composed)
        try FileManager.default.moveItem(atPath: pack + "/clips/6.caf", toPath: pack + "/" + decomposed)
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            clips["5"] = composed
            clips["6"] = decomposed
            object["clips"] = clips
        }
        let result = try Executable.run(["validate", pack, "--no-record", "--format", "json"], in: folder.path)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let clips = ((report?["packs"] as? [[String: Any]])?.first?["clips"] as? [[String: Any]]) ?? []
        let hashes = Dictionary(clips.compactMap { clip in (clip["token"] as? String).map { ($0, (clip["facts"] as? [String: Any])?["sha256"] as? String ?? "") } }, uniquingKeysWith: { a, _ in a })
        let expected5 = Digest.sha256Hex(Array(try Data(contentsOf: URL(fileURLWithPath: pack + "/" + composed))))
        let expected6 = Digest.sha256Hex(Array(try Data(contentsOf: URL(fileURLWithPath: pack + "/" + decomposed))))
        #expect(expected5 != expected6)
        #expect(hashes["5"] == expected5 && hashes["6"] == expected6, "\(hashes)")
        try Self.publish(pack, places, in: folder)
        #expect(FileManager.default.contents(atPath: folder.file("dist/wechat/1.0.0/" + decomposed)) == FileManager.default.contents(atPath: pack + "/" + decomposed))
        #expect(FileManager.default.contents(atPath: folder.file("dist/wechat/1.0.0/" + composed)) == FileManager.default.contents(atPath: pack + "/" + composed))
        // Both spellings in both archives (libarchive would write NFC for both), as bsdtar lists
        // the tar.gz and Python's zipfile the zip (libarchive's zip reader normalizes names).
        let lister = "import sys, zipfile; sys.stdout.buffer.write(b'\\n'.join(i.filename.encode() for i in zipfile.ZipFile(sys.argv[1]).infolist()))"
        for archive in ["wechat-1.0.0.tar.gz", "wechat-1.0.0.zip"] {
            let path = folder.file("dist/wechat/1.0.0/" + archive)
            let run = archive.hasSuffix(".zip") ? try Tool.run("/usr/bin/python3", ["-c", lister, path]) : try Tool.run("/usr/bin/bsdtar", ["-tf", path])
            guard let listing = run else { continue }
            let names = listing.stdout.split(separator: "\n").map { Array($0.utf8) }
            #expect(names.contains(Array("wechat-1.0.0/\(composed)".utf8)) && names.contains(Array("wechat-1.0.0/\(decomposed)".utf8)), "\(archive)")
        }
    }

    @Test func verifyRefusesAnIndexWithADuplicateKey() throws {
        let (folder, pack, places) = try Self.project()
        try Self.publish(pack, places, in: folder)
        let path = folder.file("dist/index.json")
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let brace = try #require(text.firstIndex(of: "{"))
        text.insert(contentsOf: #""schemaVersion" : 1, "#, at: text.index(after: brace))
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let result = try Executable.run(["verify"] + places, in: folder.path)
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("[store.index]") && result.stdout.contains("appears twice"), "\(result.stdout)")
    }

    /// A manifest changed in the store behind the catalog's back never reaches an app or a push.
    @Test func exportAndPayloadRefuseAStoreManifestTheCatalogDidNotRecord() throws {
        let (folder, pack, places) = try Self.project()
        try Self.publish(pack, places, in: folder)
        let path = folder.file("dist/wechat/1.0.0/manifest.json")
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\"clips/5.caf\"", with: "\"clips/../../../5.caf\"")
        #expect(text.contains("clips/../../../5.caf"))
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let export = try Executable.run(["export", "wechat@1.0.0", "-o", "out.plist"] + places, in: folder.path)
        #expect(export.status == 3, "\(export.stderr)")
        #expect(export.stderr.contains("not the manifest that was published"), "\(export.stderr)")
        let payload = try Executable.run(["payload", "15.40", "--pack", "wechat@1.0.0"] + places, in: folder.path)
        #expect(payload.status == 3, "\(payload.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.plist")))
    }

    /// Paths with spaces or quotes come out single-quoted, so the shell splits a line back into them.
    @Test func sayFilesOutputSplitsBackIntoThePaths() throws {
        let (folder, pack, _) = try Self.project()
        try FileManager.default.createDirectory(atPath: pack + "/my clips", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: pack + "/clips/5.caf", toPath: pack + "/my clips/it's 5.caf")
        try Fixtures.editManifest(pack) { object in
            var clips = object["clips"] as? [String: Any] ?? [:]
            clips["5"] = "my clips/it's 5.caf"
            object["clips"] = clips
        }
        let result = try Executable.run(["say", "--pack", pack, "--format", "files", "15.40"], in: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        guard let split = try Tool.run("/bin/bash", ["-c", "eval \"set -- $1\"; printf '%s\\n' \"$@\"", "_", result.stdout.trimmingCharacters(in: .newlines)]) else { return }
        #expect(split.stdout.split(separator: "\n").map(String.init) == ["clips/prefix.caf", "clips/shi.caf", "my clips/it's 5.caf", "clips/dian.caf", "clips/4.caf", "clips/yuan.caf"], "\(split.stdout)")
    }

    // MARK: consistency

    /// The index write of a yank fails (index.json is a folder); the catalog has the yank, and
    /// running the same yank again brings index.json up to date.
    @Test func aYankWhoseIndexWriteFailedIsRepairedByItsRetry() throws {
        let (folder, pack, places) = try Self.project()
        try Self.publish(pack, places, in: folder)
        let index = folder.file("dist/index.json")
        try FileManager.default.removeItem(atPath: index)
        try FileManager.default.createDirectory(atPath: index, withIntermediateDirectories: false)
        let failed = try Executable.run(["yank", "wechat@1.0.0", "--reason", "clip 5 is clipped"] + places, in: folder.path)
        #expect(failed.status == 3, "\(failed.stderr)")
        try FileManager.default.removeItem(atPath: index)
        let retry = try Executable.run(["yank", "wechat@1.0.0", "--reason", "clip 5 is clipped"] + places, in: folder.path)
        #expect(retry.status == 0, "\(retry.stderr)")
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: index))) as? [String: Any]
        let version = ((written?["packs"] as? [String: Any])?["wechat"] as? [String: Any]).flatMap { ($0["versions"] as? [String: Any])?["1.0.0"] as? [String: Any] }
        #expect(version?["yanked"] as? Bool == true, "\(String(describing: written))")
        let verify = try Executable.run(["verify"] + places, in: folder.path)
        #expect(verify.status == 0, "\(verify.stdout)")
    }

    /// A NUL inside a text is copied exactly; text that is not UTF-8 is refused, the target left empty.
    @Test func catalogMigrateCopiesBytesExactlyOrRefuses() throws {
        let (folder, pack, places) = try Self.project()
        try Self.publish(pack, places, in: folder)
        let source = try SQLiteDatabase(path: folder.file("catalog.sqlite"))
        try source.query("UPDATE versions SET yank_reason = ?", [.text("before\u{0}after")])
        let copied = try Executable.run(["catalog", "migrate", "--from", "catalog.sqlite", "--to", "copy.sqlite"], in: folder.path)
        #expect(copied.status == 0, "\(copied.stderr)")
        let reason = try SQLiteDatabase(path: folder.file("copy.sqlite")).query("SELECT yank_reason AS r FROM versions").first?["r"]
        #expect(reason == .text("before\u{0}after"), "\(String(describing: reason))")

        try source.execute("UPDATE packs SET name = CAST(X'77FF6563' AS TEXT)")
        let refused = try Executable.run(["catalog", "migrate", "--from", "catalog.sqlite", "--to", "other.sqlite"], in: folder.path)
        #expect(refused.status != 0, "\(refused.stdout)")
        #expect(refused.stderr.contains("not UTF-8"), "\(refused.stderr)")
        let left = try SQLiteDatabase(path: folder.file("other.sqlite")).query("SELECT COUNT(*) AS n FROM packs").first?["n"]
        #expect(left == .integer(0))
    }

    /// A baseline accepts a finding at the severity it had; the same finding as an error counts.
    @Test func aBaselineNeverHidesAFindingThatBecameAnError() throws {
        let (folder, pack, _) = try Self.project()
        try FileManager.default.removeItem(atPath: pack + "/clips/5.caf")
        let report = try Executable.run(["validate", pack, "--no-record", "--format", "json"], in: folder.path)
        #expect(report.status == 1)
        let asWarnings = report.stdout.replacingOccurrences(of: "\"severity\" : \"error\"", with: "\"severity\" : \"warning\"")
        #expect(asWarnings != report.stdout)
        try folder.write(asWarnings, to: "baseline.json")
        try folder.write(report.stdout, to: "same.json")
        let became = try Executable.run(["validate", pack, "--no-record", "--baseline", "baseline.json"], in: folder.path)
        #expect(became.status == 1, "an error is not hidden by the same finding accepted as a warning: \(became.stdout)")
        let same = try Executable.run(["validate", pack, "--no-record", "--baseline", "same.json"], in: folder.path)
        #expect(same.status == 0, "\(same.stdout)")
    }

    /// A version whose archive name takes the full 255 bytes validates, and publish stages it.
    @Test func theLongestVersionValidateAcceptsIsOnePublishCanStage() throws {
        let (folder, pack, places) = try Self.project()
        let version = "2.0.0-" + String(repeating: "a", count: 255 - "wechat-".count - ".tar.gz".count - "2.0.0-".count)
        try Fixtures.editManifest(pack) { $0["version"] = version }
        let validate = try Executable.run(["validate", pack, "--no-record"], in: folder.path)
        #expect(validate.status == 0, "\(validate.stdout)")
        try Self.publish(pack, places, in: folder)
        #expect(FileManager.default.fileExists(atPath: folder.file("dist/wechat/\(version)/wechat-\(version).tar.gz")))
        try Fixtures.editManifest(pack) { $0["version"] = version + "a" }
        let longer = try Executable.run(["validate", pack, "--no-record"], in: folder.path)
        #expect(longer.status == 1 && longer.stdout.contains("too long"), "\(longer.stdout)")
    }

    @Test(arguments: [["--prefix", "微信\u{1B}[2J"], ["--prefix", "a\u{FFFF}"], ["--max-amount", "1000000000000"]])
    func initRefusesWhatValidateWouldRefuse(_ options: [String]) throws {
        let folder = TemporaryFolder()
        let result = try Executable.run(["init", "new", "--id", "new"] + options, in: folder.path)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("new")))
    }

    // MARK: versions

    @Test func aReleaseAfterItsCandidatesIsPublishedWithTheSameClips() throws {
        let (folder, pack, places) = try Self.project()
        for version in ["1.0.0-rc.9", "1.0.0-rc.10", "1.0.0"] {
            try Fixtures.editManifest(pack) { $0["version"] = version }
            let result = try Executable.run(["publish", pack] + places, in: folder.path)
            #expect(result.status == 0, "\(version): \(result.stdout)\(result.stderr)")
        }
        try Fixtures.editManifest(pack) { $0["version"] = "1.0.0-rc.11" }
        let older = try Executable.run(["publish", pack] + places, in: folder.path)
        #expect(older.status == 1 && (older.stdout + older.stderr).contains("not newer"), "\(older.stdout)\(older.stderr)")
    }

    @Test(arguments: [" ", "\n", " \t\n ", "\u{200B}"])
    func aYankReasonOfOnlyWhiteSpaceIsRefused(_ reason: String) throws {
        let (folder, pack, places) = try Self.project()
        try Self.publish(pack, places, in: folder)
        let result = try Executable.run(["yank", "wechat@1.0.0", "--reason", reason] + places, in: folder.path)
        #expect(result.status == 2, "\(reason.debugDescription): \(result.stdout)\(result.stderr)")
        let list = try Executable.run(["list"] + places, in: folder.path)
        #expect(!list.stdout.contains("yanked"))
    }
}

/// A flag one thread sets and another reads.
final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}

// The store's one owner: layout, the folder backend, index.json from the catalog, and the
// "newest published version, then its manifest" lookup export and payload share.

import Foundation
import SoundpackCore
@testable import SoundpackCatalog
import SoundpackPublish
@testable import SoundpackKit
@testable import SoundpackAudio
@testable import SoundpackStore
import SoundpackTestSupport
import Testing

@Suite struct StoreTests {
    static let v1 = SemanticVersion("1.0.0")!

    @Test func theLayoutIsTheDesignsLayout() {
        #expect(StoreLayout.manifest("wechat", Self.v1) == "wechat/1.0.0/manifest.json")
        #expect(StoreLayout.signature("wechat", Self.v1) == "wechat/1.0.0/manifest.json.sig")
        #expect(StoreLayout.archiveFile("wechat", Self.v1, .tarGzip) == "wechat-1.0.0.tar.gz")
        #expect(StoreLayout.clipFile(packPath: "./clips//shi.caf") == "clips/shi.caf")
        #expect(StoreLayout.clipFile(packPath: "sounds/5.caf") == "clips/sounds/5.caf")
    }

    @Test func theFolderBackendWritesReadsAndLists() throws {
        let folder = TemporaryFolder()
        let backend = DirectoryStore(root: folder.file("dist"))
        #expect(try backend.read("a/b.json") == nil)
        try backend.write("a/b.json", Data("1".utf8))
        #expect(try backend.writeIfAbsent("a/b.json", Data("2".utf8)) == false)
        #expect(try backend.read("a/b.json") == Data("1".utf8))
        #expect(try backend.writeIfAbsent("c.json", Data("3".utf8)) == true)
        let lock = try backend.lock(.index), packLock = try backend.lock(.pack("a"))
        defer { lock.release(); packLock.release() }
        // The lock files are the backend's own, never store keys.
        #expect(try backend.list() == ["a/b.json", "c.json"])
    }

    /// Different packs' locks are held at once; the same pack's lock waits for its holder.
    @Test func packLocksExcludeOnlyTheirOwnPack() throws {
        let folder = TemporaryFolder()
        let backend = DirectoryStore(root: folder.file("dist"))
        let held = try backend.lock(.pack("wechat"))
        func takes(_ scope: LockScope, within seconds: Double) -> (Bool, DispatchSemaphore) {
            let taken = DispatchSemaphore(value: 0)
            Thread {
                guard let lock = try? backend.lock(scope) else { return }
                taken.signal()
                lock.release()
            }.start()
            return (taken.wait(timeout: .now() + seconds) == .success, taken)
        }
        #expect(takes(.pack("alipay"), within: 5).0, "another pack's lock is free")
        #expect(takes(.index, within: 5).0, "the index lock is free while a pack is being written")
        let (early, waiting) = takes(.pack("wechat"), within: 0.3)
        #expect(!early, "the same pack's lock waits")
        held.release()
        #expect(waiting.wait(timeout: .now() + 5) == .success, "and is taken once released")
    }

    /// A store named through a symbolic link, or as `dist/.`, is the store its real path names:
    /// one lock, so two publishers never write it at once, and one sidecar, beside the real store.
    @Test func twoSpellingsOfOneStoreTakeOneLock() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("alias"), withDestinationPath: "real")
        let real = DirectoryStore(root: folder.file("real"))
        var held = try real.lock(.pack("wechat"))
        for spelling in ["alias", "alias/", "real/.", "alias/../real"] {
            let other = DirectoryStore(root: folder.file(spelling))
            #expect(other.sidecar == real.sidecar, "\(spelling)")
            let taken = DispatchSemaphore(value: 0)
            Thread {
                guard let lock = try? other.lock(.pack("wechat")) else { return }
                taken.signal()
                lock.release()
            }.start()
            #expect(taken.wait(timeout: .now() + 0.3) == .timedOut, "\(spelling) took the lock \(real.root) holds")
            held.release()
            #expect(taken.wait(timeout: .now() + 5) == .success, "\(spelling)")
            held = try real.lock(.pack("wechat"))
        }
        held.release()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [".real.soundpack", "alias", "real"])
    }

    /// An endpoint variable that is set but empty (a CI variable a team on AWS never defined, which
    /// GitHub passes as "") means AWS's own endpoint, as an unset one does, not an endpoint "".
    @Test func anEmptyEndpointVariableIsUnset() throws {
        for name in ["AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"] {
            let location = try S3Location(url: "s3://bucket/voice", endpoint: nil,
                                          environment: [name: "", "AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b"])
            #expect(location.endpoint == "https://s3.eu-west-1.amazonaws.com", "\(name)")
        }
    }

    /// The lock of an S3 store on this machine is in a folder only this user made, under TMPDIR:
    /// its predictable name in a shared /tmp, made by someone else or planted as a link, is
    /// refused, and nothing is created through the link.
    @Test func anS3StoresLockIsInAFolderOnlyThisUserMade() throws {
        let folder = TemporaryFolder()
        func store() throws(SoundpackError) -> S3Store {
            try S3Store(S3Location(url: "s3://bucket/voice", endpoint: "http://127.0.0.1:9",
                                   environment: ["AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b", "TMPDIR": folder.path]))
        }
        let mine = folder.file("soundpack-\(geteuid())")
        let lock = try store().lock(.pack("wechat"))
        lock.release()
        let folders = Folders.walk(mine).filter { $0.kind == .folder }.map(\.path)
        #expect(folders.count == 2 && folders.allSatisfy { $0.hasPrefix("s3-lock-") }, "\(folders)")
        for made in [mine] + folders.map({ mine + "/" + $0 }) {
            let mode = try FileManager.default.attributesOfItem(atPath: made)[.posixPermissions] as? Int
            #expect(mode == 0o700, "\(made)")
        }
        // Planted: a link where this user's folder goes, and the folder made by someone else.
        try FileManager.default.removeItem(atPath: mine)
        try FileManager.default.createDirectory(atPath: folder.file("theirs"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: mine, withDestinationPath: folder.file("theirs"))
        #expect(throws: SoundpackError.self) { try store().lock(.index) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("theirs")).isEmpty)
        if geteuid() == 0 {
            try FileManager.default.removeItem(atPath: mine)
            try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: true)
            #expect(chown(mine, 65_534, 65_534) == 0)
            do throws(SoundpackError) {
                _ = try store().lock(.index)
                Issue.record("a lock was taken in a folder another user made")
            } catch {
                #expect(error.description.contains("belongs to user 65534, not to this user"), "\(error.description)")
            }
        }
    }

    /// A lock file is never opened through a link: a dangling one is not created, one to a file
    /// is not locked.
    @Test(arguments: [LockScope.index, .pack("wechat")])
    func aLockFileIsNeverOpenedThroughALink(_ scope: LockScope) throws {
        let folder = TemporaryFolder()
        let backend = DirectoryStore(root: folder.file("dist"))
        let lockFile = scope == .index ? backend.sidecar + "/.soundpack.lock"
            : backend.sidecar + "/locks/" + Digest.sha256Hex(Data("soundpack.store.pack:wechat".utf8)).prefix(32) + ".lock"
        try FileManager.default.createDirectory(atPath: (lockFile as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        for target in ["victim-dangling", "victim-file"] {
            if target == "victim-file" { try folder.write("someone else's", to: target) }
            try? FileManager.default.removeItem(atPath: lockFile)
            try FileManager.default.createSymbolicLink(atPath: lockFile, withDestinationPath: folder.file(target))
            do throws(SoundpackError) {
                let lock = try backend.lock(scope)
                lock.release()
                Issue.record("\(target): a lock was taken through a link")
            } catch {
                #expect(error.description.contains("is a symbolic link, not a lock file soundpack made"), "\(error.description)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("victim-dangling")))
    }

    /// Leftovers are removed only when the process that left them is gone: a publisher of another
    /// pack may be assembling its version right now.
    @Test func leftoversOfLiveWritersStay() throws {
        let folder = TemporaryFolder()
        let backend = DirectoryStore(root: folder.file("dist"))
        try backend.write("index.json", Data("{}".utf8))
        let staging = backend.sidecar + "/staging"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        // A PID no process has (above the kernel's pid_max), and this process's own.
        let gone = "wechat@1.0.0-4194305-17", live = "alipay@1.0.0-\(getpid())-18"
        for name in [gone, live] { try FileManager.default.createDirectory(atPath: staging + "/" + name, withIntermediateDirectories: true) }
        try Data().write(to: URL(fileURLWithPath: folder.file("dist/.index.json.4194305.9.tmp")))
        try Data().write(to: URL(fileURLWithPath: folder.file("dist/.index.json.\(getpid()).9.tmp")))
        backend.removeLeftovers()
        #expect(!FileManager.default.fileExists(atPath: staging + "/" + gone))
        #expect(FileManager.default.fileExists(atPath: staging + "/" + live))
        #expect(!FileManager.default.fileExists(atPath: folder.file("dist/.index.json.4194305.9.tmp")))
        #expect(FileManager.default.fileExists(atPath: folder.file("dist/.index.json.\(getpid()).9.tmp")))
    }

    /// A link inside a leftover (to a folder, to a file) is removed with it, never followed.
    @Test func removingALeftoverNeverFollowsALinkInIt() throws {
        let folder = TemporaryFolder()
        let backend = DirectoryStore(root: folder.file("dist"))
        try folder.write("keep", to: "important/inner/notes.txt")
        let leftover = "\(backend.sidecar)/staging/wechat@1.0.0-4194305-1"
        try FileManager.default.createDirectory(atPath: leftover + "/clips", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: leftover + "/clips/folder", withDestinationPath: folder.file("important"))
        try FileManager.default.createSymbolicLink(atPath: leftover + "/clips/file.caf", withDestinationPath: folder.file("important/inner/notes.txt"))
        try FileManager.default.createDirectory(atPath: folder.file("dist"), withIntermediateDirectories: true)
        backend.removeLeftovers()
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(try String(contentsOfFile: folder.file("important/inner/notes.txt"), encoding: .utf8) == "keep")
    }

    /// Nothing is written through a symbolic link in the store, whatever the write.
    @Test func noWriteGoesThroughALinkInTheStore() throws {
        let folder = TemporaryFolder()
        let backend = DirectoryStore(root: folder.file("dist"))
        try FileManager.default.createDirectory(atPath: folder.file("dist"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.file("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("dist/wechat"), withDestinationPath: folder.file("elsewhere"))
        try FileManager.default.createSymbolicLink(atPath: folder.file("dist/index.json"), withDestinationPath: folder.file("elsewhere/index.json"))
        #expect(throws: SoundpackError.self) { try backend.writeVersion("wechat/1.0.0", files: [("manifest.json", Data("{}".utf8))]) }
        #expect(throws: SoundpackError.self) { try backend.write("wechat/1.0.0/manifest.json", Data("{}".utf8)) }
        #expect(throws: SoundpackError.self) { try backend.writeIfAbsent("wechat/1.0.0/manifest.json", Data("{}".utf8)) }
        #expect(throws: SoundpackError.self) { try backend.write("index.json", Data("{}".utf8)) }
        #expect(throws: SoundpackError.self) { try backend.read("index.json") }
        #expect(try backend.digest("wechat/1.0.0/manifest.json") == .notAFile("reached through the symbolic link wechat"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("elsewhere")).isEmpty)
    }

    @Test func theIndexNamesTheNewestVersionThatIsNotYanked() {
        func version(_ text: String, yanked: Bool) -> PublishedVersion {
            PublishedVersion(id: "p", version: SemanticVersion(text)!, digest: "d", publishedAt: Date(timeIntervalSince1970: 0), yanked: yanked, yankReason: nil,
                             manifestSha256: "m", tarSha256: nil, zipSha256: nil, keyID: nil, clips: [:])
        }
        let index = Store.index(of: [version("1.0.0", yanked: false), version("1.10.0", yanked: false), version("2.0.0", yanked: true)])
        #expect(index.packs["p"]?.latest == "1.10.0")
        #expect(index.packs["p"]?.versions["2.0.0"]?.manifest == "p/2.0.0/manifest.json")
    }

    @Test func publishedLookupSkipsYankedUnlessAskedByVersion() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        let catalog = try SQLiteCatalog(path: folder.file("catalog.sqlite"))
        let store = Store.directory(folder.file("dist"))
        let outcomes = try Publisher(catalog: catalog, store: store).publish(folders: [PackFolder(absolute: pack)])
        #expect(outcomes.map(\.status) == [.published])
        let found = try #require(try store.published("wechat", nil, in: catalog))
        #expect(found.manifest.version == Self.v1)
        #expect(found.manifest.readingGrammar == Grammar(.zhHans))
        #expect(try catalog.yank("wechat", Self.v1, reason: "test", at: Date()) == .yanked)
        #expect(try catalog.yank("wechat", Self.v1, reason: "again", at: Date()) == .alreadyYanked(reason: "test"))
        #expect(try store.published("wechat", nil, in: catalog) == nil)
        #expect(try store.published("wechat", Self.v1, in: catalog)?.version.yanked == true)
        #expect(try store.published("other", nil, in: catalog) == nil)
    }
}

/// index.json after a publish: the run's packs' entries, and those of every pack whose counts in
/// the catalog differ from the index's, built again; every other entry kept as it was.
@Suite struct IndexRewriteTests {
    /// A copy of the demo pack as `id@version` in `folder/packs/id`.
    static func pack(_ id: String, _ version: String, in folder: TemporaryFolder) throws -> PackFolder {
        let path = folder.file("packs/" + id)
        if !FileManager.default.fileExists(atPath: path) { try Fixtures.copyDemoPack(into: folder, as: "packs/" + id) }
        try Fixtures.editManifest(path) { object in
            object["id"] = id
            object["version"] = version
        }
        return PackFolder(absolute: path)
    }

    @Test(arguments: CatalogBackend.available)
    func aRewriteListsWhatAnotherRunLeftUnlistedAndMatchesAWholeRebuild(_ backend: CatalogBackend) throws {
        let folder = TemporaryFolder()
        let catalog = try backend.open(try backend.freshLocation(in: folder))
        let store = Store.directory(folder.file("dist"))
        let publisher = Publisher(catalog: catalog, store: store)
        _ = try publisher.publish(folders: [try Self.pack("a", "1.0.0", in: folder), try Self.pack("b", "1.0.0", in: folder),
                                            try Self.pack("c", "1.0.0", in: folder), try Self.pack("d", "1.0.0", in: folder)])
        let listed = try Data(contentsOf: URL(fileURLWithPath: folder.file("dist/index.json")))
        // b@1.1.0 recorded and stored by a run stopped before its index write; a yank of c
        // recorded and not listed; d's entry as it was.
        #expect(try publisher.publish(folders: [try Self.pack("b", "1.1.0", in: folder)]).map(\.status) == [.published])
        try listed.write(to: URL(fileURLWithPath: folder.file("dist/index.json")))
        #expect(try catalog.yank("c", SemanticVersion("1.0.0")!, reason: "misread", at: Date()) == .yanked)
        #expect(try publisher.publish(folders: [try Self.pack("a", "1.1.0", in: folder)]).map(\.status) == [.published])
        let rewritten = try Data(contentsOf: URL(fileURLWithPath: folder.file("dist/index.json")))
        let index = try ManifestRefresher.decodeIndex(rewritten)
        #expect(index.packs["a"]?.latest == "1.1.0" && index.packs["b"]?.latest == "1.1.0")
        #expect(index.packs["c"]?.versions["1.0.0"]?.yanked == true && index.packs["c"]?.latest == nil)
        #expect(index.packs["d"]?.versions.keys.sorted() == ["1.0.0"])
        // The same bytes as an index built again whole from the catalog.
        try store.writeIndex(from: catalog)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("dist/index.json"))) == rewritten)
        #expect(try StoreVerifier(catalog: catalog, store: store).verify().drifts.isEmpty)
        #expect(try catalog.publishedCounts() == ["a": PublishedCount(versions: 2, yanked: 0), "b": PublishedCount(versions: 2, yanked: 0),
                                                 "c": PublishedCount(versions: 1, yanked: 1), "d": PublishedCount(versions: 1, yanked: 0)])
    }

    /// Another pack's entry that a full decoding refuses stops a publish as it did before entries
    /// were skimmed, though the layout is publish's own and the entry is not built; the store is
    /// left as it was.
    @Test func anotherPacksDamagedEntryStillStopsAPublish() throws {
        let (folder, _, publisher, path) = try Self.twoPacks()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for (from, to, problem) in [("\"b\" : {", "\"B\" : {", "'B' is not a pack id"),
                                    ("\"1.0.0\" : {\n          \"digest\" : \"\(try Self.digest(of: "b", in: text))", nil, "'1.0' (of b) is not a semantic version")] {
            let damaged = to.map { text.replacingOccurrences(of: from, with: $0) }
                ?? text.replacingOccurrences(of: from, with: from.replacingOccurrences(of: "\"1.0.0\"", with: "\"1.0\""))
            #expect(damaged != text && StoreIndex.skim(Data(damaged.utf8)) == nil)
            try damaged.write(toFile: path, atomically: true, encoding: .utf8)
            let next = try Self.pack("a", "1.1.0", in: folder)
            do {
                _ = try publisher.publish(folders: [next])
                Issue.record("a publish went through over an entry a full decoding refuses")
            } catch {
                #expect(error.description.contains("index.json is not a soundpack index: \(problem)"), "\(error)")
            }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == damaged)
        }
    }

    /// a@1.0.0 and b@1.0.0 published into a folder store with a SQLite catalog, and the path of its index.json.
    static func twoPacks() throws -> (folder: TemporaryFolder, catalog: SQLiteCatalog, publisher: Publisher, index: String) {
        let folder = TemporaryFolder()
        let catalog = try SQLiteCatalog(path: folder.file("catalog.sqlite"))
        let publisher = Publisher(catalog: catalog, store: Store.directory(folder.file("dist")))
        _ = try publisher.publish(folders: [try Self.pack("a", "1.0.0", in: folder), try Self.pack("b", "1.0.0", in: folder)])
        return (folder, catalog, publisher, folder.file("dist/index.json"))
    }

    /// The SHA-256 digest index.json lists for `id`'s version 1.0.0.
    static func digest(of id: String, in text: String) throws -> String {
        try #require(try ManifestRefresher.decodeIndex(Data(text.utf8)).packs[id]?.versions["1.0.0"]?.digest)
    }

    /// An index.json in another layout than publish's (compact, keys in another order) is decoded
    /// whole, and a publish writes every entry in publish's layout: what a rebuild writes.
    @Test func anIndexInAnotherLayoutIsDecodedWholeAndWrittenInPublishsOwn() throws {
        let (folder, catalog, publisher, path) = try Self.twoPacks()
        let store = publisher.store
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        let compact = try JSONSerialization.data(withJSONObject: object)
        #expect(StoreIndex.skim(compact) == nil)
        try compact.write(to: URL(fileURLWithPath: path))
        #expect(try publisher.publish(folders: [try Self.pack("a", "1.1.0", in: folder)]).map(\.status) == [.published])
        let rewritten = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(StoreIndex.skim(rewritten) != nil)
        #expect(try ManifestRefresher.decodeIndex(rewritten).packs["b"] == (try ManifestRefresher.decodeIndex(compact)).packs["b"])
        try store.writeIndex(from: catalog)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == rewritten)
    }

    /// An entry only JSONEncoder writes (a yank reason with a quote) sends the whole index to it,
    /// the entries kept from a skimmed read included: the bytes a rebuild of the whole index writes.
    /// The index is then decoded whole, and a skimmed read and a whole one of the same bytes agree.
    @Test func anEntryOnlyJSONEncoderWritesTakesTheKeptOnesAlong() throws {
        let (folder, catalog, publisher, path) = try Self.twoPacks()
        defer { withExtendedLifetime(folder) {} }  // the packs and the store live in it until the end
        let store = publisher.store
        let before = try ManifestRefresher.decodeIndex(Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try store.readSkimmedIndex()?.pack("b") == before.packs["b"])
        #expect(try store.readIndex() == before)
        #expect(try publisher.yank("a", SemanticVersion("1.0.0")!, reason: "say \"no\"") == .yanked)
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(StoreIndex.skim(after) == nil)
        let index = try ManifestRefresher.decodeIndex(after)
        #expect(index.packs["a"]?.versions["1.0.0"]?.yankReason == "say \"no\"" && index.packs["b"] == before.packs["b"])
        #expect(try store.readSkimmedIndex()?.pack("a") == index.packs["a"])
        try store.writeIndex(from: catalog)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == after)
    }

    /// An entry changed behind soundpack's back with its counts unchanged is kept by a publish of
    /// another pack; verify names the pack, and publishing that pack's folder writes its entry again.
    @Test func verifyNamesAnEntryChangedBehindItsBackAndPublishingThatPackRepairsIt() throws {
        let folder = TemporaryFolder()
        let catalog = try SQLiteCatalog(path: folder.file("catalog.sqlite"))
        let store = Store.directory(folder.file("dist"))
        let publisher = Publisher(catalog: catalog, store: store)
        let b = try Self.pack("b", "1.0.0", in: folder)
        _ = try publisher.publish(folders: [try Self.pack("a", "1.0.0", in: folder), b])
        let path = folder.file("dist/index.json")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let digest = try #require(try ManifestRefresher.decodeIndex(Data(text.utf8)).packs["b"]?.versions["1.0.0"]?.digest)
        try text.replacingOccurrences(of: digest, with: String(repeating: "0", count: digest.count)).write(toFile: path, atomically: true, encoding: .utf8)
        _ = try publisher.publish(folders: [try Self.pack("a", "1.1.0", in: folder)])
        let drifts = try StoreVerifier(catalog: catalog, store: store).verify().drifts
        #expect(drifts.map(\.rule) == [.storeIndex])
        #expect(drifts.first?.message.contains("in the entries of b (soundpack publish of those packs' folders rewrites their entries)") == true,
                "\(drifts.map(\.message))")
        #expect(try publisher.publish(folders: [b]).map(\.status) != [.published])
        #expect(try StoreVerifier(catalog: catalog, store: store).verify().drifts.isEmpty)
    }
}

/// A version appears in the store whole or not at all; what an interrupted publish leaves is a
/// notice for verify and is cleaned by the next publish.
@Suite struct StoreStagingTests {
    @Test func aVersionThatFailsMidwayLeavesNothingBehind() throws {
        let folder = TemporaryFolder()
        let backend = DirectoryStore(root: folder.file("dist"))
        // The second file cannot be created under the first (a file is not a folder).
        #expect(throws: SoundpackError.self) {
            try backend.writeVersion("p/1.0.0", files: [("clips", Data("x".utf8)), ("clips/a.caf", Data("y".utf8))])
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("dist/p/1.0.0")))
        #expect(try backend.leftovers().isEmpty)
        #expect(try backend.list().isEmpty)
    }

    @Test func leftoversAreNoticesAndTheNextPublishRemovesThem() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder)
        let catalog = try SQLiteCatalog(path: folder.file("catalog.sqlite"))
        let store = Store.directory(folder.file("dist"))
        // What kills leave: a half-staged version, a temporary index, and a whole version never recorded.
        try FileManager.default.createDirectory(atPath: folder.file("dist/.staging/wechat@1.0.0-4194305-1/clips"), withIntermediateDirectories: true)
        try folder.write("{", to: "dist/.index.json.4194305.1.tmp")
        try folder.write("{}", to: "dist/other/2.0.0/manifest.json")
        try folder.write("x", to: "dist/other/2.0.0/clips/1.caf")
        let before = try StoreVerifier(catalog: catalog, store: store).verify()
        #expect(before.drifts.isEmpty)
        #expect(before.notices.allSatisfy { $0.rule == .storeLeftover && $0.severity == .note })
        #expect(before.notices.map(\.file) == [".staging/wechat@1.0.0-4194305-1", ".index.json.4194305.1.tmp", "other/2.0.0"])
        _ = try Publisher(catalog: catalog, store: store).publish(folders: [PackFolder(absolute: pack)])
        let after = try StoreVerifier(catalog: catalog, store: store).verify()
        #expect(after.drifts.isEmpty)
        #expect(after.notices.map(\.file) == ["other/2.0.0"])
        #expect(try store.backend.leftovers().isEmpty)
    }
}

/// SHA-256 through OpenSSL gives FIPS 180-4's answers, and the same as SoundpackCore's portable one.
@Suite struct DigestTests {
    @Test func knownAnswersAndAgreementWithThePortableHash() {
        #expect(Digest.sha256Hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Digest.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        for size in [1, 55, 56, 63, 64, 65, 1_000, 100_003] {
            let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
            #expect(Digest.sha256Hex(bytes) == PortableSHA256().sha256Hex(bytes), "\(size) bytes")
        }
    }
}

/// `audio.swapped`'s earlier clips: a clip whose bytes the pack under validation also holds takes
/// that clip's print, measured in the pack's own probe, and is read and checked but not probed again.
@Suite struct EarlierVoicesTests {
    /// The demo pack published at 1.0.0 into a folder store, and a copy at 1.0.1, inspected.
    static func publishedAndNext(_ folder: TemporaryFolder) throws -> (store: Store, next: InspectedPack) {
        let pack = try Fixtures.copyDemoPack(into: folder, as: "one")
        let catalog = try SQLiteCatalog(path: folder.file("catalog.sqlite"))
        let store = Store.directory(folder.file("dist"))
        let outcomes = try Publisher(catalog: catalog, store: store).publish(folders: [PackFolder(absolute: pack)])
        try #require(outcomes.map(\.status) == [.published])
        let next = try Fixtures.copyDemoPack(into: folder, as: "next", from: pack)
        try Fixtures.editManifest(next) { $0["version"] = "1.0.1" }
        return (store, PackInspector().inspect(folder: PackFolder(absolute: next)))
    }

    /// Every clip of 1.0.1 has 1.0.0's bytes: each print comes from the pack's own probe (clips
    /// measured side by side), and equals the one probing the stored file alone gives.
    @Test func knownBytesGiveTheSamePrintsAsProbingTheStore() throws {
        let folder = TemporaryFolder()
        let (store, next) = try Self.publishedAndNext(folder)
        let probed = try store.voices(of: "wechat", StoreTests.v1)
        #expect(probed.clips.count == 18)
        #expect(probed.clips.values.allSatisfy { !$0.print.values.isEmpty })
        let known = try #require(try store.earlierVoices()(next).get())
        #expect(known == probed)
        // The prints are the pack's: one changed in the inspected pack comes back changed.
        var marked = next
        let five = try #require(marked.clips.firstIndex { $0.key == "5" })
        var facts = try #require(marked.clips[five].facts)
        let stand = VoicePrint(values: [Float](repeating: 0.5, count: 3 * VoicePrint.bands))
        facts.print = stand
        marked.clips[five].probe = .success(facts)
        let taken = try #require(try store.earlierVoices()(marked).get())
        #expect(taken.clips["5"]?.print == stand)
        #expect(taken.clips["6"] == probed.clips["6"])
    }

    /// A known SHA-256's print is taken as it is (the file is not probed); the others are probed.
    @Test func aKnownFileIsNotProbedAgain() throws {
        let folder = TemporaryFolder()
        let (store, _) = try Self.publishedAndNext(folder)
        let probed = try store.voices(of: "wechat", StoreTests.v1)
        let five = try #require(probed.clips["5"])
        let stand = VoicePrint(values: [Float](repeating: 0.5, count: 3 * VoicePrint.bands))
        let taken = try store.voices(of: "wechat", StoreTests.v1, limits: AudioLimits(), known: [five.sha256: stand])
        #expect(taken.clips["5"]?.print == stand)
        #expect(taken.clips["6"] == probed.clips["6"])
    }

    /// A known file is still read and checked: altered in the store, it is an error naming it.
    @Test func aKnownFileAlteredInTheStoreIsStillAnError() throws {
        let folder = TemporaryFolder()
        let (store, next) = try Self.publishedAndNext(folder)
        try Data("not the clip".utf8).write(to: URL(fileURLWithPath: folder.file("dist/wechat/1.0.0/clips/5.caf")))
        guard case .failure(let error) = store.earlierVoices()(next) else {
            Issue.record("an altered clip of 1.0.0 was not said")
            return
        }
        #expect(error.description.contains("5.caf"), "\(error)")
    }
}

/// index.json read again (under the pack locks, then under the index lock): a folder's file still
/// holding the bytes last read is compared with them a piece at a time, not read into a new
/// buffer; any change, of any byte or of the length, is read.
@Suite struct IndexReadAgainTests {
    @Test func aFileHoldsExactlyTheKnownBytesOrNot() throws {
        let folder = TemporaryFolder()
        let backend = DirectoryStore(root: folder.file("dist"))
        // Lengths around the 64 KiB + 1 piece it is compared in.
        for length in [0, 1, 65_536, 65_537, 65_538, 131_074, 200_000] {
            let known = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) })
            try backend.write("index.json", known)
            #expect(try backend.holds("index.json", exactly: known, atMost: 1 << 20), "\(length)")
            for at in Set([0, length / 2, 65_536, 65_537, length - 1]) where at >= 0 && at < length {
                var changed = known
                changed[at] ^= 0x01
                try backend.write("index.json", changed)
                #expect(try !backend.holds("index.json", exactly: known, atMost: 1 << 20), "\(length), byte \(at)")
            }
            try backend.write("index.json", known + Data([0]))
            #expect(try !backend.holds("index.json", exactly: known, atMost: 1 << 20), "\(length) and one more")
            if length > 0 {
                try backend.write("index.json", known.dropLast())
                #expect(try !backend.holds("index.json", exactly: known, atMost: 1 << 20), "\(length) less one")
            }
        }
        #expect(try !backend.holds("other.json", exactly: Data(), atMost: 1 << 20))
        #expect(throws: SoundpackError.self) { try backend.holds("index.json", exactly: Data(), atMost: 10) }
        try FileManager.default.removeItem(atPath: folder.file("dist/index.json"))
        #expect(mkfifo(folder.file("dist/index.json"), 0o644) == 0)
        #expect(throws: SoundpackError.self) { try backend.holds("index.json", exactly: Data(), atMost: 1 << 20) }
    }

    /// An index changed in place to bytes of the same length (a digest's last digit) is read anew.
    @Test func anIndexChangedToTheSameLengthIsReadAgain() throws {
        let folder = TemporaryFolder()
        let store = Store.directory(folder.file("dist"))
        let version = StoreIndex.Version(digest: String(repeating: "a", count: 64), manifest: "wechat/1.0.0/manifest.json",
                                         manifestSha256: String(repeating: "b", count: 64), publishedAt: "2026-12-06T10:00:00.000Z",
                                         yanked: false, yankReason: nil)
        var index = StoreIndex(packs: ["wechat": StoreIndex.Pack(latest: "1.0.0", versions: ["1.0.0": version])])
        try store.backend.write("index.json", try #require(index.plainJSON()))
        #expect(try store.readIndex(of: ["wechat"]) == index)
        #expect(try store.readIndex(of: ["wechat"]) == index)
        index.packs["wechat"]?.versions["1.0.0"]?.digest = String(repeating: "a", count: 63) + "c"
        try store.backend.write("index.json", try #require(index.plainJSON()))
        #expect(try store.readIndex(of: ["wechat"])?.packs["wechat"]?.versions["1.0.0"]?.digest.hasSuffix("c") == true)
        #expect(try store.readIndex() == index)
    }
}

/// A folder store lists nothing, so its catalog keeps no MD5 it reads: only publish records one
/// (in the publication's own transaction).
@Suite struct FolderManifestMD5Tests {
    @Test func checkingEarlierVersionsOfAFolderStoreWritesNoMD5() throws {
        let folder = TemporaryFolder()
        let pack = try Fixtures.copyDemoPack(into: folder, as: "one")
        let catalog = try SQLiteCatalog(path: folder.file("catalog.sqlite"))
        let store = Store.directory(folder.file("dist"))
        for version in ["1.0.0", "1.0.1"] {
            try Fixtures.editManifest(pack) { $0["version"] = version }
            try #require(try Publisher(catalog: catalog, store: store).publish(folders: [PackFolder(absolute: pack)]).map(\.status) == [.published])
        }
        #expect(try catalog.publishedVersions(of: "wechat", withClips: false).allSatisfy { $0.manifestMD5 != nil })
        try catalog.db.execute("DELETE FROM manifest_md5s")
        _ = try StoreRecovery(store: store, catalog: catalog).recover(packID: "wechat", index: try store.readIndex(), listing: false)
        #expect(try catalog.publishedVersions(of: "wechat", withClips: false).allSatisfy { $0.manifestMD5 == nil })
    }
}

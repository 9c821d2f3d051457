// The S3 store against a real S3-compatible server (OpenStack Swift with s3api, started by the
// test command): bytes in and out, conditional writes, listing across pages, the headers a CDN
// reads, and a version folder that never overwrites an object.

import Foundation
import SoundpackCore
@testable import SoundpackKit
@testable import SoundpackStore
@testable import SoundpackCatalog
import SoundpackPublish
import SoundpackSupport
import SoundpackTestSupport
import Testing

@Suite(.enabled(if: S3TestServer.available))
struct S3StoreTests {
    @Test func bytesGoInAndComeOutWithTheirHeaders() throws {
        let store = try S3TestServer.store(try S3TestServer.freshStoreURL())
        let bytes = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try store.write("wechat/1.0.0/clips/元 yuan.caf", bytes)
        #expect(try store.read("wechat/1.0.0/clips/元 yuan.caf") == bytes)
        #expect(try store.read("wechat/1.0.0/clips/missing.caf") == nil)
        try store.write(StoreLayout.index, Data("{}\n".utf8))
        let clip = try store.send("HEAD", key: "wechat/1.0.0/clips/元 yuan.caf")
        #expect(clip.headers["content-type"] == "audio/x-caf")
        #expect(clip.headers["cache-control"] == "public, max-age=31536000, immutable")
        let index = try store.send("HEAD", key: StoreLayout.index)
        #expect(index.headers["content-type"] == "application/json")
        #expect(index.headers["cache-control"] == "public, max-age=60")
    }

    @Test func writeIfAbsentNeverReplaces() throws {
        let store = try S3TestServer.store(try S3TestServer.freshStoreURL())
        #expect(try store.writeIfAbsent("a/b.json", Data("1".utf8)))
        #expect(try !store.writeIfAbsent("a/b.json", Data("2".utf8)))
        #expect(try store.read("a/b.json") == Data("1".utf8))
    }

    @Test func listingFollowsContinuationTokensAndStaysUnderThePrefix() throws {
        let url = try S3TestServer.freshStoreURL(prefix: "team/voice")
        let store = try S3TestServer.store(url)
        store.listPageSize = 2
        let keys = (0..<7).map { "p\($0)/1.0.0/manifest.json" }
        for key in keys { try store.write(key, Data(key.utf8)) }
        // A key beside the prefix is not part of this store.
        let bucket = try S3TestServer.store(url.replacingOccurrences(of: "/team/voice", with: "/team"))
        try bucket.write("voice-other/x.json", Data("x".utf8))
        #expect(try store.list() == keys.sorted())
    }

    @Test func aVersionIsCompletedByARerunAndOtherBytesAreRefused() throws {
        let store = try S3TestServer.store(try S3TestServer.freshStoreURL())
        let files: [(name: String, data: Data)] = [("clips/1.caf", Data("one".utf8)), ("manifest.json", Data("{}".utf8)), ("pack.json", Data("p".utf8))]
        // A crash after the first file: the rerun finds it in place and writes the rest.
        try store.write("wechat/1.0.0/clips/1.caf", Data("one".utf8))
        try store.writeVersion("wechat/1.0.0", files: files)
        #expect(try store.list() == ["wechat/1.0.0/clips/1.caf", "wechat/1.0.0/manifest.json", "wechat/1.0.0/pack.json"])
        // Other bytes under a key of the version are refused and nothing is overwritten.
        #expect(throws: SoundpackError.self) {
            try store.writeVersion("wechat/1.0.0", files: [("clips/1.caf", Data("ONE".utf8))])
        }
        #expect(try store.read("wechat/1.0.0/clips/1.caf") == Data("one".utf8))
    }

    @Test func badLocationsAreRefusedBeforeAnyRequest() throws {
        let env = ["AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b"]
        #expect(throws: SoundpackError.self) { try S3Location(url: "s3://UPPER/x", endpoint: nil, environment: env) }
        #expect(throws: SoundpackError.self) { try S3Location(url: "s3://bucket/../x", endpoint: nil, environment: env) }
        #expect(throws: SoundpackError.self) { try S3Location(url: "s3://bucket/x", endpoint: "file:///etc", environment: env) }
        #expect(throws: SoundpackError.self) { try S3Location(url: "s3://bucket/x", endpoint: nil, environment: [:]) }
        let parsed = try S3Location(url: "s3://bucket/a//b/", endpoint: nil, environment: env.merging(["AWS_REGION": "eu-west-1"]) { $1 })
        #expect(parsed.prefix == "a/b" && parsed.endpoint == "https://s3.eu-west-1.amazonaws.com" && parsed.shown == "s3://bucket/a/b")
    }
}

/// A listing from a server that answers anything (no S3 server needed: a loopback server plays
/// it): one that never moves forward ends with an error naming why, never a loop, and one that
/// stops early is not taken for the whole store.
@Suite struct S3ListingTests {
    /// How a hostile server answers page `n` (0 first) of a listing.
    enum Server: String, CaseIterable, CustomStringConvertible {
        /// The same page and token every time.
        case sameTokenSamePage
        /// A new token every time, with the same keys.
        case newTokenSamePage
        /// A new token every time, no keys, always "more follow".
        case newTokenNoKeys
        /// Pages that go back: keys before the previous page's.
        case goesBack
        /// "More follow" without a token: the listing would end early and quietly.
        case truncatedWithoutToken

        var description: String { rawValue }

        func page(_ n: Int) -> String {
            let truncated = "<IsTruncated>true</IsTruncated>"
            func keys(_ names: [String]) -> String { names.map { "<Contents><Key>voice/\($0)</Key></Contents>" }.joined() }
            switch self {
            case .sameTokenSamePage: return truncated + "<NextContinuationToken>again</NextContinuationToken>" + keys(["a.json"])
            case .newTokenSamePage: return truncated + "<NextContinuationToken>t\(n)</NextContinuationToken>" + keys(["a.json"])
            case .newTokenNoKeys: return truncated + "<NextContinuationToken>t\(n)</NextContinuationToken>"
            case .goesBack: return truncated + "<NextContinuationToken>t\(n)</NextContinuationToken>" + keys(["z\(1_000_000 - n).json"])
            case .truncatedWithoutToken: return truncated + keys(["a.json"])
            }
        }
    }

    @Test(arguments: Server.allCases)
    func aListingThatDoesNotMoveForwardEndsWithAnError(_ server: Server) throws {
        let folder = TemporaryFolder()
        let loopback = try LoopbackHTTPServer(serving: folder.path)
        defer { loopback.stop() }
        let served = Counter()
        loopback.answer { path in
            guard path.hasPrefix("/bucket?") else { return nil }
            return Data(("<?xml version=\"1.0\"?><ListBucketResult><Name>bucket</Name>" + server.page(served.next()) + "</ListBucketResult>").utf8)
        }
        let store = try S3Store(S3Location(url: "s3://bucket/voice", endpoint: loopback.baseURL,
                                           environment: ["AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b"]))
        // On a thread of its own, so a listing that loops fails this test instead of hanging it.
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Thread {
            do throws(SoundpackError) { outcome.set(.success(try store.list())) } catch { outcome.set(.failure(error)) }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + 20) == .success else {
            Issue.record("\(server): the listing did not end (\(served.count) pages asked for)")
            return
        }
        switch outcome.get() {
        case .success(let keys)?: Issue.record("\(server): listed \(keys) instead of refusing the listing")
        case .failure(let error)?:
            #expect(error.description.contains("cannot list s3://bucket/voice: the server's listing does not move forward"), "\(error.description)")
            #expect(served.count <= 3, "\(server): \(served.count) pages")
        case nil: Issue.record("no outcome")
        }
    }

    /// The listing as the server sent it, across pages, is what an honest server's gives.
    @Test func anHonestListingIsReadWhole() throws {
        var listing = S3Listing(prefix: "voice/", location: "s3://bucket/voice", endpoint: "http://127.0.0.1")
        let first = "<IsTruncated>true</IsTruncated><NextContinuationToken>n</NextContinuationToken><Key>voice/a</Key><Key>voice/b</Key>"
        #expect(try listing.add(page: Data(first.utf8)) == "n")
        #expect(try listing.add(page: Data("<IsTruncated>false</IsTruncated><Key>voice/c</Key><Key>voicemail/d</Key>".utf8)) == nil)
        #expect(listing.keys == ["a", "b", "c"])
    }
}

/// A count several threads share.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    /// The count before this call, then one more.
    func next() -> Int { lock.withLock { defer { value += 1 }; return value } }
}

/// What a thread came to.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<[String], SoundpackError>?
    func set(_ value: Result<[String], SoundpackError>) { lock.withLock { result = value } }
    func get() -> Result<[String], SoundpackError>? { lock.withLock { result } }
}

/// A version folder's listing: each object's size and the MD5 its ETag is, by its path in the
/// folder's bytes; what an earlier version's clips the pack holds too are checked by.
@Suite(.enabled(if: S3TestServer.available))
struct S3ListedObjectTests {
    @Test func aFolderListsItsObjectsWithSizesAndMD5s() throws {
        let url = try S3TestServer.freshStoreURL(prefix: "team/voice")
        let store = try S3TestServer.store(url)
        store.listPageSize = 2
        // Pairs, not a dictionary: Swift takes the two spellings of café for one String.
        let files = [("clips/5.caf", "five"), ("clips/caf\u{E9}.caf", "composed"), ("clips/cafe\u{301}.caf", "decomposed"),
                     ("clips/a&b <c>.caf", "entities"), ("manifest.json", "{}")]
        for (name, text) in files { try store.write("wechat/1.0.0/\(name)", Data(text.utf8)) }
        try store.write("wechat/1.0.1/clips/5.caf", Data("beside".utf8))
        try store.write("wechat/1.0.00/x", Data("a folder whose name starts alike".utf8))
        let listed = try store.listedObjects(under: "wechat/1.0.0")
        #expect(listed.count == files.count)
        for (name, text) in files {
            #expect(listed[name.pathKey] == ListedObject(bytes: Int64(text.utf8.count), md5: Digest.md5Hex(Data(text.utf8))), "\(name)")
        }
        #expect(throws: SoundpackError.self) { try store.listedObjects(under: "wechat/../x") }
    }

    @Test func anETagIsAnMD5OnlyWhenItIsOne() {
        let md5 = "9e107d9d372bb6826bd81d3542a419d6"
        #expect(ListedObject.md5(etag: "\"\(md5)\"") == md5)
        #expect(ListedObject.md5(etag: md5.uppercased()) == md5)
        #expect(ListedObject.md5(etag: "\"\(md5)-2\"") == nil)
        #expect(ListedObject.md5(etag: "\"\(md5.dropLast())\"") == nil)
        #expect(ListedObject.md5(etag: "\"\(md5.dropLast())g\"") == nil)
        #expect(ListedObject.md5(etag: "\"") == nil)
        #expect(ListedObject.md5(etag: "") == nil)
        #expect(Digest.md5Hex(Data("The quick brown fox jumps over the lazy dog".utf8)) == md5)
    }

    /// A listing page the server wrote otherwise: an entry without one key and one size is left
    /// out, an ETag that is no MD5 gives none, and entities in a key are read once.
    @Test func entriesAreReadOnlyWhenTheyAreWhole() throws {
        var listing = S3Listing(prefix: "voice/w/1.0.0/", location: "s3://b/voice", endpoint: "http://127.0.0.1:1", facts: true)
        let page = """
            <ListBucketResult><IsTruncated>false</IsTruncated>
            <Contents><Key>voice/w/1.0.0/a&amp;lt;b</Key><Size>3</Size><ETag>&quot;9e107d9d372bb6826bd81d3542a419d6&quot;</ETag></Contents>
            <Contents><Key>voice/w/1.0.0/b</Key><Size>-1</Size><ETag>&quot;9e107d9d372bb6826bd81d3542a419d6&quot;</ETag></Contents>
            <Contents><Key>voice/w/1.0.0/c</Key><Key>voice/w/1.0.0/d</Key><Size>1</Size></Contents>
            <Contents><Key>voice/w/1.0.0/e</Key><Size>4</Size><ETag>&quot;abc-2&quot;</ETag></Contents>
            <Contents><Key>voice/w/1.0.1/f</Key><Size>4</Size></Contents>
            <Contents><Key>voice/w/1.0.0/g&#13;&#x1F600;</Key><Size>5</Size></Contents>
            <Contents><Key>voice/w/1.0.0/g&amp;#13;</Key><Size>6</Size></Contents>
            <Contents><Key>voice/w/1.0.0/h&nbsp;</Key><Size>7</Size></Contents>
            <Contents><Key>voice/w/1.0.0/k&#x+41;</Key><Size>11</Size></Contents>
            <Contents><Key>voice/w/1.0.0/l&#;</Key><Size>12</Size></Contents>
            <Contents><Key>voice/w/1.0.0/i</Key><Size>8</Size></Contents>
            <Contents><Key>voice/w/1.0.0/i</Key><Size>9</Size></Contents>
            <Contents><Key>voice/w/1.0.0/\u{301}j</Key><Size>10</Size></Contents>
            </ListBucketResult>
            """
        #expect(try listing.add(page: Data(page.utf8)) == nil)
        // A character reference is its character, told apart from the same text written with &amp;;
        // an unknown entity and a key listed twice leave their entries out.
        #expect(listing.objects == ["a&lt;b".pathKey: ListedObject(bytes: 3, md5: "9e107d9d372bb6826bd81d3542a419d6"),
                                    "e".pathKey: ListedObject(bytes: 4, md5: nil),
                                    "g\r\u{1F600}".pathKey: ListedObject(bytes: 5, md5: nil),
                                    "g&#13;".pathKey: ListedObject(bytes: 6, md5: nil),
                                    "\u{301}j".pathKey: ListedObject(bytes: 10, md5: nil)])
        // The keys keep a combining mark just after the prefix (cut by bytes, not characters).
        #expect(listing.keys.contains("\u{301}j"))
    }
}

/// The clips of an earlier version in an S3 store that the pack holds too (the same SHA-256):
/// checked by one listing of the version folder instead of a request each, and read all the
/// same where the listing does not vouch for them.
@Suite(.enabled(if: S3TestServer.available))
struct S3EarlierVoicesTests {
    static func publishedAndNext(_ folder: TemporaryFolder) throws -> (store: Store, backend: S3Store, next: InspectedPack) {
        let pack = try Fixtures.copyDemoPack(into: folder, as: "one")
        let backend = try S3TestServer.store(try S3TestServer.freshStoreURL())
        let store = Store(backend: backend)
        let catalog = try SQLiteCatalog(path: folder.file("catalog.sqlite"))
        let outcomes = try Publisher(catalog: catalog, store: store).publish(folders: [PackFolder(absolute: pack)])
        try #require(outcomes.map(\.status) == [.published])
        let next = try Fixtures.copyDemoPack(into: folder, as: "next", from: pack)
        try Fixtures.editManifest(next) { $0["version"] = "1.0.1" }
        return (Store(backend: backend), backend, PackInspector().inspect(folder: PackFolder(absolute: next)))
    }

    @Test func clipsThePackHoldsAreCheckedByTheListing() throws {
        let folder = TemporaryFolder()
        let (store, backend, next) = try Self.publishedAndNext(folder)
        let before = backend.requests.load(ordering: .relaxed)
        let probed = try store.voices(of: "wechat", StoreTests.v1)
        let reading = backend.requests.load(ordering: .relaxed) - before
        let known = try #require(try store.earlierVoices()(next).get())
        let listing = backend.requests.load(ordering: .relaxed) - before - reading
        #expect(known == probed)
        // The manifest and 18 clips, against index.json, the manifest and one listing page.
        #expect(reading == 19)
        #expect(listing == 3)
    }

    /// What reading `next`'s earlier voices from `store` says went wrong; nil when it went right.
    static func error(of store: Store, _ next: InspectedPack) -> String? {
        guard case .failure(let error) = store.earlierVoices()(next) else { return nil }
        return error.description
    }

    @Test func aKnownClipAlteredInTheStoreIsStillAnError() throws {
        let folder = TemporaryFolder()
        let (store, backend, next) = try Self.publishedAndNext(folder)
        try backend.write("wechat/1.0.0/clips/5.caf", Data("not the clip".utf8))
        let error = try #require(Self.error(of: store, next))
        #expect(error.contains("5.caf") && error.contains("another SHA-256"), "\(error)")
    }

    /// A known clip gone from the store: the listing does not name it, so it is read, and missing.
    @Test func aKnownClipDeletedFromTheStoreIsStillAnError() throws {
        let folder = TemporaryFolder()
        let (store, backend, next) = try Self.publishedAndNext(folder)
        #expect(try backend.send("DELETE", key: "wechat/1.0.0/clips/5.caf").status == 204)
        let error = try #require(Self.error(of: store, next))
        #expect(error.contains("5.caf") && error.contains("missing"), "\(error)")
    }

    /// The same size and other bytes: the listing's MD5 tells them apart.
    @Test func aKnownClipOfTheSameSizeWithOtherBytesIsStillAnError() throws {
        let folder = TemporaryFolder()
        let (store, backend, next) = try Self.publishedAndNext(folder)
        var bytes = try #require(try backend.read("wechat/1.0.0/clips/5.caf"))
        bytes[bytes.count - 1] ^= 0x01
        try backend.write("wechat/1.0.0/clips/5.caf", bytes)
        let error = try #require(Self.error(of: store, next))
        #expect(error.contains("5.caf"), "\(error)")
    }
}

/// The earlier versions a publish checks in an S3 store (the catalog's digests against the
/// store's manifests): by one listing of the pack's folder where the catalog records each
/// manifest's MD5, by reading each where it does not, and recorded then.
@Suite(.enabled(if: S3TestServer.available))
struct S3ManifestCheckTests {
    /// Three versions of the demo pack published to a new S3 store with a `backend` catalog.
    static func published(_ folder: TemporaryFolder, _ backend: CatalogBackend) throws -> (store: Store, s3: S3Store, catalog: SQLCatalog) {
        let s3 = try S3TestServer.store(try S3TestServer.freshStoreURL())
        let store = Store(backend: s3)
        let catalog = try backend.open(try backend.freshLocation(in: folder))
        let pack = try Fixtures.copyDemoPack(into: folder, as: "one")
        for version in ["1.0.0", "1.0.1", "1.0.2"] {
            try Fixtures.editManifest(pack) { $0["version"] = version }
            let outcomes = try Publisher(catalog: catalog, store: store).publish(folders: [PackFolder(absolute: pack)])
            try #require(outcomes.map(\.status) == [.published])
        }
        // A store of its own: a store lists each pack folder once and keeps the listing.
        return (Store(backend: s3), s3, catalog)
    }

    /// The requests a check of wechat's earlier versions makes.
    static func requests(_ store: Store, _ s3: S3Store, _ catalog: SQLCatalog) throws -> Int {
        let before = s3.requests.load(ordering: .relaxed)
        _ = try StoreRecovery(store: store, catalog: catalog).recover(packID: "wechat", index: try store.readIndex(), listing: false)
        return s3.requests.load(ordering: .relaxed) - before - 1  // index.json
    }

    @Test(arguments: CatalogBackend.available)
    func publishRecordsEachManifestsMD5AndOneListingChecksThem(_ backend: CatalogBackend) throws {
        let folder = TemporaryFolder()
        let (store, s3, catalog) = try Self.published(folder, backend)
        for version in try catalog.publishedVersions(of: "wechat", withClips: false) {
            let bytes = try #require(try s3.read(StoreLayout.manifest("wechat", version.version)))
            #expect(version.manifestMD5 == Digest.md5Hex(bytes))
        }
        #expect(try Self.requests(store, s3, catalog) == 1)
    }

    /// The pack folder is listed once a run: the listing `audio.swapped` took of it checks the
    /// earlier manifests too, with no request of its own.
    @Test func theListingOfTheSwappedCheckServesTheManifestCheck() throws {
        let folder = TemporaryFolder()
        let (store, s3, catalog) = try Self.published(folder, .sqlite)
        let next = try Fixtures.copyDemoPack(into: folder, as: "next", from: folder.file("one"))
        try Fixtures.editManifest(next) { $0["version"] = "1.0.3" }
        let before = s3.requests.load(ordering: .relaxed)
        _ = try #require(try store.earlierVoices()(PackInspector().inspect(folder: PackFolder(absolute: next))).get())
        // index.json, 1.0.2's manifest and the listing.
        #expect(s3.requests.load(ordering: .relaxed) - before == 3)
        #expect(try Self.requests(store, s3, catalog) == 0)
    }

    /// A catalog without the MD5s (written before them, or by an older soundpack): each manifest
    /// is read and checked, and its MD5 recorded, so the next check is one listing.
    @Test(arguments: CatalogBackend.available)
    func manifestsWithoutAnMD5AreReadAndTheirMD5sRecorded(_ backend: CatalogBackend) throws {
        let folder = TemporaryFolder()
        let (store, s3, catalog) = try Self.published(folder, backend)
        try catalog.db.execute("DELETE FROM manifest_md5s")
        #expect(try catalog.publishedVersions(of: "wechat", withClips: false).allSatisfy { $0.manifestMD5 == nil })
        #expect(try Self.requests(store, s3, catalog) == 3)
        #expect(try catalog.publishedVersions(of: "wechat", withClips: false).allSatisfy { $0.manifestMD5 != nil })
        #expect(try Self.requests(store, s3, catalog) == 1)
    }

    /// A manifest replaced in the store: its ETag is not the MD5 recorded, so it is read, and the
    /// drift is an error as before.
    @Test(arguments: CatalogBackend.available)
    func aManifestReplacedInTheStoreIsStillDrift(_ backend: CatalogBackend) throws {
        let folder = TemporaryFolder()
        let (store, s3, catalog) = try Self.published(folder, backend)
        let bytes = try #require(try s3.read(StoreLayout.manifest("wechat", StoreTests.v1)))
        var manifest = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        manifest["digest"] = String(repeating: "0", count: 64)
        try s3.write(StoreLayout.manifest("wechat", StoreTests.v1), try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys]))
        #expect {
            _ = try StoreRecovery(store: store, catalog: catalog).recover(packID: "wechat", index: try store.readIndex(), listing: false)
        } throws: { error in
            "\(error)".contains("wechat@1.0.0") && "\(error)".contains("source of truth")
        }
    }

    /// A catalog opened by this soundpack has the table; one whose table was dropped (an older
    /// catalog) has it again when opened, its versions without MD5s.
    @Test(arguments: CatalogBackend.available)
    func theTableIsMadeWhereMissing(_ backend: CatalogBackend) throws {
        let folder = TemporaryFolder()
        let location = try backend.freshLocation(in: folder)
        let catalog = try backend.open(location)
        #expect(try catalog.db.hasTable("manifest_md5s"))
        try catalog.db.execute("DROP TABLE manifest_md5s")
        #expect(try !catalog.db.hasTable("manifest_md5s"))
        #expect(try backend.open(location).db.hasTable("manifest_md5s"))
    }
}

/// index.json read again from an S3 store (under the pack locks, then under the index lock): a
/// GET that names the ETag of the bytes last read, which the server answers 304 while they are
/// the store's; any change is read.
@Suite(.enabled(if: S3TestServer.available))
struct S3IndexReadAgainTests {
    @Test func aReadNamingTheETagIsAnsweredUnchangedUntilTheObjectChanges() throws {
        let s3 = try S3TestServer.store(try S3TestServer.freshStoreURL())
        #expect(try { if case .missing = try s3.read("index.json", atMost: 1 << 20, unlessETag: nil) { true } else { false } }())
        try s3.write("index.json", Data("{\"a\":1}".utf8))
        guard case .bytes(let data, let etag?) = try s3.read("index.json", atMost: 1 << 20, unlessETag: nil) else {
            Issue.record("no bytes, or no ETag")
            return
        }
        #expect(data == Data("{\"a\":1}".utf8))
        #expect(try { if case .unchanged = try s3.read("index.json", atMost: 1 << 20, unlessETag: etag) { true } else { false } }())
        try s3.write("index.json", Data("{\"a\":2}".utf8))
        guard case .bytes(let changed, _) = try s3.read("index.json", atMost: 1 << 20, unlessETag: etag) else {
            Issue.record("a changed object was taken as unchanged")
            return
        }
        #expect(changed == Data("{\"a\":2}".utf8))
    }

    /// A Store reading index.json again sees every change, and the same bytes as the same index.
    @Test func theStoreSeesEveryChange() throws {
        let folder = TemporaryFolder()
        let (store, s3, _) = try S3ManifestCheckTests.published(folder, .sqlite)
        let first = try #require(try store.readIndex())
        let answered = s3.notModified.load(ordering: .relaxed)  // the publishes' reads again
        #expect(try store.readIndex() == first)
        var bytes = try #require(try s3.read(StoreLayout.index))
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\"1.0.0\"", with: "\"1.0.9\"")
        bytes = Data(text.utf8)
        try s3.write(StoreLayout.index, bytes)
        // The first read again was answered 304; the one after the change brought the new bytes.
        #expect(s3.notModified.load(ordering: .relaxed) - answered == 1)
        let changed = try #require(try store.readIndex())
        #expect(s3.notModified.load(ordering: .relaxed) - answered == 1)
        #expect(changed != first)
        #expect(changed.packs["wechat"]?.versions["1.0.9"] != nil)
    }
}

/// On PostgreSQL the side table belongs to the role that made it: another role that may use the
/// catalog's tables but not this one publishes, lists and checks without it.
@Suite(.enabled(if: CatalogBackend.available.contains(.postgresql)))
struct ManifestMD5sOfAnotherRoleTests {
    static func psql(_ url: String, _ sql: String) throws {
        let psql = Process()
        psql.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        psql.arguments = ["psql", url, "-v", "ON_ERROR_STOP=1", "-qc", sql]
        psql.standardOutput = FileHandle.nullDevice
        try psql.run()
        psql.waitUntilExit()
        try #require(psql.terminationStatus == 0, "psql: \(sql)")
    }

    @Test func aRoleThatMayNotUseTheTablePublishesWithoutIt() throws {
        let folder = TemporaryFolder()
        let owner = try CatalogBackend.postgresql.freshLocation(in: folder)
        _ = try CatalogBackend.postgresql.open(owner)
        let role = "r_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        try Self.psql(owner, """
            CREATE ROLE \(role) LOGIN; GRANT USAGE, CREATE ON SCHEMA public TO \(role);
            GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \(role);
            GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO \(role);
            REVOKE ALL ON manifest_md5s FROM \(role)
            """)
        let url = owner.replacingOccurrences(of: "://soundpack@", with: "://\(role)@")
        try #require(url != owner)
        let catalog = try CatalogBackend.postgresql.open(url)
        #expect(try !catalog.db.hasUsableTable("manifest_md5s"))
        let pack = try Fixtures.copyDemoPack(into: folder, as: "one")
        let store = Store.directory(folder.file("dist"))
        for version in ["1.0.0", "1.0.1"] {
            try Fixtures.editManifest(pack) { $0["version"] = version }
            let outcomes = try Publisher(catalog: catalog, store: store).publish(folders: [PackFolder(absolute: pack)])
            #expect(outcomes.map(\.status) == [.published], "\(outcomes.map(\.message))")
        }
        #expect(try catalog.publishedVersions(of: "wechat", withClips: false).map { $0.manifestMD5 == nil } == [true, true])
        // The owner's view of the same rows: nothing was recorded for them.
        #expect(try CatalogBackend.postgresql.open(owner).publishedVersions(of: "wechat", withClips: false).allSatisfy { $0.manifestMD5 == nil })
    }
}

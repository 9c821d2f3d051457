// The S3 store against a real S3-compatible server (OpenStack Swift with s3api, started by the
// test command): bytes in and out, conditional writes, listing across pages, the headers a CDN
// reads, and a version folder that never overwrites an object.

import Foundation
import SoundpackCore
@testable import SoundpackKit
@testable import SoundpackStore
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

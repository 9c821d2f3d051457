// The S3 store against a real S3-compatible server (OpenStack Swift with s3api, started by the
// test command): bytes in and out, conditional writes, listing across pages, the headers a CDN
// reads, and a version folder that never overwrites an object.

import Foundation
import Testing
@testable import SoundpackKit
import SoundpackCore
import SoundpackTestSupport

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
        #expect(throws: StoreError.self) {
            try store.writeVersion("wechat/1.0.0", files: [("clips/1.caf", Data("ONE".utf8))])
        }
        #expect(try store.read("wechat/1.0.0/clips/1.caf") == Data("one".utf8))
    }

    @Test func badLocationsAreRefusedBeforeAnyRequest() throws {
        let env = ["AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b"]
        #expect(throws: StoreError.self) { try S3Location(url: "s3://UPPER/x", endpoint: nil, environment: env) }
        #expect(throws: StoreError.self) { try S3Location(url: "s3://bucket/../x", endpoint: nil, environment: env) }
        #expect(throws: StoreError.self) { try S3Location(url: "s3://bucket/x", endpoint: "file:///etc", environment: env) }
        #expect(throws: StoreError.self) { try S3Location(url: "s3://bucket/x", endpoint: nil, environment: [:]) }
        let parsed = try S3Location(url: "s3://bucket/a//b/", endpoint: nil, environment: env.merging(["AWS_REGION": "eu-west-1"]) { $1 })
        #expect(parsed.prefix == "a/b" && parsed.endpoint == "https://s3.eu-west-1.amazonaws.com" && parsed.shown == "s3://bucket/a/b")
    }
}

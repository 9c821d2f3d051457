// The phone side in SoundpackCore: local-notification sequences for iOS 12.1–14 and the cache of
// joined sounds in Library/Sounds.

import Foundation
import Testing
@testable import SoundpackCore

@Suite struct LocalNotificationSequenceTests {
    static func pack() throws -> SharedManifest { try SharedManifest(data: ClipPlannerTests.manifestJSON()) }

    /// A long amount: one notification per clip, each starting when the one before ends, by the
    /// manifest's durations; identifiers carry the payment, so a second payment queues after.
    @Test func offsetsAreTheCumulativeClipDurations() throws {
        let manifest = try Self.pack()
        let pack = try #require(manifest.packs["wechat"])
        let plan = try ClipPlanner(manifest: manifest, packID: "wechat").plan(amount: "98765432.1")
        let first = try LocalNotificationSequence.schedule(plan, pack: pack, payment: "p1")
        #expect(first.entries.count == plan.clips.count)
        #expect(first.entries.map(\.soundName) == plan.clips.map(\.file))
        var expected = LocalNotificationSequence.minimumOffsetSeconds
        for (entry, clip) in zip(first.entries, plan.clips) {
            #expect(abs(entry.offsetSeconds - expected) < 1e-9)
            expected += pack.clips[clip.token]?.durationSeconds ?? 0
        }
        #expect(abs(first.endSeconds - expected) < 1e-9)
        #expect(Set(first.entries.map(\.identifier)).count == first.entries.count)
        #expect(first.entries.allSatisfy { $0.identifier.hasPrefix("soundpack.announcement.p1.") })

        let second = try LocalNotificationSequence.schedule(plan, pack: pack, payment: "p2", startSeconds: first.endSeconds,
                                                            pending: first.entries.count)
        #expect((second.entries.first?.offsetSeconds ?? 0) >= first.endSeconds)
        #expect(Set(second.entries.map(\.identifier)).isDisjoint(with: first.entries.map(\.identifier)))
    }

    @Test func iOSsPendingLimitIsRespected() throws {
        let manifest = try Self.pack()
        let plan = try ClipPlanner(manifest: manifest, packID: "wechat").plan(amount: "98765432.1")
        #expect(throws: LocalNotificationSequence.PlanningError.tooManyClips(needed: plan.clips.count, free: 4)) {
            try LocalNotificationSequence.schedule(plan, pack: try #require(manifest.packs["wechat"]), payment: "p", pending: 60)
        }
    }
}

@Suite struct JoinedSoundCacheTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("soundpack-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func leastRecentlyUsedSoundsGoFirstUnderTheBudget() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var clock = Date(timeIntervalSince1970: 1_000_000)
        var cache = JoinedSoundCache(folder: folder, budgetBytes: 250_000)
        func at(_ date: Date) -> JoinedSoundCache { var c = cache; c.now = { date }; return c }
        let sound = Data(repeating: 7, count: 100_000)
        try at(clock).store(sound, named: "soundpack-wechat-1.0.0-1.00.caf")
        clock += 10
        try at(clock).store(sound, named: "soundpack-wechat-1.0.0-2.00.caf")
        clock += 10
        // Using 1.00 makes 2.00 the least recently used.
        #expect(at(clock).sound(named: "soundpack-wechat-1.0.0-1.00.caf") != nil)
        clock += 10
        try at(clock).store(sound, named: "soundpack-wechat-1.0.0-3.00.caf")
        cache = at(clock)
        #expect(cache.sound(named: "soundpack-wechat-1.0.0-2.00.caf") == nil)
        #expect(cache.sound(named: "soundpack-wechat-1.0.0-1.00.caf") != nil)
        #expect(cache.sound(named: "soundpack-wechat-1.0.0-3.00.caf") != nil)
        #expect(cache.totalBytes <= 250_000)
    }

    @Test func aKilledJoinsTemporaryIsRemovedAndClipsAreLeftAlone() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stale = folder.appendingPathComponent(".soundpack-\(UUID().uuidString).partial.caf")
        try Data(repeating: 1, count: 10).write(to: stale)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3_600)], ofItemAtPath: stale.path)
        let fresh = JoinedSoundCache(folder: folder).temporaryURL()
        try Data(repeating: 2, count: 10).write(to: fresh)
        try Data(repeating: 3, count: 10).write(to: folder.appendingPathComponent("shi.caf"))  // a downloaded clip
        JoinedSoundCache(folder: folder, budgetBytes: 0).evict()
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path), "a join in progress is kept")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("shi.caf").path))
    }
}

/// What a push or a store can hand the refresher, hostile or not.
@Suite struct ManifestRefresherInputTests {
    @Test func pinsAreAPackIDAndAnOptionalVersion() {
        #expect(PackRef("wechat@1.0.1") == PackRef(id: "wechat", version: SemanticVersion("1.0.1")))
        #expect(PackRef("wechat") == PackRef(id: "wechat", version: nil))
        for hostile in ["", "@1.0.0", "../x@1.0.0", "wechat@", "wechat@1.0", "wechat@1.0.0/../../x", "WeChat", "wechat\n@1.0.0"] {
            #expect(PackRef(hostile) == nil, "\(hostile.debugDescription)")
        }
    }

    @Test func clipPathsMustStayInTheirFolder() {
        for good in ["clips/shi.caf", "5.caf", "clips/元.caf"] { #expect(ManifestRefresher.isSafeStorePath(good), "\(good)") }
        for bad in ["", "/etc/passwd", "clips/../../x.caf", "..", "clips//x.caf", "clips/.hidden.caf", "a\\b.caf", "clips/x\n.caf", "clips/"] {
            #expect(!ManifestRefresher.isSafeStorePath(bad), "\(bad.debugDescription)")
        }
    }

    @Test func aManifestWhoseClipLeavesItsFolderIsRefused() throws {
        let json = """
        {"schemaVersion":1,"id":"wechat","version":"1.0.0","grammar":"zh-Hans","two":"er","maxAmount":"99.99","profile":"ios-notification",
         "texts":{},"digest":"00","clips":{"5":{"file":"../../Library/Preferences/x.plist","bytes":1,"sha256":"00","frames":1,
         "durationSeconds":0.1,"container":"caf","codec":"lpcm","sampleRate":22050,"channels":1}},
         "packJSON":{"file":"pack.json","bytes":1,"sha256":"00"},"archives":{}}
        """
        #expect(throws: ManifestDecodingError.self) { try ManifestRefresher.decodeManifest(Data(json.utf8)) }
        let repeated = #"{"schemaVersion":1,"packs":{"a":{"versions":{}},"a":{"versions":{}}}}"#
        #expect(throws: ManifestDecodingError.self) { try ManifestRefresher.decodeIndex(Data(repeated.utf8)) }
        #expect(try ManifestRefresher.decodeIndex(Data(#"{"schemaVersion":1,"packs":{}}"#.utf8)).packs.isEmpty)
    }

    /// What every reader of a store builds paths or alerts from is refused when it is not what
    /// publish writes: index ids and versions, pack.json and archive paths, texts with controls.
    @Test(arguments: [
        (#""clips":{}"#, #""packJSON":{"file":"../pack.json","bytes":1,"sha256":"00"}"#, #""texts":{}"#),
        (#""clips":{}"#, #""packJSON":{"file":"pack.json","bytes":1,"sha256":"00"},"archives":{"zip":{"file":"../../x.zip","bytes":1,"sha256":"00"}}"#, #""texts":{}"#),
        (#""clips":{}"#, #""packJSON":{"file":"pack.json","bytes":1,"sha256":"00"}"#, #""texts":{"prefix":"微信\u0000"}"#),
        (#""clips":{}"#, #""packJSON":{"file":"pack.json","bytes":1,"sha256":"00"}"#, #""texts":{"pre\u001bfix":"x"}"#),
        (#""clips":{},"phrases":{"p":["wechat","{amount}"]},"defaultPhrase":"p""#, #""packJSON":{"file":"pack.json","bytes":1,"sha256":"00"}"#, #""texts":{}"#),
    ])
    func aManifestWithWhatPublishNeverWritesIsRefused(_ clips: String, _ files: String, _ texts: String) throws {
        let json = """
        {"schemaVersion":1,"id":"wechat","version":"1.0.0","grammar":"zh-Hans","two":"er","maxAmount":"99.99","profile":"ios-notification",
         \(texts),"digest":"00",\(clips),\(files)\(files.contains("archives") ? "" : #","archives":{}"#)}
        """
        #expect(throws: ManifestDecodingError.self, "\(json)") { try ManifestRefresher.decodeManifest(Data(json.utf8)) }
        // The same manifest as publish writes it decodes.
        let written = """
        {"schemaVersion":1,"id":"wechat","version":"1.0.0","grammar":"zh-Hans","two":"er","maxAmount":"99.99","profile":"ios-notification",
         "texts":{"prefix":"微信","wechat":"微信"},"digest":"00","clips":{},"phrases":{"p":["wechat","{amount}"]},"defaultPhrase":"p",
         "packJSON":{"file":"pack.json","bytes":1,"sha256":"00"},"archives":{"zip":{"file":"wechat-1.0.0.zip","bytes":1,"sha256":"00"}}}
        """
        #expect(try ManifestRefresher.decodeManifest(Data(written.utf8)).texts.count == 2)
    }

    @Test(arguments: [#"{"../evil":{"versions":{}}}"#, #"{"wechat":{"versions":{"1.0":{"digest":"d","manifest":"m","manifestSha256":"s","publishedAt":"t","yanked":false}}}}"#,
                      #"{"wechat":{"latest":"../1","versions":{}}}"#])
    func anIndexWhoseIDsOrVersionsAreNotOnesIsRefused(_ packs: String) throws {
        #expect(throws: ManifestDecodingError.self) { try ManifestRefresher.decodeIndex(Data(#"{"schemaVersion":1,"packs":\#(packs)}"#.utf8)) }
        let good = #"{"wechat":{"latest":"1.0.0","versions":{"1.0.0":{"digest":"d","manifest":"m","manifestSha256":"s","publishedAt":"t","yanked":false}}}}"#
        #expect(try ManifestRefresher.decodeIndex(Data(#"{"schemaVersion":1,"packs":\#(good)}"#.utf8)).packs.count == 1)
    }
}

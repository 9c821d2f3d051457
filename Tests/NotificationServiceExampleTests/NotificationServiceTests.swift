// The example's own NotificationService and SoundpackSetup, run end to end on Linux against the
// stand-ins of Apple's frameworks and the store on loopback: a payload in, the content handler
// called once, and the sound it names in the group's Library/Sounds, whose samples (read with
// libsndfile) are the pack's clips end to end.

import Foundation
import Testing
@_spi(StandIn) import AVFoundation
import SoundpackCore
import SoundpackKit
import SoundpackTestSupport
@_spi(StandIn) import UserNotifications
@testable import NotificationServiceExample

@Suite struct NotificationServiceTests {
    @Test(arguments: StoreTrust.allCases)
    func aPaymentIsAnnouncedWithItsClipsEndToEnd(trust: StoreTrust) async throws {
        let phone = try Phone.make(trust: trust)
        defer { phone.tearDown() }
        try phone.install()
        let (shown, calls) = await phone.push(try phone.request("1234.56"))
        #expect(calls.count == 1)
        #expect(shown.interruptionLevel == .timeSensitive)
        let name = try #require(shown.soundName, "delivered with \(shown.sound == nil ? "no" : "the default") sound: \(phone.reports) userInfo \(shown.userInfo.keys.map { "\($0)" }.sorted())")
        #expect(name == "soundpack-wechat-1.0.0-1234.56.caf")
        #expect(try phone.played(name) == phone.clipsEndToEnd("1234.56"))
        // Bundled clips (prefix, 元) were never downloaded; nothing half-written is left behind.
        #expect(!phone.server.requests.contains { $0.hasSuffix("/prefix.caf") || $0.hasSuffix("/yuan.caf") })
        let left = try FileManager.default.contentsOfDirectory(atPath: phone.sounds.path)
        #expect(!left.contains { $0.hasPrefix(".") }, "\(left)")
        if trust == .signed {
            #expect(phone.server.requests.contains("/wechat/1.0.0/manifest.json.sig"), "the signature was not checked: \(phone.server.requests)")
        }
    }

    /// IMA4 clips (a quarter of the bytes to download): the extension decodes them and joins them
    /// into a 16-bit PCM CAF of the clips end to end. libsndfile reads no IMA4 CAF, and IMA4 is
    /// lossy: the joined samples are held against the recordings the clips were converted from,
    /// frame for frame, within IMA4's error.
    @Test func ima4ClipsAreJoinedIntoPCM() async throws {
        let phone = try Phone.make(codec: "ima4")
        defer { phone.tearDown() }
        try phone.install()
        let (shown, calls) = await phone.push(try phone.request("1234.56"))
        #expect(calls.count == 1)
        let name = try #require(shown.soundName, "\(phone.reports)")
        let recorded = try LibSndFileSamples.concatenation(of: phone.clipPaths("1234.56").map { Fixtures.demoPack + "/clips/" + URL(fileURLWithPath: $0).lastPathComponent })
        let played = try phone.played(name)
        #expect(played.sampleRate == recorded.sampleRate && played.channels == recorded.channels && played.samples.count == recorded.samples.count,
                "\(played) joined from clips of \(recorded)")
        let snr = played.signalToNoise(against: recorded)
        #expect(snr > 20, "the joined sound is \(snr) dB from the recordings: not these clips in this order")
        let format = try AudioProbe().probe(path: phone.sounds.appendingPathComponent(name).path)
        #expect(format.codec == .lpcm && format.container == .caf)
        let clip = try AudioProbe().probe(path: phone.project.file("packs/wechat/clips/5.caf"))
        #expect(clip.codec == .ima4)
    }

    /// A push naming a phrase: the extension joins that phrase's clips and the amount, under a name
    /// of its own; a phrase without an amount needs none, and a phrase the version does not have is
    /// said as the default phrase.
    @Test(arguments: StoreTrust.allCases)
    func aPhraseIsAnnouncedWithItsClipsEndToEnd(trust: StoreTrust) async throws {
        let phone = try Phone.make(pack: "merchant", bundled: ["wechat.caf", "yuan.caf"], trust: trust)
        defer { phone.tearDown() }
        try phone.install()
        let (refund, calls) = await phone.push(try phone.request("15.40", pack: "merchant", extra: ["--phrase", "refund"]))
        #expect(calls.count == 1)
        #expect(refund.body == "退款15.40元")
        let name = try #require(refund.soundName, "\(phone.reports)")
        #expect(name == "soundpack-merchant-1.0.0-refund.15.40.caf")
        #expect(try phone.played(name) == phone.clipsEndToEnd("15.40", pack: "merchant", phrase: "refund"))

        let (order, _) = await phone.push(try phone.request(nil, pack: "merchant", extra: ["--phrase", "order"]))
        #expect(order.body == "您有一笔新订单")
        let orderName = try #require(order.soundName, "\(phone.reports)")
        #expect(orderName == "soundpack-merchant-1.0.0-order.caf")
        #expect(try phone.played(orderName) == phone.clipsEndToEnd(nil, pack: "merchant", phrase: "order"))

        // A push written for a phrase this version lacks falls back to the default phrase.
        let written = try phone.run(["payload", "2", "--pack", "merchant", "--phrase", "alipay", "--base-url", phone.server.baseURL]).stdout
        var payload = try #require(try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: Any])
        payload["phrase"] = "gift"
        let (gift, _) = await phone.push(try Phone.request(payload: try JSONSerialization.data(withJSONObject: payload)))
        let giftName = try #require(gift.soundName, "\(phone.reports)")
        #expect(giftName == "soundpack-merchant-1.0.0-wechat.2.caf")
        #expect(try phone.played(giftName) == phone.clipsEndToEnd("2", pack: "merchant"))
    }

    @Test func aPushWithoutAnAmountIsDeliveredAsSent() async throws {
        let phone = try Phone.make()
        defer { phone.tearDown() }
        try phone.install()
        let request = try Phone.request(payload: Data(#"{"aps":{"alert":{"body":"hello"},"mutable-content":1,"sound":"default"}}"#.utf8))
        let (shown, calls) = await phone.push(request)
        #expect(calls.count == 1)
        #expect(shown.body == "hello" && shown.sound != nil && shown.soundName == nil)
    }

    @Test func aSlowStoreDeliversTheOriginalOnceAndChangesNothingAfterwards() async throws {
        let phone = try Phone.make()
        defer { phone.tearDown() }
        try phone.install()
        for style in [AnnouncementStyle.joinedSound, .localSequence] {
            // The clips come only once the extension's time is up, however loaded the machine.
            phone.server.hold { $0.hasSuffix(".caf") }
            let host = NotificationServiceHost(timeLimit: 0.5, graceSeconds: 0.5)
            let (shown, calls) = await phone.push(try phone.request("98765432.1"), style: style, host: host)
            #expect(calls.count == 1)
            #expect(shown.sound != nil && shown.soundName == nil, "\(style): not the default sound: \(phone.reports)")
            // Let the downloads finish: the extension must not change or schedule anything now.
            phone.server.release()
            try await Task.sleep(nanoseconds: 3_500_000_000)
            #expect(host.handlerCalls.count == 1)
            // Nor write a sound: no joined (or prefix-alone) file appears once the push is delivered.
            let written = try FileManager.default.contentsOfDirectory(atPath: phone.sounds.path).filter { $0.hasPrefix("soundpack-") }
            #expect(written.isEmpty, "\(style): joined after expiry: \(written)")
            #expect(phone.center.history.added.isEmpty, "\(style): scheduled after expiry: \(phone.center.history.added.map(\.identifier))")
            #expect(host.effectsAfterTermination.isEmpty, "\(style): asked for after the extension was gone: \(host.effectsAfterTermination)")
        }
    }

    @Test(arguments: StoreTrust.allCases)
    func onePaymentIsAnnouncedOnce(trust: StoreTrust) async throws {
        let phone = try Phone.make(trust: trust)
        defer { phone.tearDown() }
        try phone.install()
        let payload = try phone.run(["payload", "15.40", "--pack", "wechat", "--payment-id", "order-2026-0001"]).stdout
        #expect(payload.contains(#""paymentId" : "order-2026-0001""#))
        let first = await phone.push(try Phone.request(payload: Data(payload.utf8)))
        #expect(first.shown.soundName == "soundpack-wechat-1.0.0-15.40.caf", "\(phone.reports)")
        // APNs delivers it again (another request identifier, the same payment): silent this time.
        let retry = await phone.push(try Phone.request(payload: Data(payload.utf8)))
        #expect(retry.calls.count == 1)
        #expect(retry.shown.sound == nil)
        #expect(SoundpackSetup.wasAnnounced(paymentID: "order-2026-0001", configuration: phone.configuration))
        // Another payment of the same amount is spoken.
        let other = await phone.push(try phone.request("15.40"))
        #expect(other.shown.soundName == "soundpack-wechat-1.0.0-15.40.caf")
    }

    @Test func whenTheAmountCannotBeHadThePrefixIsSaid() async throws {
        let phone = try Phone.make()
        defer { phone.tearDown() }
        try phone.install()
        phone.server.hold { $0.hasSuffix(".caf") }
        let (shown, calls) = await phone.push(try phone.request("98765432.1")) { $0.downloadBudget = 0.5 }
        phone.server.release()
        #expect(calls.count == 1)
        let name = try #require(shown.soundName, "\(phone.reports)")
        #expect(name == "soundpack-wechat-1.0.0-framing.caf")
        #expect(try phone.played(name) == LibSndFileSamples.concatenation(of: [phone.project.file("packs/wechat/clips/prefix.caf")]))
    }

    @Test func theWrittenTextIsSpokenOnlyWhenTheAppOptsIn() async throws {
        let phone = try Phone.make(bundled: [])
        defer { phone.tearDown() }
        try phone.install()
        let request = try phone.request("15.40")
        phone.server.stop()  // the store is unreachable and nothing is on the phone
        let plain = await phone.push(request)
        #expect(plain.shown.sound != nil && plain.shown.soundName == nil)
        let opted = await phone.push(try Phone.request(payload: try JSONSerialization.data(withJSONObject: request.content.userInfo.reduce(into: [String: Any]()) {
            $0[$1.key as? String ?? ""] = $1.key as? String == "paymentId" ? "another-payment" : $1.value
        }))) { $0.speaksWrittenTextAsLastResort = true }
        let name = try #require(opted.shown.soundName, "\(phone.reports)")
        #expect(name == "soundpack-wechat-spoken-15.40.caf")
        #expect(FileManager.default.fileExists(atPath: phone.sounds.appendingPathComponent(name).path))
        #expect(SpeechRequests.all.contains { $0.text == "微信到账十五点四元" && $0.language == "zh-CN" })
    }

    /// Compact system voices (iOS 16 and 17) write 16-bit integers, others 32-bit float, and the
    /// buffers may come on the main thread: the spoken text is written either way, holding the
    /// voice's samples. A buffer written in a format other than the file's would crash the
    /// extension on the phone (the stand-in records it and the push fails the test).
    @Test(arguments: [AVAudioCommonFormat.pcmFormatInt16, .pcmFormatFloat32])
    func theWrittenTextIsSpokenWhateverTheVoiceWrites(voice: AVAudioCommonFormat) async throws {
        let phone = try Phone.make(bundled: [])
        defer { phone.tearDown() }
        try phone.install()
        let request = try phone.request("15.40")
        phone.server.stop()  // the store is unreachable and nothing is on the phone
        let (shown, calls) = await AVSpeechSynthesizer.$voiceFormat.withValue(voice) {
            await phone.push(request) { $0.speaksWrittenTextAsLastResort = true }
        }
        #expect(calls.count == 1)
        let name = try #require(shown.soundName, "\(voice): \(phone.reports)")
        #expect(name == "soundpack-wechat-spoken-15.40.caf")
        let spoken = try LibSndFileSamples(path: phone.sounds.appendingPathComponent(name).path)
        let tone = (AVSpeechSynthesizer.tone(part: 0) + AVSpeechSynthesizer.tone(part: 1)).map { Int($0 * 32_768) }
        #expect(spoken.sampleRate == 22_050 && spoken.channels == 1 && spoken.samples.count == tone.count, "\(voice): \(spoken)")
        let off = zip(spoken.samples, tone).map { abs(Int($0) - $1) }.max() ?? .max
        #expect(off <= 2, "\(voice): the spoken file is not the voice's samples (off by up to \(off))")
    }

    /// A clip of another format than the others' (kept on the phone from an older version, or
    /// given to the extension's own bundle): the join never hands the writer a buffer of another
    /// format — on the phone another sample type crashes and another rate plays at the wrong
    /// speed. At another rate the extension says the prefix alone (and reports why); a clip stored
    /// as 32-bit float at the pack's rate reads into the same processing format and is joined.
    @Test(arguments: [ClipVariant.otherRate, .floatSamples])
    func aClipOfAnotherFormatIsNeverJoinedAsIs(variant: ClipVariant) async throws {
        let phone = try Phone.make()
        defer { phone.tearDown() }
        try phone.install()
        let yuan = try AudioProbe().decode(path: phone.project.file("packs/wechat/clips/yuan.caf")).samples
        let odd = phone.extensionBundle.appendingPathComponent("yuan.caf").path  // the extension's bundle is looked in first
        switch variant {
        case .otherRate: try Fixtures.writeClip(yuan, to: odd, sampleRate: 44_100)
        case .floatSamples: try Fixtures.writeClip(yuan, to: odd, encoding: .float32)
        }
        let (shown, calls) = await phone.push(try phone.request("1234.56"))
        #expect(calls.count == 1)
        let name = try #require(shown.soundName, "\(variant): \(phone.reports)")
        let played = try phone.played(name)
        switch variant {
        case .otherRate:
            #expect(name == "soundpack-wechat-1.0.0-framing.caf", "\(phone.reports)")
            #expect(phone.reports.description.contains("yuan.caf"), "\(phone.reports)")
            #expect(played == (try LibSndFileSamples.concatenation(of: [phone.sounds.appendingPathComponent("prefix.caf").path])))
        case .floatSamples:
            #expect(name == "soundpack-wechat-1.0.0-1234.56.caf", "\(phone.reports)")
            let clips = try phone.clipPaths("1234.56").map { $0.hasSuffix("/yuan.caf") ? phone.project.file("packs/wechat/clips/yuan.caf") : $0 }
            #expect(played == (try LibSndFileSamples.concatenation(of: clips)))
        }
    }

    @Test func aYankedPinIsNotPlayed() async throws {
        let phone = try Phone.make()
        defer { phone.tearDown() }
        try phone.install()
        try phone.publishWithNewClip3(as: "1.0.1")
        let request = try phone.request("3", pack: "wechat@1.0.1")
        try phone.run(["yank", "wechat@1.0.1", "--reason", "bad clip 3"])
        let (shown, _) = await phone.push(request)
        let name = try #require(shown.soundName, "\(phone.reports)")
        #expect(!name.contains("1.0.1"), "\(name)")
    }

    @Test func aRefreshDuringThePushPlaysThePinnedVersion() async throws {
        let phone = try Phone.make()
        defer { phone.tearDown() }
        try phone.install()
        try phone.publishWithNewClip3(as: "1.0.1")
        let request = try phone.request("3.33", pack: "wechat@1.0.1")
        async let refreshed = SoundpackSetup.refreshAndPrefetch(packID: "wechat", seconds: 10, configuration: phone.configuration)
        let (shown, calls) = await phone.push(request)
        _ = try await refreshed
        #expect(calls.count == 1)
        let name = try #require(shown.soundName, "\(phone.reports)")
        #expect(name == "soundpack-wechat-1.0.1-3.33.caf")
        #expect(try phone.played(name) == phone.clipsEndToEnd("3.33"))  // 3.caf is 1.0.1's new take
    }
}

/// A clip unlike the pack's, for `aClipOfAnotherFormatIsNeverJoinedAsIs`.
enum ClipVariant: String, CaseIterable, Sendable {
    /// The pack's samples at 44.1 kHz instead of 22.05 kHz.
    case otherRate
    /// The pack's samples at its rate, stored as 32-bit float instead of 16-bit integers.
    case floatSamples
}

@Suite struct SoundpackSetupTests {
    @Test func aClipReRecordedAtTheSameSizeIsReplaced() throws {
        let phone = try Phone.make()
        defer { phone.tearDown() }
        try phone.install()
        let copy = phone.sounds.appendingPathComponent("prefix.caf")
        var stale = try Data(contentsOf: copy)
        stale[stale.count - 2] ^= 0x01  // the group still holds an older take of the same length
        try stale.write(to: copy)
        try phone.install()
        #expect(try Data(contentsOf: copy) == Data(contentsOf: phone.appBundle.appendingPathComponent("prefix.caf")))
        #expect(phone.configuration.defaults?.stringArray(forKey: "kMainAppMp3FileKey") == ["prefix.caf", "yuan.caf"])
    }

    @Test func aBundledClipTheManifestDoesNotVouchForIsNotListed() throws {
        let phone = try Phone.make()
        defer { phone.tearDown() }
        let bundled = phone.appBundle.appendingPathComponent("yuan.caf")
        var bytes = try Data(contentsOf: bundled)
        bytes[bytes.count - 2] ^= 0x01
        try bytes.write(to: bundled)
        try phone.install()
        #expect(phone.configuration.defaults?.stringArray(forKey: "kMainAppMp3FileKey") == ["prefix.caf"])
        #expect(!FileManager.default.fileExists(atPath: phone.sounds.appendingPathComponent("yuan.caf").path))
    }
}

/// iOS 13–14: the sequence of local notifications, on the center's rules (the last 64 added kept).
@Suite struct ExampleSequenceTests {
    /// What was scheduled in the end: the last add of each identifier (an add replaces a pending
    /// request of the same identifier), soonest first.
    static func schedule(_ center: UNUserNotificationCenter) -> [UNUserNotificationCenter.Scheduled] {
        var last: [String: UNUserNotificationCenter.Scheduled] = [:]
        for entry in center.history.added { last[entry.identifier] = entry }
        return last.values.sorted { $0.fireDate < $1.fireDate }
    }

    /// The pack's clip file a sequence's sound plays: `yuan.caf` for `soundpack.clip.<hash>.yuan.caf`.
    static func clipFile(_ soundName: String?) -> String {
        guard let name = soundName, name.hasPrefix(NotificationService.pinnedClipPrefix) else { return soundName ?? "" }
        return String(name.dropFirst(NotificationService.pinnedClipPrefix.count).drop { $0 != "." }.dropFirst())
    }

    /// The identifiers of `request`'s payment in `identifiers`.
    static func ofPayment(_ request: UNNotificationRequest, _ identifiers: [String]) -> [String] {
        let payment = request.content.userInfo["paymentId"] as? String ?? request.identifier
        return identifiers.filter { $0.hasPrefix("\(LocalNotificationSequence.identifierPrefix)\(payment).") }
    }

    /// Each payment's clips as (first fire date, end), from the center's record.
    static func spans(_ center: UNUserNotificationCenter, durations: [String: Double]) -> [String: (start: Date, end: Date)] {
        var spans: [String: (start: Date, end: Date)] = [:]
        for entry in schedule(center) where entry.identifier.hasPrefix(LocalNotificationSequence.identifierPrefix) {
            let payment = String(entry.identifier.dropFirst(LocalNotificationSequence.identifierPrefix.count).split(separator: ".").dropLast().joined(separator: "."))
            let end = entry.fireDate.addingTimeInterval(durations[clipFile(entry.soundName)] ?? 0)
            let span = spans[payment] ?? (entry.fireDate, end)
            spans[payment] = (min(span.start, entry.fireDate), max(span.end, end))
        }
        return spans
    }

    static func durations(_ phone: Phone) throws -> [String: Double] {
        let manifest = try SharedManifest(data: Data(contentsOf: phone.appBundle.appendingPathComponent("SoundpackManifest.plist")))
        return Dictionary(try #require(manifest.packs["wechat"]).clips.values.map { ($0.file, $0.durationSeconds) }, uniquingKeysWith: { a, _ in a })
    }

    @Test(arguments: StoreTrust.allCases)
    func offsetsAreCumulativeAndTheNextPaymentStartsAfterTheEnd(trust: StoreTrust) async throws {
        // The last clip (a 1.28 s suffix) is longer than a second: starting the next payment one
        // second after the last clip *starts* would overlap it.
        let phone = try Phone.make(suffix: true, trust: trust)
        defer { phone.tearDown() }
        try phone.install()
        phone.center.addLatency = 0.1  // each add completes a little later, as across processes
        let first = await phone.push(try phone.request("15.40"), style: .localSequence)
        #expect(first.calls.count == 1 && first.shown.sound == nil, "\(phone.reports)")  // the push is silent; the clips speak
        let added = Self.schedule(phone.center)
        let durations = try Self.durations(phone)
        #expect(added.map { Self.clipFile($0.soundName) } == ["prefix.caf", "shi.caf", "5.caf", "dian.caf", "4.caf", "yuan.caf", "suffix.caf"])
        for (a, b) in zip(added, added.dropFirst()) {
            // Within 30 ms, plus the time each trigger waited between being made and being added: a
            // loaded machine may deschedule the extension there, and the interval then counts late
            // (on iOS too). Pauses between adds are the extension's to absorb: a clip never starts
            // before the one before it ends, and starts later only where the adds fell so far behind
            // that its interval was raised to iOS's minimum (the rest of the sequence moves with it).
            let waits = a.addedAt.timeIntervalSince(a.triggerMadeAt) + b.addedAt.timeIntervalSince(b.triggerMadeAt)
            let gap = b.fireDate.timeIntervalSince(a.fireDate), length = durations[Self.clipFile(a.soundName)] ?? -1
            let context = "\(Self.clipFile(a.soundName)) → \(Self.clipFile(b.soundName)): \(gap) s apart for a \(length) s clip, the triggers waited \(waits) s to be added"
            #expect(gap > length - 0.03 - waits, "overlap: \(context)")
            if b.timeInterval != LocalNotificationSequence.minimumOffsetSeconds { #expect(gap < length + 0.03 + waits, "\(context)") }
        }
        // The next payment arrives while the first one's last clip plays: that clip has fired and left
        // the pending list, and its 1.28 s are not over.
        let lastFire = try #require(added.last?.fireDate)
        let wait = lastFire.timeIntervalSinceNow + 0.2
        if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000)) }
        #expect(!phone.center.pendingRequests.contains { $0.identifier == added.last?.identifier })
        _ = await phone.push(try phone.request("2"), style: .localSequence)
        let spans = Self.spans(phone.center, durations: durations)
        let ordered = spans.values.sorted { $0.start < $1.start }
        #expect(ordered.count == 2)
        #expect(ordered[1].start >= ordered[0].end, "the second payment starts at \(ordered[1].start), before the first ends at \(ordered[0].end)")
    }

    /// Every pack and version shares the group's Library/Sounds, and iOS looks a clip's file up
    /// when its notification fires, not when it is scheduled: a clip written there under the same
    /// name in between (another pack's or version's yuan.caf) must not be what the user hears.
    @Test func aClipWrittenAfterSchedulingIsNotWhatPlays() async throws {
        let phone = try Phone.make()
        defer { phone.tearDown() }
        try phone.install()
        phone.center.holdsDeliveries = true
        let request = try phone.request("15.40")
        let (shown, calls) = await phone.push(request, style: .localSequence)
        #expect(calls.count == 1 && shown.sound == nil, "\(phone.reports)")
        let scheduled = Self.ofPayment(request, phone.center.pendingRequests.map(\.identifier))
        let takes = try phone.clipPaths("15.40").map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        try #require(scheduled.count == takes.count, "\(phone.reports)")
        // Before the sequence fires, another take of yuan.caf lands in Library/Sounds.
        let yuan = phone.project.file("packs/wechat/clips/yuan.caf")
        try Fixtures.writeClip(try AudioProbe().decode(path: yuan).samples.map { -$0 }, to: phone.sounds.appendingPathComponent("yuan.caf").path)
        let lastFire = try #require(phone.center.pendingRequests.map(\.fireDate).max())
        phone.center.holdsDeliveries = false
        let wait = lastFire.timeIntervalSinceNow + 0.2
        if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000)) }
        let heard = phone.center.deliveredSounds.filter { scheduled.contains($0.identifier) }
        #expect(heard.count == takes.count)
        for (index, (played, take)) in zip(heard, takes).enumerated() {
            guard case .file(let url, let bytes) = played.sound else {
                Issue.record("clip \(index) played \(played.sound), not the clip scheduled")
                continue
            }
            let hash = CryptoKitSHA256()
            #expect(hash.sha256Hex(bytes) == hash.sha256Hex(take), "clip \(index) played \(url.lastPathComponent) as it was when it fired, not the take scheduled")
        }
    }

    /// The clip copies a sequence plays from are named by content, so each re-recording adds files:
    /// a payment that starts with no sequence pending or playing removes the copies it does not
    /// play, and one that starts while another is pending removes none of that one's.
    @Test func clipCopiesNoSequenceNeedsAreRemovedWhenAPaymentStartsAlone() async throws {
        let phone = try Phone.make()
        defer { phone.tearDown() }
        try phone.install()
        func copies() throws -> Set<String> {
            Set(try FileManager.default.contentsOfDirectory(atPath: phone.sounds.path).filter { $0.hasPrefix(NotificationService.pinnedClipPrefix) })
        }
        func names(_ request: UNNotificationRequest) -> Set<String> {
            let ids = Set(Self.ofPayment(request, phone.center.history.added.map(\.identifier)))
            return Set(phone.center.history.added.filter { ids.contains($0.identifier) }.compactMap(\.soundName))
        }
        let first = try phone.request("15.40")
        _ = await phone.push(first, style: .localSequence)
        let firstNames = names(first)
        let played = try copies()
        #expect(!firstNames.isEmpty && firstNames == played, "\(phone.reports)")
        // Once the first has been heard to its end, the next payment starts alone.
        let ends = Self.spans(phone.center, durations: try Self.durations(phone)).values.map(\.end).max() ?? Date()
        let wait = ends.timeIntervalSinceNow + NotificationService.sequenceGapSeconds + 0.2
        if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000)) }
        phone.center.holdsDeliveries = true
        let second = try phone.request("2")
        _ = await phone.push(second, style: .localSequence)
        let left = try copies()
        #expect(left == names(second), "the copies only the first payment played stay: \(left.subtracting(names(second)))")
        // A third payment while the second is pending removes none of the second's copies.
        let third = try phone.request("15.40")  // says no 2: the second's 2.caf copy is not the third's
        _ = await phone.push(third, style: .localSequence)
        #expect(try copies() == names(second).union(names(third)))
    }

    /// iOS terminates the extension once it has handed over its content after expiry: what it means
    /// to withdraw must be withdrawn before that, and what it added must be what fires last, or the
    /// user hears part of the sequence after the default sound.
    @Test func anExpiryWhileSchedulingLeavesNothingOfThePaymentToHear() async throws {
        let phone = try Phone.make()
        defer { phone.tearDown() }
        try phone.install()
        phone.center.addLatency = 0.3  // the 12 adds take about 4 s; time runs out after the third
        _ = await phone.push(try phone.request("1234.56"), style: .localSequence)  // downloads the clips
        let before = phone.center.history.added.count
        let host = NotificationServiceHost(timeLimit: 600, graceSeconds: 0.5)
        let center = phone.center
        let expiry = Task {
            while center.history.added.count < before + 3 { try await Task.sleep(nanoseconds: 20_000_000) }
            host.expireNow()
        }
        let request = try phone.request("6543.21")
        let (shown, calls) = await phone.push(request, style: .localSequence, host: host)
        _ = try await expiry.value
        #expect(calls.count == 1 && shown.sound != nil && shown.soundName == nil)
        // The add in flight at expiry completes; give what runs after it time to ask for more.
        try await Task.sleep(nanoseconds: 1_000_000_000)
        await phone.center.settled()
        #expect(host.effectsAfterTermination.isEmpty, "asked for after the extension was gone: \(host.effectsAfterTermination)")
        let added = Self.ofPayment(request, phone.center.history.added.map(\.identifier))
        #expect(!added.isEmpty && added.count < 12, "time should run out partway: \(added.count) added")
        let left = Self.ofPayment(request, phone.center.pendingRequests.map(\.identifier))
        let heard = Self.ofPayment(request, phone.center.deliveredIdentifiers)
        #expect(left.isEmpty && heard.isEmpty, "the default sound played, and then: pending \(left), heard \(heard)")
        #expect(host.handlerCalls.count == 1)
    }

    /// An add can fail ("an error object indicating the reason for the failure"): what was added of
    /// the sequence before it is withdrawn, and the push plays its default sound alone.
    @Test func aFailedAddLeavesNothingOfThePayment() async throws {
        let phone = try Phone.make()
        defer { phone.tearDown() }
        try phone.install()
        phone.center.failAdd(3)
        let request = try phone.request("1234.56")
        let (shown, calls) = await phone.push(request, style: .localSequence)
        #expect(calls.count == 1)
        #expect(shown.sound != nil && shown.soundName == nil, "not the default sound: \(phone.reports)")
        await phone.center.settled()
        #expect(Self.ofPayment(request, phone.center.history.added.map(\.identifier)).count == 2)
        let left = Self.ofPayment(request, phone.center.pendingRequests.map(\.identifier))
        let heard = Self.ofPayment(request, phone.center.deliveredIdentifiers)
        #expect(left.isEmpty && heard.isEmpty, "pending \(left), heard \(heard)")
        #expect(phone.reports.description.contains("could not be scheduled"), "\(phone.reports)")
    }

    /// iOS keeps the last 64 requests added: a sequence added over the app's own reminders would
    /// silently discard the oldest of them. With 60 pending, a 12-clip payment does not fit whole:
    /// the app's reminders all stay, and the push plays its default sound.
    @Test func theAppsOwnRemindersAreNeverDiscardedForASequence() async throws {
        let phone = try Phone.make()
        defer { phone.tearDown() }
        try phone.install()
        let reminders = (0..<60).map { "app.reminder.\($0)" }
        for identifier in reminders {
            phone.center.add(UNNotificationRequest(identifier: identifier, content: UNMutableNotificationContent(),
                                                   trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3_600, repeats: false)))
        }
        let request = try phone.request("1234.56")
        let (shown, calls) = await phone.push(request, style: .localSequence)
        await phone.center.settled()
        #expect(calls.count == 1)
        #expect(phone.center.history.discarded.isEmpty, "iOS discarded \(phone.center.history.discarded)")
        #expect(Set(reminders).isSubset(of: phone.center.pendingRequests.map(\.identifier)))
        #expect(shown.sound != nil && shown.soundName == nil, "\(phone.reports)")
        #expect(Self.ofPayment(request, phone.center.pendingRequests.map(\.identifier)).isEmpty)
    }

    @Test func twoPushesAtOnceNeverOverlapNorPass64Pending() async throws {
        let phone = try Phone.make()
        defer { phone.tearDown() }
        try phone.install()
        // The app's own reminders take 50 of the 64 slots; each payment below needs 12.
        for index in 0..<50 {
            phone.center.add(UNNotificationRequest(identifier: "app.reminder.\(index)", content: UNMutableNotificationContent(),
                                                   trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3_600, repeats: false)))
        }
        // The first sequence lasts a few seconds; on a loaded machine it could be delivered before
        // the second push looks at the pending list, and then both fit. Hold deliveries so the
        // second always finds the first's 12 pending.
        phone.center.holdsDeliveries = true
        let a = try phone.request("1234.56"), b = try phone.request("6543.21")
        async let first = phone.push(a, style: .localSequence)
        async let second = phone.push(b, style: .localSequence)
        let results = await [first, second]
        #expect(results.allSatisfy { $0.calls.count == 1 })
        #expect(phone.center.history.discarded.isEmpty, "iOS dropped \(phone.center.history.discarded)")
        #expect(phone.center.pendingRequests.count <= 64)
        let spans = Self.spans(phone.center, durations: try Self.durations(phone)).values.sorted { $0.start < $1.start }
        for (x, y) in zip(spans, spans.dropFirst()) { #expect(y.start >= x.end, "two sequences overlap") }
        // One fitted (50 + 12) and spoke; the other did not fit whole and played the default sound.
        #expect(results.filter { $0.shown.sound == nil }.count == 1)
        #expect(results.filter { $0.shown.sound != nil && $0.shown.soundName == nil }.count == 1)
    }
}

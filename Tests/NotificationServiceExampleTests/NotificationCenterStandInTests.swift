// The stand-in notification center's rules that differ from Apple's old documentation, each checked
// the way the public reports it follows observed it on a phone.

import Foundation
import Testing
import SoundpackTestSupport
@_spi(StandIn) import UserNotifications

@Suite struct NotificationCenterStandInTests {
    static func request(_ identifier: String, in seconds: TimeInterval) -> UNNotificationRequest {
        UNNotificationRequest(identifier: identifier, content: UNMutableNotificationContent(),
                              trigger: UNTimeIntervalNotificationTrigger(timeInterval: seconds, repeats: false))
    }

    /// openradar 38065340, flutter_local_notifications #2275: the last 64 added stay pending,
    /// whenever they fire; the 65th add discards the oldest add, not the latest-firing request.
    @Test func theLast64AddedStayPending() {
        let center = UNUserNotificationCenter()
        // The first reminder added fires last of the 64.
        for index in 0..<64 { center.add(Self.request("app.reminder.\(index)", in: 3_600 - Double(index) * 10)) }
        center.add(Self.request("later", in: 7_200))
        #expect(center.history.discarded == ["app.reminder.0"])
        #expect(center.pendingRequests.count == 64)
        #expect(center.pendingRequests.contains { $0.identifier == "later" })
    }

    /// "removing the pending notification requests on a secondary thread": a request that has fired
    /// by then was delivered, and stays delivered.
    @Test func aRemovalCannotRecallADeliveredRequest() async throws {
        let center = UNUserNotificationCenter()
        center.add(Self.request("soon", in: 0.05))
        center.add(Self.request("later", in: 3_600))
        try await Task.sleep(nanoseconds: 150_000_000)
        center.removePendingNotificationRequests(withIdentifiers: ["soon", "later"])
        await center.settled()
        #expect(center.deliveredIdentifiers == ["soon"])
        #expect(center.pendingRequests.isEmpty)
    }

    /// The completion handler carries "an error object indicating the reason for the failure".
    @Test func anAddMadeToFailIsNotScheduled() async throws {
        let center = UNUserNotificationCenter()
        center.failAdd(2)
        var errors: [Bool] = []
        for name in ["a", "b", "c"] {
            let failed: Bool = await withCheckedContinuation { continuation in
                center.add(Self.request(name, in: 3_600)) { error in continuation.resume(returning: error != nil) }
            }
            errors.append(failed)
        }
        #expect(errors == [false, true, false])
        #expect(center.pendingRequests.map(\.identifier).sorted() == ["a", "c"])
    }

    /// A sound file as the phone may find it when the notification is delivered.
    enum SoundFile: String, CaseIterable, Sendable {
        case playable, twentyNineSeconds, missing, thirtySeconds, aacInCAF
    }

    /// Apple looks a custom sound up when it is delivered, and plays the default sound for a file it
    /// cannot find, one of 30 seconds or more, or one not in Linear PCM, IMA4, µLaw or aLaw.
    @Test(arguments: SoundFile.allCases)
    func aSoundThatCannotBePlayedIsTheDefaultSound(file: SoundFile) throws {
        let folder = TemporaryFolder()
        let sounds = URL(fileURLWithPath: folder.file("Library/Sounds"))
        try FileManager.default.createDirectory(at: sounds, withIntermediateDirectories: true)
        let path = sounds.appendingPathComponent("clip.caf").path
        let tone = (0..<22_050).map { Float(sin(Double($0) * 0.05) * 0.3) }
        switch file {
        case .playable: try Fixtures.writeClip(tone, to: path)
        case .twentyNineSeconds: try Fixtures.writeClip(Array(repeatElement(tone, count: 29).joined()), to: path)
        case .missing: break
        case .thirtySeconds: try Fixtures.writeClip(Array(repeatElement(tone, count: 30).joined()), to: path)
        case .aacInCAF:
            func be(_ value: UInt64, _ width: Int) -> [UInt8] { (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
            let desc = be(22_050.0.bitPattern, 8) + Array("aac ".utf8) + be(0, 4) + be(0, 4) + be(1_024, 4) + be(1, 4) + be(0, 4)
            try Data(Fixtures.caf([("desc", 32, desc), ("data", 68, be(0, 4) + Array(repeating: 0x21, count: 64))])).write(to: URL(fileURLWithPath: path))
        }
        let center = UNUserNotificationCenter()
        center.soundDirectories = [sounds]
        let content = UNMutableNotificationContent()
        content.sound = UNNotificationSound(named: UNNotificationSoundName("clip.caf"))
        center.add(UNNotificationRequest(identifier: "clip", content: content, trigger: nil))
        let played = try #require(center.deliveredSounds.first { $0.identifier == "clip" }?.sound)
        if file == .playable || file == .twentyNineSeconds {
            #expect(played == .file(sounds.appendingPathComponent("clip.caf"), try Data(contentsOf: URL(fileURLWithPath: path))))
        } else {
            #expect(played == .defaultSound)
        }
    }

    /// "The method chooses the first file it finds with the specified name", in Apple's order: the
    /// app container's Library/Sounds before the group container's, both before the main bundle.
    @Test func aSoundIsLookedUpInApplesOrder() throws {
        let folder = TemporaryFolder()
        let places = ["App/Library/Sounds", "Group/Library/Sounds", "App.app"].map { URL(fileURLWithPath: folder.file($0)) }
        for (index, place) in places.enumerated() {
            try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
            try Fixtures.writeClip((0..<2_205).map { Float($0 % (20 + index)) / 100 }, to: place.appendingPathComponent("clip.caf").path)
        }
        for first in places.indices {
            let directories = Array(places[first...])
            let played = PlayedSound.resolve(UNNotificationSound(named: UNNotificationSoundName("clip.caf")), in: directories)
            let expected = directories[0].appendingPathComponent("clip.caf")
            #expect(played == .file(expected, try Data(contentsOf: expected)))
        }
    }

    /// The host's time limit is the extension's time, not the test machine's: while other work
    /// holds every one of the process's cooperative threads for 1 s, an extension that hands over
    /// as soon as a thread is free is not expired at a 0.3 s limit (without the stall meter it was,
    /// at 0.3 s, before its task had run at all).
    @Test func aStalledTestProcessDoesNotSpendTheExtensionsTime() async {
        final class Immediate: UNNotificationServiceExtension, @unchecked Sendable {
            override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                nonisolated(unsafe) let handler = contentHandler, content = request.content
                Task { handler(content) }
            }
        }
        let host = NotificationServiceHost(timeLimit: 0.3, graceSeconds: 0.1)
        let blockers = (0..<ProcessInfo.processInfo.activeProcessorCount).map { _ in
            Task.detached { usleep(1_000_000) }  // blocks the thread, as a busy test does
        }
        let (_, calls) = await host.run(Immediate(), request: Self.request("stalled", in: 60))
        for blocker in blockers { _ = await blocker.value }
        #expect(calls.count == 1)
        #expect(host.expiredAt == nil && calls.allSatisfy { !$0.afterExpiry }, "expired while no task of the process could run")
    }
}

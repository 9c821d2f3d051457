// The stand-in notification center's rules that differ from Apple's old documentation, each checked
// the way the public reports it follows observed it on a phone.

import Foundation
import Testing
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
}

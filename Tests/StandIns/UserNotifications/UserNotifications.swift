// A Linux stand-in for the part of Apple's UserNotifications the example extension uses: the
// service extension class, notification content and sounds, requests with time-interval triggers,
// and a notification center that keeps pending requests by Apple's rules. Each type quotes the
// sentence of Apple's documentation it follows. Types are not Sendable (stricter than any SDK
// that marks them so: code that compiles here compiles there). In no product.

#if os(Linux)
import Foundation
import SoundpackCore
import SoundpackKit

/// Apple: "An object that modifies the content of a remote notification before it's delivered to
/// the user." The system's side (calling `didReceive`, then `serviceExtensionTimeWillExpire` when
/// time runs out) is `NotificationServiceHost`.
open class UNNotificationServiceExtension: NSObject {
    public override init() {}

    /// Apple: "Asks you to make any needed changes to the notification and notify the system when
    /// you're done."
    open func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        contentHandler(request.content)
    }

    /// Apple: "Tells you that the system is terminating your extension." … "the system calls this
    /// method on a separate thread to give you one last chance to execute the block."
    open func serviceExtensionTimeWillExpire() {}
}

/// Apple (iOS 15): "Constants that indicate the importance and delivery timing of a notification."
public enum UNNotificationInterruptionLevel: UInt, Sendable {
    case passive, active, timeSensitive, critical
}

/// Apple: "The uneditable content of a notification."
open class UNNotificationContent: NSObject, NSCopying, NSMutableCopying {
    struct Fields {
        var title = "", body = ""
        var userInfo: [AnyHashable: Any] = [:]
        var sound: UNNotificationSound?
        var interruptionLevel = UNNotificationInterruptionLevel.active
    }
    var fields = Fields()

    public override init() {}
    init(fields: Fields) { self.fields = fields }

    open var title: String { fields.title }
    open var body: String { fields.body }
    open var userInfo: [AnyHashable: Any] { fields.userInfo }
    open var sound: UNNotificationSound? { fields.sound }
    /// Apple: iOS 15.0+.
    open var interruptionLevel: UNNotificationInterruptionLevel { fields.interruptionLevel }

    open func copy(with zone: NSZone? = nil) -> Any { UNNotificationContent(fields: fields) }
    open func mutableCopy(with zone: NSZone? = nil) -> Any { UNMutableNotificationContent(fields: fields) }
}

/// Apple: "The editable content for a notification."
open class UNMutableNotificationContent: UNNotificationContent {
    public override init() { super.init() }
    override init(fields: Fields) { super.init(fields: fields) }

    open override var title: String { get { fields.title } set { fields.title = newValue } }
    open override var body: String { get { fields.body } set { fields.body = newValue } }
    open override var userInfo: [AnyHashable: Any] { get { fields.userInfo } set { fields.userInfo = newValue } }
    open override var sound: UNNotificationSound? { get { fields.sound } set { fields.sound = newValue } }
    open override var interruptionLevel: UNNotificationInterruptionLevel { get { fields.interruptionLevel } set { fields.interruptionLevel = newValue } }
}

/// Apple: "The name of a sound file to play when the system delivers a notification."
public struct UNNotificationSoundName: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// Apple: "The sound played upon delivery of a notification." `init(named:)`: "This method
/// searches for sound files in the following locations, in order: 1. The <app_container>/Library/Sounds
/// directory, where <app_container> is the app's container directory. 2. The
/// <group_container>/Library/Sounds directory, where <group_container> is one of the app's shared
/// group container directories. 3. The main bundle of the current executable. The method chooses
/// the first file it finds with the specified name." The file is looked up when the notification
/// is delivered, not when the sound is made: `PlayedSound.resolve` is that lookup.
open class UNNotificationSound: NSObject {
    /// Stand-in only (Apple's sound keeps its file name private): the custom sound's name; nil:
    /// the default sound.
    @_spi(StandIn) public let name: UNNotificationSoundName?

    private init(name: UNNotificationSoundName?) { self.name = name }

    /// Apple: "Returns an object representing the default sound for notifications."
    open class var `default`: UNNotificationSound { UNNotificationSound(name: nil) }

    /// Apple: "Creates a sound object that represents a custom sound file."
    public convenience init(named name: UNNotificationSoundName) { self.init(name: name) }
}

/// Stand-in only: what the phone plays for a delivered notification. Apple, UNNotificationSound,
/// "Prepare Sound Resources", lists the audio data formats a custom sound may use: "Linear PCM",
/// "MA4 (IMA/ADPCM)", "µLaw", "aLaw", packaged in an aiff, wav or caf file, shorter than 30 seconds
/// (longer: the default sound). UILocalNotification.soundName says it in full: "Sounds that last
/// longer than 30 seconds are not supported. If you specify a file with a sound that plays over 30
/// seconds, the default sound is played instead." And CKNotification.soundName: "If the system
/// can't find the specified file, or if the property's value is the string `default`, the system
/// plays the default sound." So a custom sound whose file is missing, 30 s or longer, or of another
/// format plays the default sound. MA4 is Apple's IMA4 (`afconvert -d ima4`), not Microsoft's IMA
/// ADPCM in WAV; a file the stand-in cannot read at all also plays the default sound.
@_spi(StandIn) public enum PlayedSound: Sendable, Equatable {
    /// No sound (the content has none).
    case silent
    /// The default system sound.
    case defaultSound
    /// A custom sound: the file found at delivery, and its bytes at that moment.
    case file(URL, Data)

    /// The lookup iOS makes at delivery: `directories` in Apple's order (the app container's
    /// Library/Sounds, the group containers' Library/Sounds, the main bundle).
    public static func resolve(_ sound: UNNotificationSound?, in directories: [URL]) -> PlayedSound {
        guard let sound else { return .silent }
        guard let name = sound.name?.rawValue else { return .defaultSound }
        guard let url = directories.map({ $0.appendingPathComponent(name) }).first(where: { FileManager.default.fileExists(atPath: $0.path) }),
              let data = try? Data(contentsOf: url), let facts = try? AudioProbe().probe(path: url.path) else { return .defaultSound }
        let containers: Set<Container> = [.aiff, .aifc, .wav, .caf], codecs: Set<Codec> = [.lpcm, .ima4, .ulaw, .alaw]
        guard containers.contains(facts.container), codecs.contains(facts.codec), facts.durationSeconds < 30 else { return .defaultSound }
        return .file(url, data)
    }
}

/// Apple: "The common behavior for subclasses that trigger the delivery of a local or remote notification."
open class UNNotificationTrigger: NSObject, NSCopying {
    public let repeats: Bool
    init(repeats: Bool) { self.repeats = repeats }
    open func copy(with zone: NSZone? = nil) -> Any { self }
}

/// Apple: "A trigger condition that causes the system to deliver a notification after the amount
/// of time you specify elapses."
open class UNTimeIntervalNotificationTrigger: UNNotificationTrigger {
    public let timeInterval: TimeInterval
    /// When the center accepted the request; until then the trigger counts from now.
    var scheduledAt: Date?
    /// Stand-in only: when the trigger was made. The app computes its interval just before; the
    /// time until the center accepts it (a thread descheduled on a loaded machine) moves the fire
    /// date, on iOS as here, and tests allow for it by this.
    let createdAt = Date()

    /// Apple, `timeInterval`: "The time (in seconds) that must elapse from the current time before
    /// the trigger fires. This value must be greater than zero." and, with `repeats`, "the value in
    /// the timeInterval parameter must be 60 seconds or greater." Apple raises an Objective-C
    /// exception otherwise; the stand-in traps the same way.
    public init(timeInterval: TimeInterval, repeats: Bool) {
        precondition(timeInterval > 0, "UNTimeIntervalNotificationTrigger: the time interval must be greater than zero")
        precondition(!repeats || timeInterval >= 60, "UNTimeIntervalNotificationTrigger: a repeating time interval must be at least 60 seconds")
        self.timeInterval = timeInterval
        super.init(repeats: repeats)
    }

    /// Apple: "The next date at which the trigger conditions are met."
    open func nextTriggerDate() -> Date? { (scheduledAt ?? Date()).addingTimeInterval(timeInterval) }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = UNTimeIntervalNotificationTrigger(timeInterval: timeInterval, repeats: repeats)
        copy.scheduledAt = scheduledAt
        return copy
    }
}

/// Apple: "A request to schedule a local notification, which includes the content of the
/// notification and the trigger conditions for delivery."
open class UNNotificationRequest: NSObject {
    public let identifier: String
    public let content: UNNotificationContent
    public let trigger: UNNotificationTrigger?

    public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.identifier = identifier
        self.content = content.copy() as? UNNotificationContent ?? content
        self.trigger = trigger?.copy() as? UNNotificationTrigger ?? trigger
    }
}

/// Apple: "The central object for managing notification-related activities for your app or app
/// extension." Pending requests follow Apple's rules:
/// - add: "If you provide a unique identifier, the system creates a new notification. If the
///   identifier belongs to a previously delivered notification, the system alerts the user again,
///   replaces the old notification with the new one" (a pending one is replaced); its completion
///   handler's parameter is "An error object indicating the reason for the failure, or nil if no
///   error occurred" (`failAdd(_:)` makes one fail);
/// - the limit: 64 pending requests, and they are the **last 64 added**, whenever they fire. Apple's
///   old guide says "the system keeps the soonest-firing 64 notifications … and discards the rest",
///   but UserNotifications does not (openradar 38065340; MaikuB/flutter_local_notifications #2275,
///   "it actually keeps the last 64 notifications set regardless of when they will fire": 70
///   scheduled a minute apart leave 7 to 70 pending, docs corrected in #2276). The oldest adds are
///   discarded silently, as on the phone;
/// - removal: "This method executes asynchronously, removing the pending notification requests on
///   a secondary thread" — never before the call returns; a request whose trigger has fired by then
///   has been delivered and is not removed (the method removes requests "that are pending");
/// - completion handlers run on a background queue ("the block may be executed on a background
///   thread"), so the code that calls them must hand its results across threads safely.
/// A request whose trigger date has passed is delivered (heard): it leaves the pending list. An add
/// or removal by an extension whose process is gone is not carried out (`ExtensionProcess`). The
/// center is used from any thread, so the stand-in is Sendable, with its state under a lock.
open class UNUserNotificationCenter: NSObject, @unchecked Sendable {
    /// Stand-in only: how many requests iOS keeps pending (the 64 of the class comment).
    @_spi(StandIn) public static let pendingLimit = 64

    /// Stand-in only: a scheduled request as the stand-in keeps it, for tests to read.
    @_spi(StandIn) public struct Scheduled: Sendable, Equatable {
        public var identifier: String
        public var soundName: String?
        public var fireDate: Date
        public var addedAt: Date
        /// When the request's time-interval trigger was made (its add time when it has none).
        public var triggerMadeAt: Date
        /// The trigger's interval, nil for a request without a time-interval trigger.
        public var timeInterval: TimeInterval?
    }

    private let lock = NSLock()
    private var pending: [(request: UNNotificationRequest, fireDate: Date, addedAt: Date)] = []
    private var added: [Scheduled] = []
    private var discarded: [String] = []
    private let queue = DispatchQueue(label: "UNUserNotificationCenter.stand-in")

    /// Stand-in only: how long an add takes to complete. Apple documents none; on a phone the
    /// request crosses to another process, so code must not assume its completion is immediate.
    @_spi(StandIn) public var addLatency: TimeInterval {
        get { lock.lock(); defer { lock.unlock() }; return latency }
        set { lock.lock(); latency = newValue; lock.unlock() }
    }
    private var latency: TimeInterval = 0

    /// Stand-in only: while true, requests whose trigger date has passed stay pending, as if the
    /// phone's clock stood still. A test that needs the pending list fixed while the extension
    /// works (under load a short sequence can be delivered before a second push looks) sets it.
    @_spi(StandIn) public var holdsDeliveries: Bool {
        get { lock.lock(); defer { lock.unlock() }; return holding }
        set { lock.lock(); holding = newValue; lock.unlock() }
    }
    private var holding = false

    public override init() {}

    /// Stand-in only: where a delivered request's sound is looked for, in Apple's order (see
    /// `UNNotificationSound`); empty: every custom sound plays the default sound.
    @_spi(StandIn) public var soundDirectories: [URL] {
        get { lock.lock(); defer { lock.unlock() }; return directories }
        set { lock.lock(); directories = newValue; lock.unlock() }
    }
    private var directories: [URL] = []

    /// Stand-in only: what each delivered request played, by identifier, in the order they fired:
    /// its sound looked up when it fired.
    @_spi(StandIn) public var deliveredSounds: [(identifier: String, sound: PlayedSound)] {
        lock.lock()
        defer { lock.unlock() }
        prune(now: Date())
        return played
    }
    private var played: [(identifier: String, sound: PlayedSound)] = []

    /// Stand-in only: the center `current()` returns in this task (tests give each phone its own).
    @_spi(StandIn) @TaskLocal public static var simulated: UNUserNotificationCenter?
    private static let shared = UNUserNotificationCenter()

    /// Apple: "Returns your app's notification center."
    open class func current() -> UNUserNotificationCenter { simulated ?? shared }

    /// Apple: "Schedules the delivery of a local notification."
    open func add(_ request: UNNotificationRequest, withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        guard ExtensionProcess.allows("add \(request.identifier)", keeping: completionHandler) else { return }
        let now = Date()
        lock.lock()
        prune(now: now)
        addCount += 1
        if failingAdds.remove(addCount) != nil {
            let delay = latency
            lock.unlock()
            let error = NSError(domain: "UNErrorDomain", code: 1, userInfo: [NSLocalizedDescriptionKey: "the notification could not be scheduled (stand-in: add \(request.identifier) made to fail)"])
            if let completionHandler { queue.asyncAfter(deadline: .now() + delay) { completionHandler(error) } }
            return
        }
        let trigger = request.trigger as? UNTimeIntervalNotificationTrigger
        trigger?.scheduledAt = now
        let fireDate = trigger?.nextTriggerDate() ?? now
        pending.removeAll { $0.request.identifier == request.identifier }
        pending.append((request, fireDate, now))  // in the order added: the limit keeps the last 64
        added.append(Scheduled(identifier: request.identifier, soundName: request.content.sound?.name?.rawValue, fireDate: fireDate, addedAt: now,
                               triggerMadeAt: trigger?.createdAt ?? now, timeInterval: trigger?.timeInterval))
        if pending.count > Self.pendingLimit {
            let excess = pending.count - Self.pendingLimit
            discarded += pending.prefix(excess).map(\.request.identifier)
            pending.removeFirst(excess)
        }
        let delay = latency
        lock.unlock()
        if let completionHandler { queue.asyncAfter(deadline: .now() + delay) { completionHandler(nil) } }
    }

    /// Stand-in only: the `n`th add from now (1: the next one) fails: its request is not scheduled
    /// and its completion handler gets an error (UNErrorDomain).
    @_spi(StandIn) public func failAdd(_ n: Int) {
        lock.lock()
        failingAdds.insert(addCount + n)
        lock.unlock()
    }
    private var addCount = 0
    private var failingAdds: Set<Int> = []

    /// Apple: "Fetches all of your app's local notifications that are pending delivery."
    open func getPendingNotificationRequests(completionHandler: @escaping @Sendable ([UNNotificationRequest]) -> Void) {
        lock.lock()
        prune(now: Date())
        nonisolated(unsafe) let requests = pending.sorted { $0.fireDate < $1.fireDate }.map(\.request)
        lock.unlock()
        queue.async { completionHandler(requests) }
    }

    /// Apple: "Removes your app's local notifications that are pending and match the specified identifiers."
    /// "This method executes asynchronously, removing the pending notification requests on a
    /// secondary thread": carried out on the center's queue after the call returns, in the order
    /// asked; what has fired by then was delivered and stays delivered.
    open func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        guard ExtensionProcess.allows("remove \(identifiers)") else { return }
        lock.lock()
        removed += identifiers
        lock.unlock()
        queue.async { [self] in
            lock.lock()
            prune(now: Date())
            pending.removeAll { identifiers.contains($0.request.identifier) }
            lock.unlock()
        }
    }

    /// Stand-in only: returns once every removal asked for so far has been carried out.
    @_spi(StandIn) public func settled() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in queue.async { continuation.resume() } }
    }

    /// Stand-in only: every identifier the app asked to remove, in order (asked, not yet necessarily removed).
    @_spi(StandIn) public var removedIdentifiers: [String] {
        lock.lock()
        defer { lock.unlock() }
        return removed
    }
    private var removed: [String] = []

    /// Stand-in only: the requests pending now, soonest first.
    @_spi(StandIn) public var pendingRequests: [Scheduled] {
        lock.lock()
        defer { lock.unlock() }
        prune(now: Date())
        return pending.sorted { $0.fireDate < $1.fireDate }.map {
            Scheduled(identifier: $0.request.identifier, soundName: $0.request.content.sound?.name?.rawValue, fireDate: $0.fireDate, addedAt: $0.addedAt,
                      triggerMadeAt: ($0.request.trigger as? UNTimeIntervalNotificationTrigger)?.createdAt ?? $0.addedAt,
                      timeInterval: ($0.request.trigger as? UNTimeIntervalNotificationTrigger)?.timeInterval)
        }
    }

    /// Stand-in only: every request ever added, in order, and those the 64 limit discarded.
    @_spi(StandIn) public var history: (added: [Scheduled], discarded: [String]) {
        lock.lock()
        defer { lock.unlock() }
        return (added, discarded)
    }

    /// Stand-in only: every request delivered so far (its trigger fired while it was pending): what
    /// the user heard, by identifier, in the order they fired.
    @_spi(StandIn) public var deliveredIdentifiers: [String] {
        lock.lock()
        defer { lock.unlock() }
        prune(now: Date())
        return delivered
    }
    private var delivered: [String] = []

    private func prune(now: Date) {
        guard !holding else { return }
        let firing = pending.filter { $0.fireDate <= now }.sorted { $0.fireDate < $1.fireDate }.map(\.request)
        delivered += firing.map(\.identifier)
        played += firing.map { ($0.identifier, PlayedSound.resolve($0.content.sound, in: directories)) }
        pending.removeAll { $0.fireDate <= now }
    }
}

/// Stand-in only: what iOS does around a service extension, so tests can run one. From Apple's
/// `UNNotificationServiceExtension` overview: "Your didReceive(_:withContentHandler:) method has a
/// limited amount of time to perform its task and execute the provided completion block. If your
/// method doesn't finish in time, the system calls the serviceExtensionTimeWillExpire() method to
/// give you one last chance to submit your changes. If you don't update the notification content
/// before time expires, the system displays the original content." Apple documents no grace period
/// after `serviceExtensionTimeWillExpire`; the host waits `graceSeconds` (default 1 s). After expiry
/// the extension is gone ("the system is terminating your extension") as soon as it has called the
/// content handler, or when the grace period ends: see `ExtensionProcess`. The time limit and the
/// grace period count the time in which the test process's tasks could run (`StallMeter`).
@_spi(StandIn) public final class NotificationServiceHost: @unchecked Sendable {
    /// One call of the content handler, with the content it was given.
    public struct Delivery: @unchecked Sendable {
        public var content: UNNotificationContent
        public var afterExpiry: Bool
    }

    public let timeLimit: TimeInterval
    public let graceSeconds: TimeInterval
    private let lock = NSLock()
    private var calls: [Delivery] = []
    private var expired = false
    // One waiter at a time (the host waits for the handler, then for the grace period); a signal
    // that comes with no waiter is kept for the next wait. No thread is blocked while waiting.
    private var waiter: (token: Int, continuation: CheckedContinuation<Bool, Never>)?
    private var pendingSignal = false
    private var nextToken = 0

    public init(timeLimit: TimeInterval = 30, graceSeconds: TimeInterval = 1) {
        self.timeLimit = timeLimit
        self.graceSeconds = graceSeconds
    }

    /// Runs `service` for `request` as iOS would; returns what the user is shown (the original
    /// content when the handler was not called in time) and every call of the handler.
    public func run(_ service: UNNotificationServiceExtension, request: UNNotificationRequest) async -> (shown: UNNotificationContent, calls: [Delivery]) {
        // Work the extension starts (a Task) inherits the process, so the stand-ins know whose it is.
        ExtensionProcess.$current.withValue(process) {
            service.didReceive(request) { [self] content in
                lock.lock()
                calls.append(Delivery(content: content, afterExpiry: expired))
                let gone = expired
                lock.unlock()
                if gone { process.terminate() }  // handed over after expiry: terminated at once
                signal()
            }
        }
        let deliveredInTime = await wait(seconds: timeLimit) && !handlerCalls.isEmpty
        if !deliveredInTime {
            markExpired()
            nonisolated(unsafe) let service = service
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread { [self] in  // "on a separate thread"
                    markTold()
                    ExtensionProcess.$current.withValue(process) { service.serviceExtensionTimeWillExpire() }
                    continuation.resume()
                }.start()
            }
            _ = await wait(seconds: graceSeconds)
            process.terminate()
        }
        let made = handlerCalls
        return (made.first?.content ?? request.content, made)
    }

    /// The process the extension runs in: what it asked for after it was gone.
    public let process = ExtensionProcess()

    /// Stand-in only: every effect the extension asked for after its process was terminated (each
    /// one is a defect: on a phone it never happens, or happens half).
    @_spi(StandIn) public var effectsAfterTermination: [String] { process.effectsAfterTermination }

    /// Ends the time limit now, as if it had passed (for a test that needs expiry at a given step).
    public func expireNow() {
        signal()
    }

    private func markExpired() {
        lock.lock()
        expired = true
        lock.unlock()
    }

    private func markTold() {
        lock.lock()
        expiry = Date()
        lock.unlock()
    }

    private var expiry: Date?
    /// When `serviceExtensionTimeWillExpire` was called, once the time limit passed; nil if it was not.
    public var expiredAt: Date? {
        lock.lock()
        defer { lock.unlock() }
        return expiry
    }

    /// Every call of the content handler so far (a test reads it again later, to see none came late).
    public var handlerCalls: [Delivery] {
        lock.lock()
        defer { lock.unlock() }
        return calls
    }

    private func signal() {
        lock.lock()
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter.continuation.resume(returning: true)
        } else {
            pendingSignal = true
            lock.unlock()
        }
    }

    /// True when signalled within `seconds`, false when the time passed first.
    private func wait(seconds: TimeInterval) async -> Bool {
        let stalls = StallMeter()
        defer { stalls.stop() }
        return await withCheckedContinuation { continuation in
            lock.lock()
            if pendingSignal {
                pendingSignal = false
                lock.unlock()
                continuation.resume(returning: true)
                return
            }
            nextToken += 1
            let token = nextToken
            waiter = (token, continuation)
            lock.unlock()
            // Time in which no task of this process could run is not the extension's: the limit is
            // moved on by as much, for as long as the wait lasts.
            @Sendable func arm(after delay: TimeInterval, counted: TimeInterval) {
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
                    let stalled = stalls.stalledSeconds
                    lock.lock()
                    guard let current = waiter, current.token == token else { lock.unlock(); return }
                    if stalled - counted > 0.001 {
                        lock.unlock()
                        arm(after: stalled - counted, counted: stalled)
                        return
                    }
                    waiter = nil
                    lock.unlock()
                    current.continuation.resume(returning: false)
                }
            }
            arm(after: seconds, counted: 0)
        }
    }
}

/// How long this process's tasks could not run while a host waited, as a heartbeat task on Swift's
/// cooperative threads sees it: a 5 ms sleep that ends more than 15 ms late was held up by work
/// that is not the extension's (the test process shares two cores and those threads with every
/// other test, which can hold them for seconds; a phone's extension has its process to itself).
/// What is counted is the thread pool's stall, not the extension's own slowness: an extension
/// that is slow while tasks can run is charged every second of it.
/// A stall still going on counts too: the heartbeat has not come back since it went to sleep.
final class StallMeter: @unchecked Sendable {
    private let lock = NSLock()
    private var stalled: TimeInterval = 0
    /// When the heartbeat last went to sleep (or was asked for, before its task first runs).
    private var asleepSince = ContinuousClock.now
    private var heartbeat: Task<Void, Never>?

    init() {
        heartbeat = Task.detached { [weak self] in
            while !Task.isCancelled {
                self?.beat()
                try? await Task.sleep(nanoseconds: 5_000_000)
            }
        }
    }

    private func beat() {
        lock.lock()
        defer { lock.unlock() }
        stalled += Self.stall(since: asleepSince)
        asleepSince = ContinuousClock.now
    }

    /// How late a 5 ms sleep begun at `start` is now, when that is more than 15 ms; else 0.
    private static func stall(since start: ContinuousClock.Instant) -> TimeInterval {
        let elapsed = ContinuousClock.now - start
        let late = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18 - 0.005
        return late > 0.015 ? late : 0
    }

    /// Seconds stalled so far, the stall going on included.
    var stalledSeconds: TimeInterval {
        lock.lock()
        defer { lock.unlock() }
        return stalled + Self.stall(since: asleepSince)
    }

    func stop() { heartbeat?.cancel() }
}

/// Stand-in only: the process iOS runs a service extension in. Apple, `serviceExtensionTimeWillExpire`:
/// "Tells you that the system is terminating your extension." Once the extension has called the
/// content handler after that (or the grace period is over) it is gone, and work it had queued is
/// lost (public reports: the process is killed, not drained). The stand-ins cannot stop a thread, so
/// an effect asked for afterwards (an add or removal of a notification, a file written through
/// AVFoundation) is not carried out but recorded, for tests to see; a completion handler it would
/// wait for is never called. A removal asked for while the process ran is carried out: it was
/// handed to the system before the process went (Apple does not say whether a removal still on its
/// "secondary thread" survives the process; the stand-in assumes it does).
@_spi(StandIn) public final class ExtensionProcess: @unchecked Sendable {
    /// The process the calling code runs in: set by `NotificationServiceHost` around the extension's
    /// callbacks and inherited by the Tasks they start; nil for the app and the tests themselves.
    @TaskLocal public static var current: ExtensionProcess?

    private let lock = NSLock()
    private var terminated = false
    private var refused: [String] = []
    private var neverCalled: [Any] = []

    public init() {}

    func terminate() {
        lock.lock()
        terminated = true
        lock.unlock()
    }

    public var isTerminated: Bool {
        lock.lock()
        defer { lock.unlock() }
        return terminated
    }

    /// Every effect asked for after termination, in order.
    public var effectsAfterTermination: [String] {
        lock.lock()
        defer { lock.unlock() }
        return refused
    }

    /// True when the calling code may have `effect`: it is not in an extension, or its extension is
    /// still running. Otherwise records it, keeps `completion` uncalled for good, and returns false.
    public static func allows(_ effect: String, keeping completion: Any? = nil) -> Bool {
        guard let process = current else { return true }
        process.lock.lock()
        defer { process.lock.unlock() }
        guard process.terminated else { return true }
        process.refused.append(effect)
        if let completion { process.neverCalled.append(completion) }
        return false
    }
}

/// Stand-in only: the App Group containers of the simulated phone, by identifier (on iOS the
/// entitlements and provisioning profile decide them).
@_spi(StandIn) public enum AppGroupContainers {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var folders: [String: URL] = [:]

    public static func register(_ identifier: String, at folder: URL) {
        lock.lock()
        folders[identifier] = folder
        lock.unlock()
    }

    public static func remove(_ identifier: String) {
        lock.lock()
        folders[identifier] = nil
        lock.unlock()
    }

    static func folder(_ identifier: String) -> URL? {
        lock.lock()
        defer { lock.unlock() }
        return folders[identifier]
    }
}

extension FileManager {
    /// Foundation on Apple platforms (absent from Linux Foundation): "Returns the container directory
    /// associated with the specified security application group identifier." It returns nil for a
    /// group the app's entitlements do not name; here, for one no test registered.
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        AppGroupContainers.folder(groupIdentifier)
    }
}
#endif

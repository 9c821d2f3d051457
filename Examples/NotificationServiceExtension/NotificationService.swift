// A Notification Service Extension that announces a payment with a soundpack voice pack:
// read the amount, the pinned pack@version and the payment's id from the push, find that
// version's manifest (on disk, else refreshed from the store within a few seconds, else the newest
// on disk), plan the clips with SoundpackCore, download the missing ones (verified against the
// manifest), join them with AVFoundation into the App Group's Library/Sounds, and play that file
// as the notification sound. Before iOS 15 it schedules one local notification per clip instead.
// When the amount's clips cannot all be had in time it plays the pack's prefix (and suffix) alone,
// then (opt-in) the written text in the system voice, and only then the default sound.

// Needs SoundpackShared.swift (configuration, transport, CryptoKit checks) in the same target.

#if canImport(UserNotifications) && canImport(AVFoundation) && canImport(CryptoKit) && (os(iOS) || os(Linux))
import AVFoundation
import Foundation
import SoundpackCore
import UserNotifications

/// How the announcement is played.
nonisolated enum AnnouncementStyle: Sendable {
    /// iOS 15+: one joined file as the push's sound.
    case joinedSound
    /// iOS 13–14: one local notification per clip; the push itself is silent.
    case localSequence

    static var current: AnnouncementStyle {
        if #available(iOS 15.0, *) { return .joinedSound }
        return .localSequence
    }
}

/// State is touched from the system's callbacks and one Task; `lock` guards the hand-over.
nonisolated final class NotificationService: UNNotificationServiceExtension, @unchecked Sendable {
    /// The app's configuration; tests give each simulated phone its own.
    var configuration = SoundpackConfiguration.app
    /// Where the extension's own bundled clips are (its `.appex` bundle).
    var bundle = Bundle.main
    var style = AnnouncementStyle.current

    private let lock = NSLock()
    private var contentHandler: ((UNNotificationContent) -> Void)?
    private var content: UNMutableNotificationContent?
    private var expired = false
    private var work: Task<Void, Never>?
    /// iOS 13–14: the center and every identifier of the sequence being scheduled for this push, known
    /// before the first add, so that it can be withdrawn whole by whichever comes first: a failure, or
    /// `serviceExtensionTimeWillExpire` before it hands over (after that the extension is gone).
    private var scheduled: (center: UNUserNotificationCenter, identifiers: [String])?

    /// userInfo key of every clip notification a sequence schedules: when that sequence ends
    /// (seconds since 1970), so the next payment starts after it, not after its last clip starts.
    static let sequenceEndKey = "soundpackSequenceEnd"
    /// Seconds between two payments' sequences.
    static let sequenceGapSeconds = 0.5
    /// Serializes reading the pending requests and adding a sequence, across every push this
    /// process handles at once: two payments never take the same start or the same free slots.
    private static let scheduling = AsyncLock()

    override func didReceive(_ request: UNNotificationRequest,
                             withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else {
            contentHandler(request.content)
            return
        }
        lock.lock()
        self.contentHandler = contentHandler
        self.content = content
        lock.unlock()
        if #available(iOS 15.0, *) { content.interruptionLevel = .timeSensitive }

        // The payload `soundpack payload` writes: "amount": "15.40", "pack": "wechat@1.0.1",
        // "paymentId": "…", and for a pack with phrases "phrase": "refund" (a phrase that says no
        // amount comes without one). The manifest URL in it is not fetched: URLs come from the
        // configured store only.
        let amount = content.userInfo["amount"] as? String, phrase = content.userInfo["phrase"] as? String
        guard amount != nil || phrase != nil, let pin = (content.userInfo["pack"] as? String).flatMap({ PackRef($0) }) else {
            deliver()
            return
        }
        let payment = (content.userInfo["paymentId"] as? String).flatMap { PaymentID.isValid($0) ? $0 : nil } ?? request.identifier
        let style = self.style
        work = Task {
            await self.announce(Said(phrase: phrase, amount: amount), pin: pin, payment: payment, style: style)
            self.deliver()
        }
    }

    override func serviceExtensionTimeWillExpire() {
        // Out of time: deliver what we have (the original alert with its default sound). Apple: "the
        // system is terminating your extension" — once the content is handed over nothing more runs,
        // so a sequence half added is withdrawn first. Nothing is changed or scheduled after this:
        // the work checks `isExpired` before each step, and each add starts under the same lock.
        lock.lock()
        expired = true
        let work = self.work
        lock.unlock()
        withdrawSequence()
        work?.cancel()
        deliver()
    }

    private var isExpired: Bool {
        lock.lock()
        defer { lock.unlock() }
        return expired
    }

    /// What a push asks to be said: a phrase (nil: the pack's default; one the pack does not have
    /// falls back to the default) and an amount as written (nil for a phrase that says none).
    struct Said: Sendable, CustomStringConvertible {
        var phrase: String?
        var amount: String?
        var description: String { [phrase.map { "phrase \($0)" }, amount].compactMap { $0 }.joined(separator: " ") }
    }

    private func announce(_ said: Said, pin: PackRef, payment: String, style: AnnouncementStyle) async {
        let group: URL, planner: ClipPlanner
        do { group = try configuration.group() } catch { return configuration.report("no App Group container: \(error)") }
        // An APNs retry, a duplicated push or the app's foreground handler never speak twice.
        guard configuration.announcedPayments(in: group).claim(payment) else {
            useSound(nil)
            return
        }
        do { planner = try await self.planner(pin: pin, group: group) } catch { return configuration.report("no plan for \(pin): \(error)") }
        switch style {
        case .joinedSound:
            if let name = await joinedSound(said, planner: planner, group: group) { useSound(name) }
        case .localSequence:
            do {
                try await scheduleSequence(said, planner: planner, group: group, payment: payment)
                useSound(nil)
            } catch { configuration.report("no sequence for \(said): \(error)") }
        }
    }

    /// Sets the sound (`nil`: none, when a local-notification sequence speaks instead). Once the
    /// content is delivered nothing changes it.
    private func useSound(_ name: String?) {
        lock.lock()
        defer { lock.unlock() }
        guard contentHandler != nil, !expired else { return }
        content?.sound = name.map { UNNotificationSound(named: UNNotificationSoundName($0)) }
    }

    /// Runs `add` (which starts adding a notification) unless time has run out; under the lock, so a
    /// withdrawal at expiry is asked for after every add that was begun. False: not run.
    private func unlessExpired(_ add: () -> Void) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !expired else { return false }
        add()
        return true
    }

    /// Records the sequence about to be added; false when time has already run out.
    private func beginSequence(_ identifiers: [String], center: UNUserNotificationCenter) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !expired else { return false }
        scheduled = (center, identifiers)
        return true
    }

    /// Removes every notification of the sequence, added or not, once (whichever path comes first).
    /// The removal "executes asynchronously", and a clip whose trigger has fired by then plays: the
    /// clips are added latest first, so what is pending when this runs fires last.
    private func withdrawSequence() {
        lock.lock()
        defer { lock.unlock() }
        guard let scheduled else { return }
        self.scheduled = nil
        scheduled.center.removePendingNotificationRequests(withIdentifiers: scheduled.identifiers)
    }

    /// Hands a copy of the content to the system exactly once.
    private func deliver() {
        lock.lock()
        let handler = contentHandler
        let delivered = content?.copy() as? UNNotificationContent
        contentHandler = nil
        lock.unlock()
        if let handler, let delivered { handler(delivered) }
    }

    /// The planner for the pack the push pins: that version when its manifest is on disk, else
    /// refreshed from the store within `refreshBudget`, else the newest on disk, else the manifest
    /// the app shipped. While the signature policy is a set-up error, the manifest the app shipped
    /// only (reported; nothing is fetched or read from the refresher's folder).
    func planner(pin: PackRef, group: URL) async throws -> ClipPlanner {
        let shipped = try SharedManifest(data: Data(contentsOf: group.appendingPathComponent(configuration.sharedManifestFile)))
        let listed = configuration.defaults?.stringArray(forKey: shipped.key) ?? []
        let transport = URLSessionTransport.ephemeral(seconds: configuration.refreshBudget)
        defer { transport.session.finishTasksAndInvalidate() }
        var manifest = shipped, bundled = listed
        do {
            let refresher = try configuration.refresher(in: group, transport: transport)
            if let resolved = await refresher.resolve(pin, budget: configuration.refreshBudget) {
                let pack = SharedPack(published: resolved.manifest, storeURL: configuration.storeURL)
                manifest = shipped.replacing(with: pack)
                bundled = shipped.bundled(listed, stillUsedBy: pack)  // a re-recorded clip is downloaded, not taken from the bundle
            }
        } catch {
            configuration.report("no refresh: \(error)")
        }
        return try ClipPlanner(manifest: manifest, packID: pin.id, bundledFiles: bundled,
                               soundsFolder: configuration.sounds(in: group), hasher: CryptoKitSHA256())
    }

    /// The joined sound for the phrase and amount; when its clips cannot all be had in time, the
    /// phrase's own clips (prefix and suffix) alone from the clips on the phone; then, opted in, the
    /// written text in the system voice; nil when none of them can be made (the default sound plays).
    private func joinedSound(_ said: Said, planner: ClipPlanner, group: URL) async -> String? {
        let sounds = configuration.sounds(in: group)
        do { return try await prepareSound(try planner.plan(amount: said.amount, phrase: said.phrase), sounds: sounds) } catch {
            configuration.report("no joined sound for \(said): \(error)")
        }
        guard !isExpired else { return nil }
        do { return try await prepareSound(try planner.framingPlan(phrase: said.phrase), sounds: sounds) } catch {
            configuration.report("no prefix alone: \(error)")
        }
        let pack = planner.pack, phrase = planner.phrase(said.phrase)
        let parsed = said.amount.flatMap { try? Amount(parsing: $0, maximum: pack.maxAmount) }
        guard configuration.speaksWrittenTextAsLastResort, !isExpired, parsed != nil || !phrase.saysAmount else { return nil }
        let announcement = pack.phrasebook.announcement(phrase)
        let text = pack.grammar.text(of: parsed.map(announcement.tokens) ?? announcement.frame([]), texts: pack.texts)
        let spoken = [pack.phrasebook.isDeclared ? phrase.id : nil, parsed?.description].compactMap { $0 }.joined(separator: ".")
        do {
            return try await SpokenText.write(text, language: pack.grammar.id.speechLanguage, soundName: "soundpack-\(pack.id)-spoken-\(spoken).caf",
                                              into: JoinedSoundCache(folder: sounds), within: configuration.speechBudget)
        } catch {
            configuration.report("no spoken text: \(error)")
            return nil
        }
    }

    /// Builds (or reuses) the joined sound of `plan`; returns its file name in Library/Sounds.
    private func prepareSound(_ plan: ClipPlan, sounds: URL) async throws -> String {
        try FileManager.default.createDirectory(at: sounds, withIntermediateDirectories: true)
        let cache = JoinedSoundCache(folder: sounds)  // 5 MB, least recently used first; removes killed joins
        if cache.sound(named: plan.soundName) != nil { return plan.soundName }
        try await download(plan.downloads, into: sounds)
        guard !isExpired else { throw CancellationError() }
        let temporary = cache.temporaryURL()  // ends in .caf: AVAudioFile infers the file type from it
        do {
            try join(try clipURLs(plan, sounds: sounds), to: temporary)
            try cache.store(fileAt: temporary, named: plan.soundName)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        return plan.soundName
    }

    /// iOS 13–14: one local notification per clip, offsets from the clips' real durations, after
    /// the end of any sequence still pending. Reading the pending requests and adding ours is one
    /// step for every push this process handles, so two payments never overlap, and a sequence that
    /// does not fit in iOS's 64 pending slots is refused whole: iOS keeps the last 64 added and
    /// silently discards the oldest, which would be the app's own reminders. When an add fails, or
    /// `serviceExtensionTimeWillExpire` comes, every notification of this payment is withdrawn
    /// before the push is handed over: it plays its default sound alone. Each clip plays from a
    /// copy named by its content (see `pinClips`).
    private func scheduleSequence(_ said: Said, planner: ClipPlanner, group: URL, payment: String) async throws {
        let plan = try planner.plan(amount: said.amount, phrase: said.phrase)
        let sounds = configuration.sounds(in: group)
        try await download(plan.downloads, into: sounds)
        let takes = try clipURLs(plan, sounds: sounds)
        let center = UNUserNotificationCenter.current()
        await Self.scheduling.lock()
        defer { Self.scheduling.unlock() }
        guard !isExpired else { throw CancellationError() }
        let pending: [PendingClip] = await withCheckedContinuation { continuation in
            // Only Sendable facts cross back: the requests themselves are not Sendable.
            center.getPendingNotificationRequests { requests in continuation.resume(returning: requests.map(PendingClip.init)) }
        }
        // The last clip leaves the pending list when it fires, while its sound still plays: the end
        // of the last sequence is also kept in the group container.
        let record = configuration.support(in: group).appendingPathComponent("sequence-end")
        let recorded = (try? String(contentsOf: record, encoding: .utf8)).flatMap(Double.init).map { Date(timeIntervalSince1970: $0) }
        let now = Date()
        let busyUntil = (pending.compactMap(\.endsAt) + [recorded].compactMap { $0 }).max()
            .map { max(0, $0.timeIntervalSince(now) + Self.sequenceGapSeconds) } ?? 0
        var sequence = try LocalNotificationSequence.schedule(plan, pack: planner.pack, payment: payment, startSeconds: busyUntil,
                                                              pending: pending.count)
        try pinClips(of: &sequence, takes: takes, sounds: sounds, removingUnused: busyUntil == 0)
        guard beginSequence(sequence.entries.map(\.identifier), center: center) else { throw CancellationError() }
        do {
            let anchor = try await add(sequence, to: center, from: now)
            guard !isExpired else { throw CancellationError() }
            try FileManager.default.createDirectory(at: record.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(String(anchor.addingTimeInterval(sequence.endSeconds).timeIntervalSince1970).utf8).write(to: record, options: .atomic)
        } catch {
            withdrawSequence()
            throw error
        }
    }

    /// The start of every clip copy a sequence plays: `soundpack.clip.<SHA-256, 16 hex>.<file>`. Not
    /// `soundpack-`, the joined sounds' prefix, which their cache evicts by.
    static let pinnedClipPrefix = "soundpack.clip."

    /// iOS looks a notification's sound up in Library/Sounds when it fires, not when it is added,
    /// and every pack and version shares that folder: another pack's `yuan.caf`, or a re-recording,
    /// written there before a clip fires would be played in its place. So each clip is played from a
    /// copy named by its content, which nothing writes with other bytes. With no sequence pending or
    /// playing (`removingUnused`), the copies of earlier sequences are removed first, so the folder
    /// does not grow with every re-recording.
    private func pinClips(of sequence: inout LocalNotificationSequence, takes: [URL], sounds: URL, removingUnused: Bool) throws {
        let hasher = CryptoKitSHA256()
        let pinned = try takes.map { take -> (name: String, data: Data) in
            let data = try Data(contentsOf: take)
            return (Self.pinnedClipPrefix + hasher.sha256Hex(data).prefix(16) + "." + take.lastPathComponent, data)
        }
        if removingUnused {
            let keep = Set(pinned.map(\.name))
            for name in (try? FileManager.default.contentsOfDirectory(atPath: sounds.path)) ?? []
            where name.hasPrefix(Self.pinnedClipPrefix) && !keep.contains(name) {
                try? FileManager.default.removeItem(at: sounds.appendingPathComponent(name))
            }
        }
        for (index, clip) in pinned.enumerated() {
            let url = sounds.appendingPathComponent(clip.name)
            if !FileManager.default.fileExists(atPath: url.path) { try clip.data.write(to: url, options: .atomic) }
            sequence.entries[index].soundName = clip.name
        }
    }

    /// How many times the adds may start over later before the sequence is given up.
    private static let schedulingPasses = 5

    /// Adds the sequence's clips, the latest first, each trigger set so that every clip plays at
    /// `anchor` plus its offset whatever the adds take (a time-interval trigger counts from when it is
    /// added); returns the anchor. Latest first: a run cut short leaves only clips due last, which the
    /// withdrawal reaches before they fire, never the first clip (due a fraction of a second away). The
    /// earliest clip is added last: when the adds so far say it would be added after its time, the
    /// whole sequence moves later and is added again (an add replaces the pending request with its
    /// identifier), so the clips stay back to back.
    private func add(_ sequence: LocalNotificationSequence, to center: UNUserNotificationCenter, from now: Date) async throws -> Date {
        let entries = Array(sequence.entries.reversed()), earliest = sequence.entries.first?.offsetSeconds ?? 0
        let minimum = LocalNotificationSequence.minimumOffsetSeconds
        var anchor = now
        passes: for _ in 0..<Self.schedulingPasses {
            let started = Date()
            for (done, entry) in entries.enumerated() {
                let perAdd = done == 0 ? 0 : Date().timeIntervalSince(started) / Double(done)
                let earliestInterval = earliest - Date().timeIntervalSince(anchor) - perAdd * Double(entries.count - done)
                if earliestInterval < minimum {
                    // Starting over re-adds the `done` clips too; half the adds again as a margin.
                    anchor = anchor.addingTimeInterval(minimum - earliestInterval + perAdd * (Double(done) + Double(entries.count) / 2) + 0.05)
                    continue passes
                }
                let clip = UNMutableNotificationContent()
                clip.sound = UNNotificationSound(named: UNNotificationSoundName(entry.soundName))
                clip.userInfo = [Self.sequenceEndKey: anchor.addingTimeInterval(sequence.endSeconds).timeIntervalSince1970]
                let trigger = UNTimeIntervalNotificationTrigger(timeInterval: entry.offsetSeconds - Date().timeIntervalSince(anchor), repeats: false)
                let request = UNNotificationRequest(identifier: entry.identifier, content: clip, trigger: trigger)
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let began = unlessExpired {
                        center.add(request) { error in
                            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                        }
                    }
                    if !began { continuation.resume(throwing: CancellationError()) }
                }
            }
            return anchor
        }
        throw AddsTooSlow(passes: Self.schedulingPasses)
    }

    /// The adds kept falling behind the first clip's time.
    struct AddsTooSlow: Error, CustomStringConvertible {
        var passes: Int
        var description: String { "adding the clips fell behind the first clip's time \(passes) times" }
    }

    /// Where each planned clip is on the phone: bundled clips in the extension's own bundle or in
    /// the copy the app made in the group's Library/Sounds (the extension cannot read the app's bundle).
    private func clipURLs(_ plan: ClipPlan, sounds: URL) throws -> [URL] {
        try plan.clips.map { clip -> URL in
            switch clip.source {
            case .bundled:
                if let url = bundle.url(forResource: clip.file, withExtension: nil) { return url }
                let copy = sounds.appendingPathComponent(clip.file)
                guard FileManager.default.fileExists(atPath: copy.path) else { throw CocoaError(.fileNoSuchFile) }
                return copy
            case .librarySounds(let url):
                return url
            case .download:
                return sounds.appendingPathComponent(clip.file)
            }
        }
    }

    /// Downloads the clips in parallel, within the budget; each is verified before it is stored.
    /// The budget is a deadline of the extension's own (the session's timeouts are a backstop), as
    /// the refresher keeps its budget: the downloads and the deadline race, the first to end wins.
    private func download(_ clips: [PlannedClip], into sounds: URL) async throws {
        guard !clips.isEmpty else { return }
        let budget = configuration.downloadBudget
        let transport = URLSessionTransport.ephemeral(seconds: budget)
        defer { transport.session.finishTasksAndInvalidate() }
        let verifier = ClipVerifier(hasher: CryptoKitSHA256())
        try await withThrowingTaskGroup(of: Bool.self) { race in
            race.addTask {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for clip in clips {
                        guard case .download(let url) = clip.source else { continue }
                        group.addTask {
                            let response = try await transport.get(url, ifNoneMatch: nil)
                            guard response.status == 200 else { throw URLError(.badServerResponse) }
                            try verifier.verify(response.body, against: clip)  // never use bytes the manifest does not vouch for
                            try response.body.write(to: sounds.appendingPathComponent(clip.file), options: .atomic)
                        }
                    }
                    try await group.waitForAll()
                }
                return true
            }
            race.addTask {
                try await Task.sleep(nanoseconds: UInt64(max(0, budget) * 1e9))
                return false
            }
            defer { race.cancelAll() }
            guard try await race.next() == true else { throw DownloadsTooSlow(seconds: budget) }
        }
    }

    /// The clips did not all come within the download budget.
    struct DownloadsTooSlow: Error, CustomStringConvertible {
        var seconds: TimeInterval
        var description: String { "the clips did not all download within \(seconds) s" }
    }

    /// Joins the clips end to end into one 16-bit little-endian PCM file at `output`, whose
    /// extension names its type. The file is closed when `file` goes out of scope; the cache then
    /// renames it into place.
    ///
    /// Every buffer written must be in the file's processing format, and a mismatch is no error
    /// to catch: another sample type crashes the extension, another rate plays at the wrong speed.
    /// A pack that passed `soundpack validate` has one format, but a clip kept on the phone (from an
    /// older version, or in the extension's own bundle) may not: the clips are checked first, and a
    /// clip of another format is refused whole (the caller falls back).
    private func join(_ urls: [URL], to output: URL) throws {
        let inputs = try urls.map { try AVAudioFile(forReading: $0) }
        guard let format = inputs.first?.processingFormat else { throw CocoaError(.fileReadNoSuchFile) }
        if let odd = inputs.first(where: { !ClipFormatMismatch.same($0.processingFormat, format) }) {
            throw ClipFormatMismatch(file: odd.url.lastPathComponent, found: odd.processingFormat, expected: format)
        }
        let settings: [String: Any] = [
            AVFormatIDKey: kAudioFormatLinearPCM,
            AVSampleRateKey: format.sampleRate,
            AVNumberOfChannelsKey: format.channelCount,
            AVLinearPCMBitDepthKey: 16,
            AVLinearPCMIsFloatKey: false,
            AVLinearPCMIsBigEndianKey: false,
        ]
        let file = try AVAudioFile(forWriting: output, settings: settings, commonFormat: format.commonFormat, interleaved: format.isInterleaved)
        for input in inputs {
            guard let buffer = AVAudioPCMBuffer(pcmFormat: input.processingFormat, frameCapacity: AVAudioFrameCount(input.length)) else {
                throw CocoaError(.fileReadCorruptFile)
            }
            try input.read(into: buffer)
            try file.write(from: buffer)
        }
    }
}

/// A clip whose format is not the other clips': joining it would crash (another sample type) or
/// play it at the wrong speed (another rate).
nonisolated struct ClipFormatMismatch: Error, CustomStringConvertible {
    var file: String
    /// The clip's format and the others', as "22050 Hz, 1 ch, Float32".
    var found: String
    var expected: String

    init(file: String, found: AVAudioFormat, expected: AVAudioFormat) {
        self.file = file
        self.found = Self.describe(found)
        self.expected = Self.describe(expected)
    }

    private static func describe(_ format: AVAudioFormat) -> String {
        let type: String
        switch format.commonFormat {
        case .pcmFormatFloat32: type = "Float32"
        case .pcmFormatInt16: type = "Int16"
        default: type = "sample type \(format.commonFormat.rawValue)"
        }
        return "\(Int(format.sampleRate)) Hz, \(format.channelCount) ch, \(type)"
    }

    /// One processing format: the same sample type, rate, channel count and layout.
    static func same(_ a: AVAudioFormat, _ b: AVAudioFormat) -> Bool {
        a.commonFormat == b.commonFormat && a.sampleRate == b.sampleRate && a.channelCount == b.channelCount
            && (a.isInterleaved == b.isInterleaved || a.channelCount == 1)
    }

    var description: String {
        "\(file) reads as \(found), the other clips as \(expected): not joined"
    }
}

/// What the scheduler needs of a pending request, read inside the center's callback.
nonisolated struct PendingClip: Sendable {
    var endsAt: Date?

    init(_ request: UNNotificationRequest) {
        guard request.identifier.hasPrefix(LocalNotificationSequence.identifierPrefix) else { endsAt = nil; return }
        if let end = request.content.userInfo[NotificationService.sequenceEndKey] as? Double {
            endsAt = Date(timeIntervalSince1970: end)
        } else {
            endsAt = (request.trigger as? UNTimeIntervalNotificationTrigger)?.nextTriggerDate()
        }
    }
}

/// A lock for async code: `lock()` waits (without blocking a thread) until `unlock()`.
nonisolated final class AsyncLock: @unchecked Sendable {
    private let state = NSLock()
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func lock() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            state.lock()
            if held {
                waiters.append(continuation)
                state.unlock()
            } else {
                held = true
                state.unlock()
                continuation.resume()
            }
        }
    }

    func unlock() {
        state.lock()
        if waiters.isEmpty {
            held = false
            state.unlock()
        } else {
            let next = waiters.removeFirst()
            state.unlock()
            next.resume()
        }
    }
}

/// The opt-in last resort: the reading's written text (the tool's own words) spoken by the system
/// voice and written into a CAF file in Library/Sounds, never played by the extension itself, within
/// the time budget. `AVSpeechSynthesizer.write(_:toBufferCallback:)` is iOS 13+.
nonisolated enum SpokenText {
    static func write(_ text: String, language: String, soundName: String, into cache: JoinedSoundCache, within seconds: TimeInterval) async throws -> String {
        if cache.sound(named: soundName) != nil { return soundName }
        try FileManager.default.createDirectory(at: cache.folder, withIntermediateDirectories: true)
        let temporary = cache.temporaryURL()
        let writer = BufferWriter(url: temporary)
        let synthesizer = AVSpeechSynthesizer()
        let utterance = AVSpeechUtterance(string: text)
        utterance.voice = AVSpeechSynthesisVoice(language: language)
        let finished: Bool = await withCheckedContinuation { continuation in
            let once = Once(continuation)
            synthesizer.write(utterance) { buffer in
                // The last buffer is empty: the speech is complete.
                guard let pcm = buffer as? AVAudioPCMBuffer, pcm.frameLength > 0 else { once.resume(writer.close()); return }
                writer.append(pcm)
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { once.resume(false) }
        }
        _ = synthesizer  // kept alive until the speech is written
        guard finished else {
            try? FileManager.default.removeItem(at: temporary)
            throw CancellationError()
        }
        try cache.store(fileAt: temporary, named: soundName)
        return soundName
    }

    /// Writes the synthesizer's buffers into one file, opened with the first buffer's format.
    private final class BufferWriter: @unchecked Sendable {
        private let url: URL
        private let lock = NSLock()
        private var file: AVAudioFile?
        private var failed = false
        init(url: URL) { self.url = url }

        func append(_ buffer: AVAudioPCMBuffer) {
            lock.lock()
            defer { lock.unlock() }
            guard !failed else { return }
            do {
                if file == nil {
                    let settings: [String: Any] = [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: buffer.format.sampleRate,
                                                   AVNumberOfChannelsKey: buffer.format.channelCount, AVLinearPCMBitDepthKey: 16,
                                                   AVLinearPCMIsFloatKey: false, AVLinearPCMIsBigEndianKey: false]
                    file = try AVAudioFile(forWriting: url, settings: settings, commonFormat: buffer.format.commonFormat, interleaved: buffer.format.isInterleaved)
                }
                try file?.write(from: buffer)
            } catch {
                failed = true
            }
        }

        /// Closes the file (by releasing it); true when something was written without error.
        func close() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            let wrote = file != nil && !failed
            file = nil
            return wrote
        }
    }

    /// Resumes a continuation once, from whichever comes first.
    private final class Once: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Bool, Never>?
        init(_ continuation: CheckedContinuation<Bool, Never>) { self.continuation = continuation }
        func resume(_ value: Bool) {
            lock.lock()
            let pending = continuation
            continuation = nil
            lock.unlock()
            pending?.resume(returning: value)
        }
    }
}

nonisolated extension GrammarID {
    /// The system voice's language for a grammar.
    var speechLanguage: String {
        switch self {
        case .zhHans: return "zh-CN"
        case .zhHant: return "zh-TW"
        case .enUS: return "en-US"
        case .enIN: return "en-IN"
        case .hiIN: return "hi-IN"
        // A grammar read from its table: its name is a BCP 47 tag, which AVSpeechSynthesisVoice takes.
        default: return rawValue
        }
    }
}
#endif

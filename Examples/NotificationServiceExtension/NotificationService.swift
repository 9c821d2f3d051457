// A Notification Service Extension that announces a payment with a soundpack voice pack:
// read the amount and the pinned pack@version from the push, find that version's manifest (on disk,
// else refreshed from the store within a few seconds, else the newest on disk), plan the clips with
// SoundpackCore, download the missing ones (verified against the manifest), join them with
// AVFoundation into the App Group's Library/Sounds, and play that file as the notification sound.
// Before iOS 15 it schedules one local notification per clip instead. When anything fails or time
// runs out, the push is delivered as sent, with the default sound.

// Needs SoundpackShared.swift (configuration, transport, CryptoKit checks) in the same target.

#if canImport(UserNotifications) && canImport(AVFoundation) && canImport(CryptoKit) && os(iOS)
import AVFoundation
import Foundation
import SoundpackCore
import UserNotifications

/// State is touched from the system's callbacks and one Task; `lock` guards the hand-over.
final class NotificationService: UNNotificationServiceExtension, @unchecked Sendable {
    /// iOS gives the extension about 30 s: a few for a manifest refresh, then the clips, leaving
    /// room to join them and deliver.
    static let refreshBudget: Double = 5
    static let downloadBudget: TimeInterval = 12

    private var contentHandler: ((UNNotificationContent) -> Void)?
    private var content: UNMutableNotificationContent?
    private var work: Task<Void, Never>?
    private let lock = NSLock()

    override func didReceive(_ request: UNNotificationRequest,
                             withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else {
            contentHandler(request.content)
            return
        }
        self.contentHandler = contentHandler
        self.content = content
        if #available(iOS 15.0, *) { content.interruptionLevel = .timeSensitive }

        // The payload `soundpack payload` writes: "amount": "15.40", "pack": "wechat@1.0.1". The
        // manifest URL in it is not fetched: URLs come from the configured store only.
        guard let amount = content.userInfo["amount"] as? String,
              let pin = (content.userInfo["pack"] as? String).flatMap({ PackPin($0) }) else {
            deliver()
            return
        }
        let payment = request.identifier
        work = Task {
            if #available(iOS 15.0, *) {
                if let soundName = try? await self.prepareSound(amount: amount, pin: pin) {
                    self.useSound(named: soundName)
                }
            } else {
                // iOS 13–14: the clips play as a sequence of local notifications; this push stays silent.
                if (try? await self.scheduleSequence(amount: amount, pin: pin, payment: payment)) != nil {
                    self.useSound(named: nil)
                }
            }
            self.deliver()
        }
    }

    override func serviceExtensionTimeWillExpire() {
        // Out of time: deliver what we have (the original alert with its default sound).
        work?.cancel()
        deliver()
    }

    /// Sets the sound (nil: none, when a local-notification sequence speaks instead).
    private func useSound(named name: String?) {
        lock.lock()
        defer { lock.unlock() }
        guard contentHandler != nil else { return }  // already delivered by serviceExtensionTimeWillExpire
        content?.sound = name.map { UNNotificationSound(named: UNNotificationSoundName($0)) }
    }

    /// Hands the content to the system exactly once.
    private func deliver() {
        lock.lock()
        let handler = contentHandler
        contentHandler = nil
        lock.unlock()
        if let handler, let content { handler(content) }
    }

    /// The plan for the amount with the pack the push pins: that version when its manifest is on
    /// disk, else refreshed from the store within `refreshBudget`, else the newest on disk, else the
    /// manifest the app shipped.
    func plan(amount: String, pin: PackPin, group: URL) async throws -> (ClipPlan, SharedPack) {
        let shipped = try SharedManifest(data: Data(contentsOf: group.appendingPathComponent(SoundpackConfiguration.manifestFile)))
        let listed = UserDefaults(suiteName: SoundpackConfiguration.appGroup)?.stringArray(forKey: shipped.key) ?? []
        let refresher = SoundpackConfiguration.refresher(in: group, transport: .ephemeral(seconds: Self.refreshBudget))
        var manifest = shipped, bundled = listed
        if let resolved = await refresher.resolve(pin, budget: Self.refreshBudget) {
            let pack = SharedPack(published: resolved.manifest, storeURL: SoundpackConfiguration.storeURL)
            manifest = shipped.replacing(with: pack)
            bundled = shipped.bundled(listed, stillUsedBy: pack)  // a re-recorded clip is downloaded, not taken from the bundle
        }
        let planner = try ClipPlanner(manifest: manifest, packID: pin.id, bundledFiles: bundled,
                                      soundsFolder: SoundpackConfiguration.sounds(in: group), hasher: CryptoKitSHA256())
        return (try planner.plan(amount: amount), planner.pack)
    }

    /// Builds (or reuses) the joined sound for the amount; returns its file name in Library/Sounds.
    @available(iOS 15.0, *)
    func prepareSound(amount: String, pin: PackPin) async throws -> String {
        let group = try SoundpackConfiguration.group()
        let sounds = SoundpackConfiguration.sounds(in: group)
        try FileManager.default.createDirectory(at: sounds, withIntermediateDirectories: true)
        let (plan, _) = try await plan(amount: amount, pin: pin, group: group)
        let cache = JoinedSoundCache(folder: sounds)  // 5 MB, least recently used first; removes killed joins
        if cache.sound(named: plan.soundName) != nil { return plan.soundName }

        try await download(plan.downloads, into: sounds, verifier: ClipVerifier(hasher: CryptoKitSHA256()))
        let temporary = cache.temporaryURL()
        try join(try clipURLs(plan, sounds: sounds), to: temporary)
        try cache.store(fileAt: temporary, named: plan.soundName)
        return plan.soundName
    }

    /// iOS 13–14: one local notification per clip, offsets from the clips' real durations, after
    /// any sequence still pending, so two payments never interleave.
    func scheduleSequence(amount: String, pin: PackPin, payment: String) async throws {
        let group = try SoundpackConfiguration.group()
        let sounds = SoundpackConfiguration.sounds(in: group)
        let (plan, pack) = try await plan(amount: amount, pin: pin, group: group)
        try await download(plan.downloads, into: sounds, verifier: ClipVerifier(hasher: CryptoKitSHA256()))
        let center = UNUserNotificationCenter.current()
        let pending: [UNNotificationRequest] = await withCheckedContinuation { continuation in
            center.getPendingNotificationRequests { continuation.resume(returning: $0) }
        }
        // Sequences are scheduled back to back: the last pending clip's trigger is when ours may start.
        let busyUntil = pending.filter { $0.identifier.hasPrefix(LocalNotificationSequence.identifierPrefix) }
            .compactMap { ($0.trigger as? UNTimeIntervalNotificationTrigger)?.nextTriggerDate()?.timeIntervalSinceNow }.max() ?? 0
        let sequence = try LocalNotificationSequence.schedule(plan, pack: pack, payment: payment, startSeconds: busyUntil + 1,
                                                              pending: pending.count)
        for entry in sequence.entries {
            let clip = UNMutableNotificationContent()
            clip.sound = UNNotificationSound(named: UNNotificationSoundName(entry.soundName))
            let trigger = UNTimeIntervalNotificationTrigger(timeInterval: entry.offsetSeconds, repeats: false)
            let request = UNNotificationRequest(identifier: entry.identifier, content: clip, trigger: trigger)
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                center.add(request) { error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            }
        }
    }

    /// Where each planned clip is on the phone: bundled clips in the extension's own bundle or in
    /// the copy the app made in the group's Library/Sounds (the extension cannot read the app's bundle).
    private func clipURLs(_ plan: ClipPlan, sounds: URL) throws -> [URL] {
        try plan.clips.map { clip -> URL in
            switch clip.source {
            case .bundled:
                if let url = Bundle.main.url(forResource: clip.file, withExtension: nil) { return url }
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
    private func download(_ clips: [PlannedClip], into sounds: URL, verifier: ClipVerifier) async throws {
        guard !clips.isEmpty else { return }
        let transport = URLSessionTransport.ephemeral(seconds: Self.downloadBudget)
        defer { transport.session.finishTasksAndInvalidate() }
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
    }

    /// Joins the clips end to end into one 16-bit little-endian PCM CAF file at `output` (all clips
    /// share one format; soundpack validate checks that). The cache renames it into place.
    private func join(_ urls: [URL], to output: URL) throws {
        guard let first = urls.first else { return }
        let format = try AVAudioFile(forReading: first).processingFormat
        let settings: [String: Any] = [
            AVFormatIDKey: kAudioFormatLinearPCM,
            AVSampleRateKey: format.sampleRate,
            AVNumberOfChannelsKey: format.channelCount,
            AVLinearPCMBitDepthKey: 16,
            AVLinearPCMIsFloatKey: false,
            AVLinearPCMIsBigEndianKey: false,
        ]
        let file = try AVAudioFile(forWriting: output, settings: settings, commonFormat: format.commonFormat, interleaved: format.isInterleaved)
        for url in urls {
            let input = try AVAudioFile(forReading: url)
            guard let buffer = AVAudioPCMBuffer(pcmFormat: input.processingFormat, frameCapacity: AVAudioFrameCount(input.length)) else {
                throw CocoaError(.fileReadCorruptFile)
            }
            try input.read(into: buffer)
            try file.write(from: buffer)
        }
    }  // `file` is closed when it goes out of scope
}
#endif

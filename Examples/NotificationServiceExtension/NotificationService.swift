// A Notification Service Extension that announces a payment with a soundpack voice pack:
// read the amount from the push, plan the clips with SoundpackCore, download the missing ones
// (verified against the manifest) well inside the extension's time, join them with AVFoundation
// into the App Group's Library/Sounds, and play that file as the notification sound. When
// anything fails or time runs out, the push is delivered as sent, with the default sound.

#if canImport(UserNotifications) && canImport(AVFoundation) && canImport(CryptoKit) && os(iOS)
import AVFoundation
import CryptoKit
import Foundation
import SoundpackCore
import UserNotifications

/// SHA-256 through CryptoKit, for SoundpackCore's verification of downloaded clips.
struct CryptoKitSHA256: SHA256Hashing {
    func sha256Hex(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}

/// State is touched from the system's callbacks and one Task; `lock` guards the hand-over.
final class NotificationService: UNNotificationServiceExtension, @unchecked Sendable {
    /// The App Group shared with the main app (Signing & Capabilities → App Groups).
    static let appGroup = "group.com.example.payments"
    /// Written into the group container by the main app (see MainAppSetup.swift).
    static let manifestFile = "SoundpackManifest.plist"
    /// iOS gives the extension about 30 s; leave room to join the clips and deliver.
    static let downloadBudget: TimeInterval = 15

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

        // The payload `soundpack payload` writes: "amount": "15.40", "pack": "wechat@1.0.1".
        guard let amount = content.userInfo["amount"] as? String,
              let packID = (content.userInfo["pack"] as? String)?.split(separator: "@").first.map(String.init) else {
            deliver()
            return
        }
        work = Task {
            if let soundName = try? await self.prepareSound(amount: amount, packID: packID) {
                self.useSound(named: soundName)
            }
            self.deliver()
        }
    }

    override func serviceExtensionTimeWillExpire() {
        // Out of time: deliver what we have (the original alert with its default sound).
        work?.cancel()
        deliver()
    }

    private func useSound(named name: String) {
        lock.lock()
        defer { lock.unlock() }
        guard contentHandler != nil else { return }  // already delivered by serviceExtensionTimeWillExpire
        content?.sound = UNNotificationSound(named: UNNotificationSoundName(name))
    }

    /// Hands the content to the system exactly once.
    private func deliver() {
        lock.lock()
        let handler = contentHandler
        contentHandler = nil
        lock.unlock()
        if let handler, let content { handler(content) }
    }

    /// Builds (or reuses) the joined sound for the amount; returns its file name in Library/Sounds.
    func prepareSound(amount: String, packID: String) async throws -> String {
        let fileManager = FileManager.default
        guard let group = fileManager.containerURL(forSecurityApplicationGroupIdentifier: Self.appGroup) else {
            throw CocoaError(.fileNoSuchFile)
        }
        let sounds = group.appendingPathComponent("Library/Sounds", isDirectory: true)
        try fileManager.createDirectory(at: sounds, withIntermediateDirectories: true)

        let manifest = try SharedManifest(data: Data(contentsOf: group.appendingPathComponent(Self.manifestFile)))
        let bundled = UserDefaults(suiteName: Self.appGroup)?.stringArray(forKey: manifest.key) ?? []
        let hasher = CryptoKitSHA256()
        let planner = try ClipPlanner(manifest: manifest, packID: packID, bundledFiles: bundled, soundsFolder: sounds, hasher: hasher)
        let plan = try planner.plan(amount: amount)

        let target = sounds.appendingPathComponent(plan.soundName)
        if fileManager.fileExists(atPath: target.path) { return plan.soundName }

        try await download(plan.downloads, into: sounds, verifier: ClipVerifier(hasher: hasher))
        let urls = try plan.clips.map { clip -> URL in
            switch clip.source {
            case .bundled:
                // The extension cannot read the app's bundle: a bundled clip is in its own bundle
                // (Target Membership) or in the copy the app made in the group's Library/Sounds.
                if let url = Bundle.main.url(forResource: clip.file, withExtension: nil) { return url }
                let copy = sounds.appendingPathComponent(clip.file)
                guard fileManager.fileExists(atPath: copy.path) else { throw CocoaError(.fileNoSuchFile) }
                return copy
            case .librarySounds(let url):
                return url
            case .download:
                return sounds.appendingPathComponent(clip.file)
            }
        }
        try join(urls, to: target)
        return plan.soundName
    }

    /// Downloads the clips in parallel, within the budget; each is verified before it is stored.
    private func download(_ clips: [PlannedClip], into sounds: URL, verifier: ClipVerifier) async throws {
        guard !clips.isEmpty else { return }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForResource = Self.downloadBudget
        configuration.waitsForConnectivity = false
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for clip in clips {
                guard case .download(let url) = clip.source else { continue }
                group.addTask {
                    let (data, response) = try await Self.fetch(url, with: session)
                    guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
                    try verifier.verify(data, against: clip)  // never use bytes the manifest does not vouch for
                    try data.write(to: sounds.appendingPathComponent(clip.file), options: .atomic)
                }
            }
            try await group.waitForAll()
        }
    }

    /// One GET: `data(from:)` where iOS has it (15), a data task bridged to async before that.
    private static func fetch(_ url: URL, with session: URLSession) async throws -> (Data, URLResponse) {
        if #available(iOS 15.0, *) {
            return try await session.data(from: url)
        }
        return try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: url) { data, response, error in
                if let data, let response {
                    continuation.resume(returning: (data, response))
                } else {
                    continuation.resume(throwing: error ?? URLError(.badServerResponse))
                }
            }.resume()
        }
    }

    /// Joins the clips end to end into one 16-bit PCM CAF file (all clips share one format; soundpack
    /// validate checks that), written to a temporary name and moved into place.
    private func join(_ urls: [URL], to target: URL) throws {
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
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).caf")
        do {
            let output = try AVAudioFile(forWriting: temporary, settings: settings, commonFormat: format.commonFormat,
                                         interleaved: format.isInterleaved)
            for url in urls {
                let input = try AVAudioFile(forReading: url)
                guard let buffer = AVAudioPCMBuffer(pcmFormat: input.processingFormat, frameCapacity: AVAudioFrameCount(input.length)) else {
                    throw CocoaError(.fileReadCorruptFile)
                }
                try input.read(into: buffer)
                try output.write(from: buffer)
            }
        }  // `output` is closed here, when it goes out of scope
        _ = try? FileManager.default.removeItem(at: target)
        try FileManager.default.moveItem(at: temporary, to: target)
    }
}
#endif

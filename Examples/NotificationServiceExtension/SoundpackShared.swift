// What the app and its Notification Service Extension share: where the packs are published, the
// key that signs them (or that they are unsigned, on purpose), the App Group, and SoundpackCore's
// injected pieces on iOS (URLSession for the network, CryptoKit for SHA-256 and Ed25519). Add this
// file to both targets.
//
// On Linux it compiles against the stand-ins in Tests/StandIns, so our tests run this very code.
// The types are `nonisolated`: with Xcode 26's default isolation for new targets (MainActor) they
// would otherwise be main-actor types, which cannot satisfy SoundpackCore's nonisolated protocols.

#if canImport(CryptoKit) && (os(iOS) || os(Linux))
import CryptoKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SoundpackCore

/// SHA-256 through CryptoKit, for SoundpackCore's verification of manifests and clips.
nonisolated struct CryptoKitSHA256: SHA256Hashing {
    func sha256Hex(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}

/// Ed25519 through CryptoKit, for the refresher's check of manifest.json.sig.
nonisolated struct CryptoKitEd25519: SignatureVerifying {
    func isValidSignature(_ signature: Data, of message: Data, publicKey: Data) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
        return key.isValidSignature(signature, for: message)
    }
}

/// GETs through URLSession: `data(for:)` where iOS has it (15), a data task bridged to async before
/// (and on Linux, where the tests run it).
nonisolated struct URLSessionTransport: HTTPTransport {
    let session: URLSession

    func get(_ url: URL, ifNoneMatch: String?) async throws -> HTTPResponse {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
        if let ifNoneMatch { request.setValue(ifNoneMatch, forHTTPHeaderField: "If-None-Match") }
        let result: (Data, URLResponse)
        #if canImport(FoundationNetworking)
        // swift-corelibs-foundation's data(for:) cancels its data task from the cancellation
        // handler, which runs holding the Swift task's status lock, and URLSessionTask.cancel()
        // waits for the session's queue; when that queue is at the same moment resuming the
        // request's continuation (it failed), the resume waits for the status lock: a deadlock,
        // seen as a test that never ends when a download race is cancelled. The bridge cancels
        // from another queue.
        result = try await Self.bridged(session, request)
        #else
        if #available(iOS 15.0, *) {
            result = try await session.data(for: request)
        } else {
            result = try await Self.bridged(session, request)
        }
        #endif
        let (data, response) = result
        let http = response as? HTTPURLResponse
        let etag = http?.allHeaderFields.first { ($0.key as? String)?.lowercased() == "etag" }?.value as? String
        return HTTPResponse(status: http?.statusCode ?? 0, body: data, etag: etag)
    }

    /// `request` as a data task bridged to async; cancelling the Swift task cancels the data task
    /// from a queue of its own, never inside the cancellation handler.
    static func bridged(_ session: URLSession, _ request: URLRequest) async throws -> (Data, URLResponse) {
        let pending = PendingTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let data, let response {
                        continuation.resume(returning: (data, response))
                    } else {
                        continuation.resume(throwing: error ?? URLError(.badServerResponse))
                    }
                }
                pending.start(task)
            }
        } onCancel: {
            DispatchQueue.global().async { pending.cancel() }
        }
    }

    /// An ephemeral session (no URL cache: the refresher keeps its own ETag) that gives up after
    /// `seconds`: a backstop, as each budget is also kept by a deadline of the extension's own.
    static func ephemeral(seconds: TimeInterval) -> URLSessionTransport {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        #if canImport(FoundationNetworking)
        // swift-corelibs-foundation's URLSession counts a timeout in whole seconds, dropping the
        // fraction: 0.4 s and 0.8 s time out at once, 1.5 s after 1 s. Rounded up it never ends a
        // request before the deadline does (tests run the budgets at a tenth of the phone's).
        let seconds = seconds.rounded(.up)
        #endif
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        #if !canImport(FoundationNetworking)  // Linux's URLSession never waits, and the property is read-only there
        configuration.waitsForConnectivity = false
        #endif
        return URLSessionTransport(session: URLSession(configuration: configuration))
    }
}

/// A data task that may be cancelled before or after it starts: one cancelled first never starts.
nonisolated final class PendingTask: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    /// Resumes `task`, and cancels it at once when the request was cancelled already (its
    /// completion handler then reports the cancellation, so the caller is always answered).
    func start(_ task: URLSessionDataTask) {
        lock.lock()
        self.task = task
        let cancelled = self.cancelled
        lock.unlock()
        task.resume()
        if cancelled { task.cancel() }
    }

    /// Cancels the task, now or when it starts.
    func cancel() {
        lock.lock()
        cancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }
}

/// Where this app's packs are published, which key signs them, the App Group they share, and the
/// extension's time budgets: one value for both targets (`.app`), which tests replace with their own.
nonisolated struct SoundpackConfiguration: Sendable {
    /// Whether the store's manifests must be signed, and by which keys.
    nonisolated enum Signature: Sendable {
        /// Each manifest must be signed by one of these keys: the contents of `release.key.pub`
        /// (`soundpack keygen -o release.key`; CI publishes with `--sign-key release.key`), pasted as
        /// they are (the trailing newline is fine). A key that is not one is a set-up error: it is
        /// reported, and no manifest is fetched until it is fixed.
        case signed(publicKeys: [String])
        /// The store is not signed, on purpose: manifests are checked against index.json's SHA-256 only.
        case unsigned
    }

    /// The App Group shared with the main app (Signing & Capabilities → App Groups).
    var appGroup: String
    /// The store as the CDN serves it: what `soundpack export --base-url` was given.
    var storeURL: String
    /// The signature policy, chosen on purpose: there is no default.
    var signature: Signature
    /// Written into the group container by the main app (see MainAppSetup.swift).
    var sharedManifestFile = "SoundpackManifest.plist"
    /// iOS gives the extension about 30 s, and on the longest path the budgets are spent one after
    /// another: the refresh twice (a yanked pin is refreshed again for the newest version), the
    /// clips, then the system voice: 2 × 4 + 8 + 5 = 21 s, leaving 9 s to read, join and deliver.
    /// Keep that sum under about 25 s when changing one.
    var refreshBudget: Double = 4
    var downloadBudget: TimeInterval = 8
    /// The opt-in spoken text's budget: how long the system voice may take to write it.
    var speechBudget: TimeInterval = 5
    /// Opt-in last resort when not even the prefix is on the phone: the reading's written text
    /// spoken by the system voice into a CAF file (never played by the extension itself).
    var speaksWrittenTextAsLastResort = false
    /// Why the extension fell back (a step that failed, and its error): hand it to your logging
    /// (`os.Logger` on iOS). The push is delivered whatever it says.
    var report: @Sendable (String) -> Void = { _ in }

    /// This app's configuration.
    static let app = SoundpackConfiguration(appGroup: "group.com.example.payments", storeURL: "https://cdn.example.com/voice",
                                            signature: .signed(publicKeys: ["REPLACE-WITH-THE-CONTENTS-OF-release.key.pub"]))

    func group() throws -> URL {
        guard let group = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup) else {
            throw CocoaError(.fileNoSuchFile)  // the App Group is missing from a target or its profile
        }
        return group
    }

    /// The shared UserDefaults, where the app lists the clips it bundles (`kMainAppMp3FileKey`).
    var defaults: UserDefaults? { UserDefaults(suiteName: appGroup) }

    func sounds(in group: URL) -> URL { group.appendingPathComponent("Library/Sounds", isDirectory: true) }
    func support(in group: URL) -> URL { group.appendingPathComponent("Library/Application Support/Soundpack", isDirectory: true) }
    func announcedPayments(in group: URL) -> AnnouncedPayments {
        AnnouncedPayments(folder: support(in: group).appendingPathComponent("announced", isDirectory: true), hasher: CryptoKitSHA256())
    }

    /// The policy `signature` describes; throws (naming the key) when a configured key is not one.
    func manifestTrust() throws(ManifestTrustError) -> ManifestTrust {
        switch signature {
        case .signed(let publicKeys): return try .signed(publicKeys: publicKeys)
        case .unsigned: return .unsigned
        }
    }

    /// The refresher under this configuration's policy; throws instead when the policy is a set-up error.
    func refresher(in group: URL, transport: URLSessionTransport) throws(ManifestTrustError) -> ManifestRefresher {
        ManifestRefresher(storeURL: storeURL, folder: support(in: group), trust: try manifestTrust(),
                          transport: transport, verifier: CryptoKitEd25519(), hasher: CryptoKitSHA256())
    }

    /// The group's folders are readable while the phone is locked, once it has been unlocked after
    /// a restart (`completeUntilFirstUserAuthentication`). A payment app that turns on Complete
    /// protection for its own files must not apply it here: under `complete` the extension cannot
    /// read the manifest or the clips while the phone is locked, when most payments arrive, and
    /// every push falls back to the default sound.
    func protectFolders(in group: URL) {
        #if os(iOS)
        for folder in [sounds(in: group), support(in: group)] {
            try? FileManager.default.setAttributes([.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: folder.path)
        }
        #endif
    }
}
#endif

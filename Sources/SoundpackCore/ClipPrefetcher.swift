// The app's half of keeping clips on the phone: download every clip of the current pack that is
// neither bundled nor already in the App Group's Library/Sounds, so the extension, which has
// seconds, rarely downloads anything. Budgeted (stops starting downloads at a deadline),
// resumable (each finished clip stays; the next run fetches only the rest), and every download is
// checked against the manifest's size and SHA-256 before it is renamed into place.

import Foundation

public struct ClipPrefetcher: Sendable {
    public let soundsFolder: URL
    public let transport: any HTTPTransport
    public let hasher: any SHA256Hashing
    public var now: @Sendable () -> Date = { Date() }

    public init(soundsFolder: URL, transport: any HTTPTransport, hasher: any SHA256Hashing = PortableSHA256()) {
        self.soundsFolder = soundsFolder
        self.transport = transport
        self.hasher = hasher
    }

    /// What one run did.
    public struct Report: Sendable, Equatable {
        /// Files downloaded, verified and kept by this run.
        public var downloaded: [String] = []
        /// Files already bundled or in Library/Sounds with the right bytes.
        public var present: [String] = []
        /// Files refused or not fetched, with why; the next run tries them again.
        public var failed: [String: String] = [:]
        /// Files not started because the deadline passed.
        public var remaining: [String] = []

        /// Whether every clip of the pack is now on the phone.
        public var isComplete: Bool { failed.isEmpty && remaining.isEmpty }
    }

    /// Fetches the clips of `pack` that are missing, one at a time, until `deadline`.
    /// - Parameter bundled: clip files the app bundles (the list under the manifest key).
    public func prefetch(_ pack: SharedPack, bundled: Set<String> = [], until deadline: Date = .distantFuture) async -> Report {
        var report = Report()
        let verifier = ClipVerifier(hasher: hasher)
        var seen = Set<String>()
        for clip in pack.clips.values.sorted(by: { $0.file < $1.file }) where seen.insert(clip.file).inserted {
            guard ManifestRefresher.isSafeStorePath(clip.file), !clip.file.contains("/") else {
                report.failed[clip.file] = "not a file name Library/Sounds can hold"
                continue
            }
            let target = soundsFolder.appendingPathComponent(clip.file)
            if bundled.contains(clip.file) || (try? Data(contentsOf: target)).map({ (try? verifier.verify($0, against: clip)) != nil }) == true {
                report.present.append(clip.file)
                continue
            }
            guard now() < deadline, !Task.isCancelled else {
                report.remaining.append(clip.file)
                continue
            }
            guard let url = clip.url else {
                report.failed[clip.file] = PlanError.noDownloadURL(file: clip.file).description
                continue
            }
            do {
                let response = try await transport.get(url, ifNoneMatch: nil)
                guard response.status == 200 else {
                    report.failed[clip.file] = "\(url.absoluteString.visible) answered HTTP \(response.status)"
                    continue
                }
                try verifier.verify(response.body, against: clip)  // before anything is written
                try keep(response.body, as: target)
                report.downloaded.append(clip.file)
            } catch {
                report.failed[clip.file] = "\(error)"
            }
        }
        return report
    }

    /// Writes the verified bytes to a temporary name beside `target`, then renames it into place.
    private func keep(_ data: Data, as target: URL) throws {
        try FileManager.default.createDirectory(at: soundsFolder, withIntermediateDirectories: true)
        try FileReplacement.write(data, to: target, temporaryName: JoinedSoundCache.temporaryName(extension: target.pathExtension))
    }
}

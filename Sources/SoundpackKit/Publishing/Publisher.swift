// `publish`: validate, archive, copy into the store, record in the catalog, rebuild the index.
// Order makes a crash harmless: every store file is written (temp, fsync, rename) before the
// catalog commit, and index.json is rebuilt from the catalog after it, so a version is either
// in the catalog with all its files, or in neither catalog nor index; a rerun completes it.

import Foundation
import SoundpackCore

/// What publishing one pack came to.
public struct PublishOutcome: Sendable {
    public enum Status: String, Sendable, Codable { case published, unchanged, refused }
    public var directory: String
    public var id: String?
    public var version: String?
    public var status: Status
    /// Said to the user: why refused, or what was written.
    public var message: String
    /// The rule a refusal falls under (`catalog.version-conflict`), when one applies.
    public var rule: String?
    public var report: PackReport?
}

/// A store (static files) and the catalog that records it.
public final class Publisher {
    public let catalog: Catalog
    public let store: String
    public let signingKey: SigningKey?
    /// mtime of tar entries: `SOURCE_DATE_EPOCH` or 0.
    public let sourceDateEpoch: Int64
    public var now: () -> Date = { Date() }
    /// Recorded with the validation runs publishing makes.
    public var toolVersion = "soundpack"

    public init(catalog: Catalog, store: String, signingKey: SigningKey? = nil, sourceDateEpoch: Int64 = 0) {
        self.catalog = catalog
        self.store = store
        self.signingKey = signingKey
        self.sourceDateEpoch = sourceDateEpoch
    }

    /// Publishes each pack; refusals are outcomes, environment failures throw.
    public func publish(directories: [String], progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) throws(PublishError) -> [PublishOutcome] {
        let reports = Validator().validate(directories: directories, progress: progress)
        var outcomes: [PublishOutcome] = []
        let lock = try StoreLock(store: store)
        defer { lock.release() }
        removeStaleTemporaryFiles()
        for report in reports {
            // The gate's run goes into the validation history like any other.
            do { try catalog.recordValidation(report, strict: false, toolVersion: toolVersion, at: now()) } catch { throw .catalog(error.message) }
            outcomes.append(try publish(report))
        }
        try writeIndex()
        return outcomes
    }

    private func publish(_ report: PackReport) throws(PublishError) -> PublishOutcome {
        var outcome = PublishOutcome(directory: report.directory, id: report.id, version: report.version, status: .refused,
                                     message: "", rule: nil, report: report)
        guard report.errors == 0, let id = report.id, let versionText = report.version, let version = SemanticVersion(versionText),
              let digest = report.digest else {
            outcome.message = "validation failed with \(report.errors) error\(report.errors == 1 ? "" : "s"); nothing was published"
            return outcome
        }
        let published: [PublishedVersion]
        do { published = try catalog.publishedVersions(of: id) } catch { throw .catalog(error.message) }

        if let same = published.first(where: { $0.version == versionText }) {
            if same.digest != digest {
                outcome.rule = "catalog.version-conflict"
                outcome.message = "\(id)@\(versionText) is already published with other content (digest \(same.digest.prefix(12)), this pack \(digest.prefix(12))); published versions never change — bump the version in pack.json"
            } else if same.yanked {
                outcome.message = "\(id)@\(versionText) was yanked (\(same.yankReason ?? "no reason given")) and can never be published again; bump the version"
            } else {
                outcome.status = .unchanged
                outcome.message = "\(id)@\(versionText) is already published with this content; nothing to do"
            }
            return outcome
        }
        let versions = published.compactMap { SemanticVersion($0.version) }
        if let newest = versions.max(), version <= newest {
            outcome.message = "\(id)@\(versionText) is not newer than the published \(newest); a new version must be greater than every published one"
            return outcome
        }
        if let newest = versions.max() {
            let old: VersionFacts?, new: VersionFacts
            do { old = try catalog.facts(of: id, newest.description) } catch { throw .catalog(error.message) }
            new = Self.facts(of: report)
            if let old {
                let change = VersionChange(from: old, to: new)
                let bump = Bump.between(newest, version)
                if bump < change.required {
                    let reasons = change.items.filter { $0.needs > bump }.map { "\($0.kind) (\($0.detail)) needs a \($0.needs.name) bump" }
                    outcome.message = "\(id)@\(versionText) is a \(bump.name) bump from \(newest), but \(reasons.joined(separator: "; "))"
                    return outcome
                }
            }
        }

        let manifest = try writeVersion(report, id: id, version: versionText, digest: digest)
        let recorded: Bool
        do {
            recorded = try catalog.recordPublication(manifest.manifest, report: report, manifestSha256: manifest.sha256, at: now())
        } catch { throw .catalog(error.message) }
        guard recorded else {
            outcome.status = .unchanged
            outcome.message = "\(id)@\(versionText) was published meanwhile; nothing to do"
            return outcome
        }
        outcome.status = .published
        outcome.message = "published \(id)@\(versionText) (\(manifest.manifest.clips.count) clips, digest \(digest.prefix(12))) to \(store)/\(id)/\(versionText)"
        return outcome
    }

    /// The compatibility facts of a validated pack.
    static func facts(of report: PackReport) -> VersionFacts {
        var clips: [String: (String, String)] = [:]
        for clip in report.clips {
            guard let f = clip.facts else { continue }
            clips[clip.token] = (f.sha256, "\(f.sampleRate) Hz, \(f.channels) ch, \(f.codec.rawValue)")
        }
        return VersionFacts(version: report.version ?? "", digest: report.digest ?? "", grammar: report.grammar ?? "",
                            two: report.two ?? "er", maxAmount: report.maxAmount ?? "", clips: clips)
    }

    /// Where a clip lives in the store: its pack path, under `clips/`.
    static func storePath(_ path: String) -> String {
        let clean = path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
        return clean.hasPrefix("clips/") ? clean : "clips/" + clean
    }

    /// The pack's files as they go into archives: pack.json and each clip at its pack path.
    static func packFiles(_ report: PackReport, root: URL) throws(PublishError) -> [(path: String, bytes: [UInt8])] {
        var files: [(String, [UInt8])] = []
        var seen = Set<String>()
        let manifestPath = root.appendingPathComponent("pack.json").path
        guard let pack = FileManager.default.contents(atPath: manifestPath) else { throw .io("cannot read \(manifestPath)") }
        files.append(("pack.json", Array(pack)))
        for clip in report.clips {
            let path = clip.file.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
            guard seen.insert(path).inserted else { continue }
            guard let bytes = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) else {
                throw .io("cannot read \(root.path)/\(path)")
            }
            files.append((path, Array(bytes)))
        }
        return files
    }

    /// Writes clips, archives and manifest.json (and its signature) of one version.
    private func writeVersion(_ report: PackReport, id: String, version: String, digest: String) throws(PublishError) -> (manifest: StoreManifest, sha256: String) {
        let root = URL(fileURLWithPath: report.directory, isDirectory: true)
        let files = try Self.packFiles(report, root: root)
        let folder = URL(fileURLWithPath: store).appendingPathComponent(id).appendingPathComponent(version)
        var clips: [String: StoreManifest.Clip] = [:]
        let bytesByPath = Dictionary(files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { a, _ in a })
        for clip in report.clips {
            guard let facts = clip.facts else { continue }
            let path = clip.file.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
            let target = Self.storePath(path)
            guard let bytes = bytesByPath[path], Digest.sha256Hex(bytes) == facts.sha256 else {
                throw .io("\(path) changed while it was being published; publish again")
            }
            try put(bytes, at: folder.appendingPathComponent(target))
            clips[clip.token] = StoreManifest.Clip(
                file: target, bytes: bytes.count, sha256: facts.sha256, frames: facts.frames, durationSeconds: facts.durationSeconds,
                container: facts.container.rawValue, codec: facts.codec.rawValue, sampleRate: facts.sampleRate, channels: facts.channels)
        }
        var archives: [String: StoreManifest.FileRecord] = [:]
        for kind in ArchiveKind.allCases {
            let bytes: [UInt8]
            do { bytes = try ReproducibleArchive.make(files, kind: kind, mtime: sourceDateEpoch) } catch { throw .io(error.message) }
            let name = "\(id)-\(version).\(kind.rawValue)"
            try put(bytes, at: folder.appendingPathComponent(name))
            archives[kind.rawValue] = StoreManifest.FileRecord(file: name, bytes: bytes.count, sha256: Digest.sha256Hex(bytes))
        }
        let packJSON = bytesByPath["pack.json"] ?? []
        let manifest = StoreManifest(
            id: id, name: report.name, version: version, grammar: report.grammar ?? "", two: report.two ?? "er",
            maxAmount: report.maxAmount ?? "", profile: report.profile ?? "ios-notification", texts: report.texts ?? [:],
            digest: digest, clips: clips,
            packJSON: StoreManifest.FileRecord(file: "pack.json", bytes: packJSON.count, sha256: Digest.sha256Hex(packJSON)),
            archives: archives, signingKey: signingKey?.keyID)
        try put(packJSON, at: folder.appendingPathComponent("pack.json"))
        let encoded = Array(manifest.encoded())
        if let signingKey {
            let signature = Data(signingKey.sign(encoded)).base64EncodedString() + "\n"
            try put(Array(signature.utf8), at: folder.appendingPathComponent("manifest.json.sig"))
        }
        try put(encoded, at: folder.appendingPathComponent("manifest.json"))
        return (manifest, Digest.sha256Hex(encoded))
    }

    private func put(_ bytes: [UInt8], at url: URL) throws(PublishError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(Data(bytes), to: url.path)
        } catch {
            throw .io("cannot write \(url.path): \(error.localizedDescription)")
        }
    }

    /// Temporary files a killed publish left behind. Only called under the store lock, when no
    /// other soundpack process can be writing one.
    private func removeStaleTemporaryFiles() {
        guard let walker = FileManager.default.enumerator(atPath: store) else { return }
        for case let relative as String in walker {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix("."), name.hasSuffix(".tmp") { try? FileManager.default.removeItem(atPath: store + "/" + relative) }
        }
    }

    /// Rebuilds index.json from the catalog (under the store lock, so writers take turns).
    public func writeIndex() throws(PublishError) {
        let index: StoreIndex
        do { index = try catalog.storeIndex() } catch { throw .catalog(error.message) }
        try put(Array(index.encoded()), at: URL(fileURLWithPath: store).appendingPathComponent("index.json"))
    }
}

/// Why publishing could not go on: the catalog or the store failed (exit 3).
public enum PublishError: Error, Sendable, CustomStringConvertible {
    case catalog(String)
    case io(String)

    public var description: String {
        switch self {
        case .catalog(let message): return "catalog: \(message)"
        case .io(let message): return message
        }
    }
}

/// An exclusive lock on the store (`.soundpack.lock`), held while a process publishes or yanks.
public final class StoreLock {
    private var fd: Int32

    public init(store: String) throws(PublishError) {
        do { try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true) } catch {
            throw .io("cannot create the store \(store): \(error.localizedDescription)")
        }
        fd = open(store + "/.soundpack.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io("cannot open \(store)/.soundpack.lock: \(String(cString: strerror(errno)))") }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(fd)
                throw .io("cannot lock \(store): \(String(cString: strerror(errno)))")
            }
        }
    }

    public func release() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { release() }
}

// The joined sounds an extension leaves in the App Group's Library/Sounds: one file per distinct
// amount (120–250 KB each) would pile up for ever, and a join the system killed leaves a temporary.
// The cache keeps them under a byte budget, dropping the least recently used first.

import Foundation

/// Joined announcement files (`soundpack-…caf`, named by `ClipPlanner.soundName`) in a folder,
/// kept under a byte budget. Clips downloaded into the same folder are not its business.
public struct JoinedSoundCache: Sendable {
    /// The App Group's `Library/Sounds`, where iOS looks for notification sounds.
    public let folder: URL
    /// Joined sounds beyond this many bytes in all are evicted, least recently used first.
    public let budgetBytes: Int
    /// A temporary left by a join older than this is a killed join's, and is removed.
    public let staleTemporarySeconds: TimeInterval
    /// The clock, for tests.
    public var now: @Sendable () -> Date = { Date() }

    public static let defaultBudgetBytes = 5_000_000
    static let prefix = "soundpack-"
    static let temporaryPrefix = ".soundpack-"
    /// Between a temporary's random part and its extension: `.soundpack-<UUID>.partial.caf`.
    static let temporaryMarker = ".partial."

    /// A hidden temporary name in the folder that keeps `fileExtension`: AVAudioFile picks the file
    /// type to write from the extension ("infers the file type to create from the file extension"),
    /// so a join written under a name without an audio extension fails.
    static func temporaryName(extension fileExtension: String) -> String {
        "\(temporaryPrefix)\(UUID().uuidString)\(temporaryMarker)\(fileExtension.isEmpty ? "caf" : fileExtension)"
    }

    static func isTemporary(_ name: String) -> Bool { name.hasPrefix(temporaryPrefix) && name.contains(temporaryMarker) }

    public init(folder: URL, budgetBytes: Int = JoinedSoundCache.defaultBudgetBytes, staleTemporarySeconds: TimeInterval = 300) {
        self.folder = folder
        self.budgetBytes = budgetBytes
        self.staleTemporarySeconds = staleTemporarySeconds
    }

    /// The joined sound named `name` when it is cached; its use is recorded (it becomes the most
    /// recently used).
    public func sound(named name: String) -> URL? {
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        try? FileManager.default.setAttributes([.modificationDate: now()], ofItemAtPath: url.path)
        return url
    }

    /// Writes a joined sound: to a temporary name first, renamed into place whole (a killed join
    /// leaves only a temporary, which a later call removes), then evicts down to the budget,
    /// never the sound just written.
    @discardableResult
    public func store(_ data: Data, named name: String) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = temporaryURL()
        try data.write(to: temporary)
        return try store(fileAt: temporary, named: name)
    }

    /// A temporary name for a join in progress (for code that writes the file itself, such as
    /// AVAudioFile), ending in `.caf` like the joined sounds; `store(fileAt:named:)` moves it into place.
    public func temporaryURL() -> URL {
        folder.appendingPathComponent(Self.temporaryName(extension: "caf"))
    }

    /// Moves a file written at `temporaryURL()` into place as `name`, then evicts.
    @discardableResult
    public func store(fileAt temporary: URL, named name: String) throws -> URL {
        let target = folder.appendingPathComponent(name)
        try FileReplacement.move(temporary, over: target)
        try? FileManager.default.setAttributes([.modificationDate: now()], ofItemAtPath: target.path)
        evict(keeping: name)
        return target
    }

    /// Removes stale temporaries, then the least recently used joined sounds until the rest fit the
    /// budget. `keeping` is never removed.
    public func evict(keeping: String? = nil) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var sounds: [(name: String, bytes: Int, used: Date)] = []
        for name in names {
            let path = folder.appendingPathComponent(name).path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            let used = attributes[.modificationDate] as? Date ?? .distantPast
            if Self.isTemporary(name) {
                if now().timeIntervalSince(used) > staleTemporarySeconds { try? FileManager.default.removeItem(atPath: path) }
            } else if Self.isJoinedSound(name) {
                sounds.append((name, (attributes[.size] as? NSNumber)?.intValue ?? 0, used))
            }
        }
        var total = sounds.reduce(0) { $0 + $1.bytes }
        for sound in sounds.sorted(by: { $0.used < $1.used }) where total > budgetBytes && sound.name != keeping {
            if (try? FileManager.default.removeItem(at: folder.appendingPathComponent(sound.name))) != nil { total -= sound.bytes }
        }
    }

    static func isJoinedSound(_ name: String) -> Bool { name.hasPrefix(prefix) && name.hasSuffix(".caf") }

    /// Bytes the joined sounds take now.
    public var totalBytes: Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter(Self.isJoinedSound).reduce(0) { total, name in
            total + (((try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path))?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }
}

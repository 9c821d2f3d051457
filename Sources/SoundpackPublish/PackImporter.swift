// `import`: a received pack archive, extracted safely into a temporary folder, validated, then
// renamed into place. Nothing is left at the destination when any step fails.

import Foundation
import SoundpackPack
import SoundpackStore
import SoundpackSupport
import SoundpackValidation

/// What an import did: the pack is in place, or it did not validate and nothing was imported.
public enum ImportOutcome: Sendable {
    case imported(PackReport)
    case invalid(PackReport)

    /// The validation report of the extracted pack, whether it was imported or not.
    public var report: PackReport {
        switch self {
        case .imported(let report), .invalid(let report): return report
        }
    }
}

/// `soundpack import`: a pack archive (tar.gz or zip) into a new folder, all or nothing.
public enum PackImporter {
    /// Extracts `archive` into `destination` (which must not exist); the report names the pack by
    /// the destination as the user wrote it.
    public static func importArchive(_ archive: String, into destination: PackFolder, limits: ExtractionLimits = ExtractionLimits()) throws(SoundpackError) -> ImportOutcome {
        let target = URL(fileURLWithPath: destination.path).standardizedFileURL
        guard !FileManager.default.fileExists(atPath: target.path) else {
            throw .refused("\(destination.shown) already exists; import into a new folder")
        }
        let parent = target.deletingLastPathComponent()
        StagingFolder.removeAbandoned(in: parent, for: target.lastPathComponent, "importing")
        let staging = parent.appendingPathComponent(StagingFolder.name(target.lastPathComponent, "importing"))
        do {
            try Folders.create(parent.path)
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw .environment("cannot write into \(parent.path): \(error.localizedDescription)")
        }
        var committed = false
        defer { if !committed { try? FileManager.default.removeItem(at: staging) } }
        do { _ = try SafeExtractor.extract(archive, into: staging.path, limits: limits) } catch {
            throw error.cause(of: .refused, "\(archive) refused", joint: .colon)
        }
        // A pack archive holds pack.json at its root, or one folder that does.
        var root = staging
        if !FileManager.default.fileExists(atPath: staging.appendingPathComponent(PackFolder.packFile).path) {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []
            guard entries.count == 1, FileManager.default.fileExists(atPath: staging.appendingPathComponent(entries[0]).appendingPathComponent(PackFolder.packFile).path) else {
                throw .refused("\(archive) holds no pack.json at its root")
            }
            root = staging.appendingPathComponent(entries[0])
        }
        let report = Validator().validate(folder: PackFolder(path: root.path, shown: destination.shown))
        guard report.errors == 0 else {
            return .invalid(report)
        }
        guard rename(root.path, target.path) == 0 else {
            throw .environment("cannot move the pack into \(destination.shown): \(String(cString: strerror(errno)))")
        }
        // When the pack sat in a folder of its own, the emptied staging folder goes too.
        if root != staging { try? FileManager.default.removeItem(at: staging) }
        committed = true
        return .imported(report.moved(to: destination))
    }
}

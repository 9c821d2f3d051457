import Foundation
import SoundpackCore
import SoundpackSupport

/// `store.changed` (error): a file's bytes differ from the SHA-256 its manifest or the catalog
/// records; a manifest phones refuse, that describes another version, or that disagrees with the
/// catalog or with its own pack.json; or something that is not a file where soundpack wrote one.
/// A published version never changes: a phone that cached the old bytes would play a mix.
struct StoreChanged: StoreRule {
    static let id = RuleID.storeChanged
    static let severity = Severity.error
    static let summary = "A file's bytes differ from the SHA-256 its manifest or the catalog records, a manifest is not one soundpack wrote, or a FIFO, device, socket, folder or symbolic link stands where soundpack wrote a file (or the file is reached through a link)."

    func check(_ store: StoreObservations) -> [Finding] {
        store.looked.compactMap(changed) + store.versions.flatMap(disagreements)
    }

    /// What stood at a key looked at, when it is not what was written there.
    private func changed(_ looked: StoreObservations.Looked) -> Finding? {
        switch looked.found {
        case .file(let found):
            guard let source = looked.listedBy, let sha256 = looked.sha256, found != sha256 else { return nil }
            return finding(looked.key, "SHA-256 is \(found.prefix(16))…, the \(source) says \(sha256.prefix(16))…")
        case .notAFile(let kind):
            return finding(looked.key, "\(kind), not a file: a store holds only the files soundpack wrote")
        case .tooLarge(let bytes, let cap):
            return finding(looked.key, "\(bytes) bytes, above the \(cap >> 10) KiB a soundpack \((looked.key as NSString).lastPathComponent) may hold")
        case .absent, .unread:
            return nil
        }
    }

    /// A version's manifest against the catalog's record and its pack.json.
    private func disagreements(_ version: StoreObservations.Version) -> [Finding] {
        let key = version.manifestKey
        switch version.manifest {
        case nil:
            return []
        case .refused(let reason)?:
            return [finding(key, "not a manifest soundpack wrote, and phones refuse it: \(reason)")]
        case .describes(let other)?:
            return [finding(key, "describes \(other), not \(PackRef.name(version.id, version.version))")]
        case .read(let manifest, let packJSONDisagreement, _)?:
            var findings: [Finding] = []
            if manifest.digest != version.recorded.digest { findings.append(finding(key, "digest differs from the catalog's")) }
            for (token, clip) in manifest.clips {
                if let recorded = version.recorded.clips[token], recorded.sha256 != clip.sha256 || recorded.file != clip.file {
                    findings.append(finding(version.keys[clip.file] ?? clip.file, "the manifest and the catalog disagree on token '\(token)'"))
                }
            }
            if Set(manifest.clips.keys) != Set(version.recorded.clips.keys) { findings.append(finding(key, "its tokens differ from the catalog's")) }
            if let why = packJSONDisagreement { findings.append(finding(key, "not the manifest of the version it is in: \(why)")) }
            for (kind, archive) in manifest.archives {
                if let recorded = version.recorded.archives[kind], recorded != archive.sha256 {
                    findings.append(finding(version.keys[archive.file] ?? archive.file, "the manifest and the catalog disagree"))
                }
            }
            return findings
        }
    }
}

extension RuleID {
    /// `store.changed`, declared by `StoreChanged`.
    public static let storeChanged = RuleID(declaring: "store.changed")
}

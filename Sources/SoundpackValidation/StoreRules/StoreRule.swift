// The rules of `verify`, each in its own file here, run in order over what verify observed of the
// store: StoreVerifier (SoundpackPublish) reads and hashes, the rules judge.

import Foundation
import SoundpackCore
import SoundpackSupport

/// What `verify` observed of a store: every file it read or hashed and what stood there, each
/// published version as the catalog records it and as its manifest describes it, index.json, and
/// every key the store lists. Plain facts; the store rules judge them.
package struct StoreObservations: Sendable {
    /// What stood at a key.
    package enum Found: Sendable, Equatable {
        case absent
        case file(sha256: String)
        /// A FIFO, device, socket or folder ("a FIFO"), never opened.
        case notAFile(String)
        /// A JSON or signature file larger than such a file may be; it was not read.
        case tooLarge(bytes: Int64, cap: Int)
        /// The store failed to answer (the run ends with that error, after every check).
        case unread
    }

    /// A key verify looked at: the SHA-256 a record lists for it and which record (nil for a file
    /// no record hashes: index.json, a signature), and what was found.
    package struct Looked: Sendable {
        package var key: String
        package var listedBy: String?
        package var sha256: String?
        package var found: Found

        package init(key: String, listedBy: String?, sha256: String?, found: Found) {
            (self.key, self.listedBy, self.sha256, self.found) = (key, listedBy, sha256, found)
        }
    }

    /// What the catalog records of a published version.
    package struct Recorded: Sendable {
        package var digest: String
        /// Token → its file in the version folder and SHA-256 (nil where the catalog has none).
        package var clips: [String: (file: String?, sha256: String?)]
        /// Archive kind (`tar.gz`, `zip`) → SHA-256, when recorded.
        package var archives: [String: String]

        package init(digest: String, clips: [String: (file: String?, sha256: String?)], archives: [String: String]) {
            (self.digest, self.clips, self.archives) = (digest, clips, archives)
        }
    }

    /// A version's manifest signature, for a manifest that was read.
    package struct Signature: Sendable {
        /// The key the manifest says signed it; nil: unsigned.
        package var keyID: String?
        /// Where the signature is.
        package var key: String
        /// A signature (base64) was read there.
        package var read: Bool
        /// Whether it verifies by the given key of `keyID`; nil when no given key has that id.
        package var verifies: Bool?

        package init(keyID: String?, key: String, read: Bool, verifies: Bool?) {
            (self.keyID, self.key, self.read, self.verifies) = (keyID, key, read, verifies)
        }
    }

    /// A version's manifest as read: refused as phones refuse it, describing another version, or
    /// read, with pack.json's disagreement with it and its signature.
    package enum Manifest: Sendable {
        case refused(String)
        case describes(String)
        case read(StoreManifest, packJSONDisagreement: String?, signature: Signature)
    }

    /// One published version.
    package struct Version: Sendable {
        package var id: String
        package var version: SemanticVersion
        package var manifestKey: String
        package var recorded: Recorded
        /// Nil when it could not be read (missing, too large, no file, or unread).
        package var manifest: Manifest?
        /// A file of the version folder → its key in the store.
        package var keys: [String: String]
        /// `--unsigned-before` for its pack.
        package var unsignedBefore: SemanticVersion?

        package init(id: String, version: SemanticVersion, manifestKey: String, recorded: Recorded, manifest: Manifest?,
                    keys: [String: String], unsignedBefore: SemanticVersion?) {
            (self.id, self.version, self.manifestKey, self.recorded, self.manifest) = (id, version, manifestKey, recorded, manifest)
            (self.keys, self.unsignedBefore) = (keys, unsignedBefore)
        }
    }

    /// index.json against the one the catalog's versions describe.
    package enum Index: Sendable {
        case matches
        /// The entries of these packs (sorted) differ from what the catalog describes.
        case differs(packs: [String])
        /// Not one phones take, with their reason.
        case refused(String)
        /// There is none; `expected` when the catalog has versions.
        case absent(expected: Bool)
        /// Too large, no file, or unread (see `looked`).
        case notRead
    }

    /// A key of the store no manifest accounts for, and the version folder it is in when its path
    /// is `ID/VERSION/…` (with whether that folder holds its manifest.json).
    package struct Stray: Sendable {
        package var key: String
        package var folder: String?
        package var folderHasManifest: Bool

        package init(key: String, folder: String?, folderHasManifest: Bool) {
            (self.key, self.folder, self.folderHasManifest) = (key, folder, folderHasManifest)
        }
    }

    package var looked: [Looked] = []
    package var versions: [Version] = []
    package var indexKey = "index.json"
    package var index = Index.notRead
    /// How many public keys `--public-key` gave.
    package var keysGiven = 0
    package var strays: [Stray] = []
    /// The version folders the catalog records, and those index.json lists.
    package var recordedFolders: Set<String> = []
    package var indexedFolders: Set<String> = []
    /// What interrupted writes left (the backend's temporary files).
    package var leftovers: [String] = []

    package init() {}

    /// The strays that are a version an interrupted publish left (neither the catalog nor
    /// index.json knows it whole; without its manifest.json, one index.json does not list): the
    /// folder and whether it is whole; the others are drift.
    var partitionedStrays: (unexpected: [String], unrecorded: [(folder: String, whole: Bool)]) {
        var unexpected: [String] = []
        var unrecorded: [String: Bool] = [:]
        for stray in strays {
            if let folder = stray.folder, !recordedFolders.contains(folder), stray.folderHasManifest || !indexedFolders.contains(folder) {
                unrecorded[folder] = stray.folderHasManifest
            } else {
                unexpected.append(stray.key)
            }
        }
        return (unexpected, unrecorded.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// Every store rule, in the order `verify` runs them: `RuleBook.rules`' store rules.
    static let rules: [any StoreRule] = RuleBook.rules.compactMap { $0 as? any StoreRule }

    /// Every finding of the store rules, in rule order.
    package var findings: [Finding] { Self.rules.flatMap { $0.check(self) } }
}

/// A rule of `verify` (`Rule`: id, severity, summary) and its check of what verify observed.
protocol StoreRule: Rule {
    func check(_ store: StoreObservations) -> [Finding]
}

extension StoreRule {
    static var scope: RuleID.Scope { .store }

    /// A finding of this rule about `key`, at its severity (or `severity`).
    func finding(_ key: String, _ message: String, severity: Severity = Self.severity) -> Finding {
        Finding(Self.id, severity, file: key, message)
    }
}

// `verify`: recomputes every hash in the store and compares it with the manifests and the catalog.

import Foundation
import SoundpackCore

public struct StoreVerifier {
    public let catalog: any Catalog
    public let store: Store
    /// Public keys by key id. When any are given, every published version (yanked ones too) must
    /// carry a valid signature by one of them; unsigned versions and other keys are drift.
    public var publicKeys: [String: [UInt8]] = [:]
    /// Signing adopted after unsigned releases: versions of a pack older than its version here
    /// may be unsigned (a notice, not drift); every newer one must be signed.
    public var unsignedBefore: [String: SemanticVersion] = [:]

    public init(catalog: any Catalog, store: Store) {
        self.catalog = catalog
        self.store = store
    }

    /// What `verify` found: drifts (exit 1), notices (what an interrupted publish left, harmless
    /// and cleaned by the next publish) and how many files were checked.
    public struct Result: Sendable {
        public var drifts: [Finding]
        public var notices: [Finding]
        public var filesChecked: Int
    }

    /// Every drift and notice found, and how many files were checked.
    public func verify() throws(PublishError) -> Result {
        var drifts: [Finding] = []
        var unsignedNotices: [Finding] = []
        var expected: Set<[UInt8]> = [StoreLayout.index.pathKey]  // by bytes: NFC and NFD keys are two files
        var checked = 0
        var readError: StoreError?
        func digest(_ key: String) -> StoredDigest? {
            do { return try store.backend.digest(key) } catch {
                readError = readError ?? error
                return nil
            }
        }
        /// A JSON or signature file of the store, read once within `cap`. `exists` is false when
        /// there is none; `bytes` is nil when it could not be read, or is larger than `cap` (drift,
        /// its size found by a streamed digest: it is never loaded).
        func small(_ key: String, cap: Int) -> (exists: Bool, bytes: [UInt8]?) {
            do {
                guard let data = try store.backend.read(key, atMost: cap) else { return (false, nil) }
                return (true, Array(data))
            } catch {
                if let found = digest(key), found.bytes > Int64(cap) {
                    drifts.append(Finding(.storeChanged, .error, file: key, "\(found.bytes) bytes, above the \(cap >> 10) KiB a soundpack \((key as NSString).lastPathComponent) may hold"))
                } else {
                    readError = readError ?? error
                }
                return (true, nil)
            }
        }
        /// Records `key` as expected and compares what was found with `sha256`.
        func compare(_ key: String, found: String?, sha256: String?, against source: String) {
            expected.insert(key.pathKey)
            guard let found else {
                drifts.append(Finding(.storeMissing, .error, file: key, "listed in the \(source) but not in the store"))
                return
            }
            checked += 1
            if let sha256, found != sha256 {
                drifts.append(Finding(.storeChanged, .error, file: key, "SHA-256 is \(found.prefix(16))…, the \(source) says \(sha256.prefix(16))…"))
            }
        }
        /// Checks `key` against `sha256`, streamed: a file of any size is hashed, never loaded.
        func check(_ key: String, sha256: String?, against source: String) {
            compare(key, found: digest(key)?.sha256, sha256: sha256, against: source)
        }

        let versions: [PublishedVersion]
        do { versions = try catalog.publishedVersions() } catch { throw .catalog(error.message) }
        for version in versions {
            let (id, number) = (version.id, version.version)
            let manifestKey = StoreLayout.manifest(id, number)
            // Read once: its hash, its decoding and its signature all come from these bytes.
            let manifestFile = small(manifestKey, cap: StoreLimits.manifestBytes)
            guard let bytes = manifestFile.bytes else {
                // Missing is drift; too large or unreadable, `small` has reported already.
                if manifestFile.exists { expected.insert(manifestKey.pathKey) } else { compare(manifestKey, found: nil, sha256: nil, against: "catalog") }
                continue
            }
            compare(manifestKey, found: Digest.sha256Hex(bytes), sha256: version.manifestSha256, against: "catalog")
            if let duplicate = JSONDuplicateKeys.first(in: bytes) {
                drifts.append(Finding(.storeChanged, .error, file: manifestKey, "not a manifest soundpack wrote: \(duplicate.description)"))
                continue
            }
            guard let manifest = try? JSONDecoder().decode(StoreManifest.self, from: Data(bytes)) else {
                drifts.append(Finding(.storeChanged, .error, file: manifestKey, "not a soundpack manifest"))
                continue
            }
            if manifest.digest != version.digest {
                drifts.append(Finding(.storeChanged, .error, file: manifestKey, "digest differs from the catalog's"))
            }
            for (token, clip) in manifest.clips {
                let key = StoreLayout.versionFile(id, number, clip.file)
                check(key, sha256: clip.sha256, against: "manifest")
                if let recorded = version.clips[token], recorded.sha256 != clip.sha256 || recorded.storeFile != clip.file {
                    drifts.append(Finding(.storeChanged, .error, file: key, "the manifest and the catalog disagree on token '\(token)'"))
                }
            }
            if Set(manifest.clips.keys) != Set(version.clips.keys) {
                drifts.append(Finding(.storeChanged, .error, file: manifestKey, "its tokens differ from the catalog's"))
            }
            check(StoreLayout.versionFile(id, number, manifest.packJSON.file), sha256: manifest.packJSON.sha256, against: "manifest")
            for (kind, archive) in manifest.archives {
                let key = StoreLayout.versionFile(id, number, archive.file)
                let recorded = kind == ArchiveKind.tarGzip.rawValue ? version.tarSha256 : version.zipSha256
                check(key, sha256: archive.sha256, against: "manifest")
                if let recorded, recorded != archive.sha256 {
                    drifts.append(Finding(.storeChanged, .error, file: key, "the manifest and the catalog disagree"))
                }
            }
            let signatureKey = StoreLayout.signature(id, number)
            if let keyID = manifest.signingKey {
                expected.insert(signatureKey.pathKey)
                let text = small(signatureKey, cap: 4_096).bytes.map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
                if let text, let signature = Data(base64Encoded: text) {
                    if let publicKey = publicKeys[keyID] {
                        if !SigningKey.verify(Array(signature), of: bytes, publicKey: publicKey) {
                            drifts.append(Finding(.storeSignature, .error, file: signatureKey, "the signature by key \(keyID) does not match manifest.json"))
                        }
                    } else if !publicKeys.isEmpty {
                        drifts.append(Finding(.storeSignature, .error, file: manifestKey, "signed by key \(keyID), which is not one of the \(publicKeys.count) given with --public-key"))
                    }
                } else {
                    drifts.append(Finding(.storeMissing, .error, file: signatureKey, "the manifest is signed by key \(keyID) but the signature is missing or unreadable"))
                }
            } else if !publicKeys.isEmpty {
                if let cutoff = unsignedBefore[id], number < cutoff {
                    unsignedNotices.append(Finding(.storeSignature, .note, file: manifestKey, "\(id)@\(number) is not signed; accepted, as it is older than \(id)@\(cutoff) (--unsigned-before)"))
                } else {
                    drifts.append(Finding(.storeSignature, .error, file: manifestKey, "\(id)@\(number) is not signed, and --public-key asks for a signature on every version (--unsigned-before \(id)@VERSION accepts older unsigned ones)"))
                }
            }
        }

        let index = Store.index(of: versions)
        let indexFile = small(StoreLayout.index, cap: StoreLimits.indexBytes)
        if let bytes = indexFile.bytes {
            checked += 1
            if let duplicate = JSONDuplicateKeys.first(in: bytes) {
                // Two readers could take different values from it; like every other reader, refused.
                drifts.append(Finding(.storeIndex, .error, file: StoreLayout.index, "not an index soundpack wrote: \(duplicate.description)"))
            } else if (try? JSONDecoder().decode(StoreIndex.self, from: Data(bytes))) != index {
                drifts.append(Finding(.storeIndex, .error, file: StoreLayout.index, "does not match the catalog (soundpack publish rewrites it)"))
            }
        } else if !indexFile.exists && !index.packs.isEmpty {
            drifts.append(Finding(.storeMissing, .error, file: StoreLayout.index, "the store has no index"))
        }

        let keys: [String]
        var notices: [Finding] = unsignedNotices
        do {
            keys = try store.backend.list()
            for leftover in try store.backend.leftovers() {
                notices.append(Finding(.storeLeftover, .note, file: leftover, "left by an interrupted publish; the next soundpack publish removes it"))
            }
        } catch { throw .environment(error.message) }
        // A whole version folder the catalog does not know, with a manifest: a publish stopped
        // between moving the version into place and recording it. Not served (not in index.json).
        let known = Set(versions.map { StoreLayout.versionFolder($0.id, $0.version) })
        let storedKeys = Set(keys)
        var unrecorded = Set<String>()
        for key in keys where !expected.contains(key.pathKey) {
            let parts = key.slashSeparated
            if parts.count >= 3, let version = SemanticVersion(String(parts[1])) {
                let folder = StoreLayout.versionFolder(String(parts[0]), version)
                if !known.contains(folder), storedKeys.contains(StoreLayout.manifest(String(parts[0]), version)) {
                    unrecorded.insert(folder)
                    continue
                }
            }
            drifts.append(Finding(.storeUnexpected, .error, file: key, "in the store but in no manifest"))
        }
        for folder in unrecorded.sorted() {
            notices.append(Finding(.storeLeftover, .note, file: folder, "a version an interrupted publish never recorded; publishing it again replaces it"))
        }
        if let readError { throw .environment(readError.message) }
        return Result(drifts: drifts.sorted { ($0.file ?? "", $0.rule.rawValue) < ($1.file ?? "", $1.rule.rawValue) }, notices: notices, filesChecked: checked)
    }
}

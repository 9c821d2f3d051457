// How published versions reach a phone: fetch the store's index.json (an unchanged index costs one
// 304), then the wanted version's manifest.json, check it against the index's SHA-256 and, under the
// app's signed policy (ManifestTrust), its Ed25519 signature, and keep it in the App Group
// container. The network and the signature check are injected: URLSession and CryptoKit on iOS, a
// loopback server and libsodium in the Linux tests.

import Foundation

/// One HTTP response, as much of it as the refresher and the prefetcher read.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var body: Data
    /// The `ETag` header, as sent.
    public var etag: String?

    public init(status: Int, body: Data, etag: String? = nil) {
        self.status = status
        self.body = body
        self.etag = etag
    }
}

/// A GET over the network. Throw on a transport failure; return any HTTP status.
public protocol HTTPTransport: Sendable {
    /// GETs `url`, sending `If-None-Match: ifNoneMatch` when it is given.
    func get(_ url: URL, ifNoneMatch: String?) async throws -> HTTPResponse
}

/// Checks Ed25519 signatures (CryptoKit's `Curve25519.Signing.PublicKey.isValidSignature` on iOS).
public protocol SignatureVerifying: Sendable {
    func isValidSignature(_ signature: Data, of message: Data, publicKey: Data) -> Bool
}

/// Why a manifest could not be refreshed. The extension then plans with what it has on disk.
public enum RefreshError: Error, Equatable, Sendable, CustomStringConvertible {
    case transport(url: String, reason: String)
    case http(url: String, status: Int)
    case unreadableIndex(String)
    case unknownPack(String)
    case unknownVersion(String)
    case noVersion(String)
    case yanked(String, reason: String?)
    case unexpectedManifestPath(pack: String, path: String)
    case manifestHashMismatch(String, expected: String, actual: String)
    case unreadableManifest(String, reason: String)
    case unsigned(String)
    case untrustedKey(String, keyID: String)
    case badSignature(String)
    case disk(String)
    case timedOut(seconds: Double)

    public var description: String {
        switch self {
        case .transport(let url, let reason): return "cannot fetch \(url.visible): \(reason.visible)"
        case .http(let url, let status): return "\(url.visible) answered HTTP \(status)"
        case .unreadableIndex(let why): return "the store's index.json cannot be read: \(why.visible)"
        case .unknownPack(let id): return "the store has no pack '\(id.visible)'"
        case .unknownVersion(let pin): return "the store has no version \(pin.visible)"
        case .noVersion(let id): return "every version of \(id.visible) is yanked"
        case .yanked(let pin, let reason): return "\(pin.visible) is yanked\(reason.map { " (\($0.visible))" } ?? ""); it is not downloaded"
        case .unexpectedManifestPath(let pack, let path): return "the index gives \(pack.visible) the manifest path '\(path.visible)', not the store layout's; refusing it"
        case .manifestHashMismatch(let pin, let expected, let actual):
            return "the manifest of \(pin.visible) has SHA-256 \(actual.prefix(16))…, the index says \(expected.visible.prefix(16))…; refusing it"
        case .unreadableManifest(let pin, let why): return "the manifest of \(pin.visible) cannot be read: \(why.visible)"
        case .unsigned(let pin): return "the manifest of \(pin.visible) is not signed, and the app requires a signature"
        case .untrustedKey(let pin, let keyID): return "the manifest of \(pin.visible) is signed by key \(keyID.visible), which the app does not trust"
        case .badSignature(let pin): return "the signature of \(pin.visible)'s manifest does not match it; refusing it"
        case .disk(let why): return "cannot keep the manifest in the App Group container: \(why.visible)"
        case .timedOut(let seconds): return "the refresh did not finish within \(seconds) s"
        }
    }
}

/// Keeps verified store manifests in a folder of the App Group container and fetches new ones.
///
/// In `folder`: `index.json` and `index.etag` (the last index fetched and its ETag), and one
/// `<id>@<version>.json` per verified manifest, each written whole (temporary file, then rename).
/// The URLs come from `storeURL` and the store layout only; a push names a pack and version, never
/// a URL the phone fetches.
public struct ManifestRefresher: Sendable {
    public let storeURL: String
    public let folder: URL
    /// Which manifests are accepted: signed by one of the app's keys, or (said on purpose) unsigned.
    public let trust: ManifestTrust
    public let transport: any HTTPTransport
    /// Checks the signatures the signed policy requires; without one no signed manifest is accepted.
    public let verifier: (any SignatureVerifying)?
    public let hasher: any SHA256Hashing

    public init(storeURL: String, folder: URL, trust: ManifestTrust, transport: any HTTPTransport,
                verifier: (any SignatureVerifying)? = nil, hasher: any SHA256Hashing = PortableSHA256()) {
        self.storeURL = storeURL
        self.folder = folder
        self.trust = trust
        self.transport = transport
        self.verifier = verifier
        self.hasher = hasher
    }

    static let indexFile = "index.json"
    static let etagFile = "index.etag"

    // MARK: On disk

    /// The verified manifest of `id@version` kept on disk, if any. Under the signed policy it is
    /// checked again against the signature kept beside it: a manifest kept under another policy
    /// (an earlier build that trusted anything, or `.unsigned`) is not one this policy accepts, and
    /// reads as absent, so it is fetched and checked again. (Unreadable or undecodable files read as
    /// absent too: the caller then fetches, which is the same outcome as a first run.)
    public func manifestOnDisk(_ id: String, _ version: SemanticVersion) -> StoreManifest? {
        let file = folder.appendingPathComponent(Self.fileName(id, version))
        guard let data = try? Data(contentsOf: file), let manifest = try? Self.decodeManifest(data) else { return nil }
        if case .signed = trust {
            guard let kept = try? Data(contentsOf: file.appendingPathExtension("sig")), kept.count <= 1_024,
                  signature(String(decoding: kept, as: UTF8.self), holdsFor: data, manifest: manifest) else { return nil }
        }
        return manifest
    }

    /// The newest manifest of `id` on disk that the last index fetched does not call yanked.
    public func newestOnDisk(_ id: String) -> StoreManifest? {
        let yanked = Set((cachedIndex()?.packs[id]?.versions ?? [:]).filter(\.value.yanked).map(\.key))
        let prefix = id + "@"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let versions = names.compactMap { name -> SemanticVersion? in
            guard name.hasPrefix(prefix), name.hasSuffix(".json") else { return nil }
            return SemanticVersion(String(name.dropFirst(prefix.count).dropLast(5)))
        }
        for version in versions.sorted(by: >) where !yanked.contains(version.description) {
            if let manifest = manifestOnDisk(id, version) { return manifest }
        }
        return nil
    }

    /// The last index fetched, if any.
    public func cachedIndex() -> StoreIndex? {
        (try? Data(contentsOf: folder.appendingPathComponent(Self.indexFile))).flatMap { try? Self.decodeIndex($0) }
    }

    // MARK: Refresh

    /// Fetches the index (conditionally) and, unless it is on disk already, the manifest `pin` asks
    /// for (the index's `latest` when it names no version); verifies and keeps it. A yanked version
    /// is never downloaded.
    public func refresh(_ pin: PackRef) async throws(RefreshError) -> StoreManifest {
        let index = try await fetchIndex()
        guard let pack = index.packs[pin.id] else { throw .unknownPack(pin.id) }
        guard let version = pin.version ?? pack.latest.flatMap(SemanticVersion.init) else { throw .noVersion(pin.id) }
        let name = PackRef.name(pin.id, version)
        guard let entry = pack.versions[version.description] else { throw .unknownVersion(name) }
        guard !entry.yanked else { throw .yanked(name, reason: entry.yankReason) }
        if let kept = manifestOnDisk(pin.id, version) { return kept }

        let path = StoreLayout.manifest(pin.id, version)
        guard entry.manifest == path else { throw .unexpectedManifestPath(pack: name, path: entry.manifest) }
        let data = try await fetch(path).body
        let actual = hasher.sha256Hex(data)
        guard actual == entry.manifestSha256.lowercased() else { throw .manifestHashMismatch(name, expected: entry.manifestSha256, actual: actual) }
        let manifest: StoreManifest
        do { manifest = try Self.decodeManifest(data) } catch { throw .unreadableManifest(name, reason: error.description) }
        guard manifest.id == pin.id, manifest.version == version else {
            throw .unreadableManifest(name, reason: "it describes \(PackRef.name(manifest.id, manifest.version))")
        }
        // The signature is kept first: a manifest on disk always has its signature beside it.
        if let signature = try await checkSignature(of: data, manifest: manifest, name: name) {
            try keep(Data(signature.utf8), as: Self.fileName(pin.id, version) + ".sig")
        }
        try keep(data, as: Self.fileName(pin.id, version))
        return manifest
    }

    /// How `resolve` found the manifest it returns.
    public enum Source: Sendable, Equatable {
        /// The pinned version, already on disk: no network.
        case pinnedOnDisk
        /// Fetched (or confirmed) from the store now.
        case refreshed
        /// The newest on disk, after the refresh failed or ran out of time.
        case fallback(RefreshError)
    }

    /// The manifest to plan a push with: the pinned version when it is on disk (and not known to be
    /// yanked); else a refresh within `budget` seconds (none when nil); else the newest on disk.
    /// Nil when there is none at all.
    public func resolve(_ pin: PackRef, budget: Double?) async -> (manifest: StoreManifest, source: Source)? {
        if let version = pin.version, let kept = manifestOnDisk(pin.id, version),
           cachedIndex()?.packs[pin.id]?.versions[version.description]?.yanked != true {
            return (kept, .pinnedOnDisk)
        }
        var failure = RefreshError.timedOut(seconds: 0)
        if let budget {
            do {
                return (try await within(seconds: budget) { () throws(RefreshError) in try await refresh(pin) }, .refreshed)
            } catch {
                failure = error
                // A yanked or unknown pin: the newest that is not yanked will do, if it comes in time.
                if pin.version != nil, case .yanked = error, let latest = try? await within(seconds: budget, { () throws(RefreshError) in
                    try await refresh(PackRef(id: pin.id, version: nil))
                }) {
                    return (latest, .fallback(error))
                }
            }
        }
        return newestOnDisk(pin.id).map { ($0, .fallback(failure)) }
    }

    // MARK: Pieces

    private func fetchIndex() async throws(RefreshError) -> StoreIndex {
        let indexURL = folder.appendingPathComponent(Self.indexFile)
        let cached = try? Data(contentsOf: indexURL)
        let etag = cached == nil ? nil : (try? String(contentsOf: folder.appendingPathComponent(Self.etagFile), encoding: .utf8))
        let response = try await fetch(StoreLayout.index, ifNoneMatch: etag, accepting: [200, 304])
        if response.status == 304, let cached {
            do { return try Self.decodeIndex(cached) } catch { throw .unreadableIndex(error.description) }
        }
        guard response.status == 200 else { throw .http(url: StoreLayout.index, status: response.status) }
        let index: StoreIndex
        do { index = try Self.decodeIndex(response.body) } catch { throw .unreadableIndex(error.description) }
        try keep(response.body, as: Self.indexFile)
        // An ETag is an opaque quoted string; anything with a line break or a control character is not one.
        if let tag = response.etag, tag.utf8.count <= 256, !tag.containsControlCharacter() {
            try keep(Data(tag.utf8), as: Self.etagFile)
        } else {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(Self.etagFile))
        }
        return index
    }

    /// Checks the manifest's signature under the signed policy and returns its text (to keep beside
    /// the manifest); nil under the unsigned policy.
    private func checkSignature(of data: Data, manifest: StoreManifest, name: String) async throws(RefreshError) -> String? {
        // Under the signed policy an empty key list matches no manifest: it refuses them all.
        guard case .signed(let keys) = trust else { return nil }
        guard let keyID = manifest.signingKey else { throw .unsigned(name) }
        guard keys.contains(where: { String(hasher.sha256Hex($0.rawRepresentation).prefix(16)) == keyID }) else {
            throw .untrustedKey(name, keyID: keyID)
        }
        let text = String(decoding: try await fetch(StoreLayout.signature(manifest.id, manifest.version)).body.prefix(1_024), as: UTF8.self)
        guard signature(text, holdsFor: data, manifest: manifest) else { throw .badSignature(name) }
        return text
    }

    /// Whether `text` (manifest.json.sig) is a valid signature of `data` by the trusted key the
    /// manifest names; false under the unsigned policy, with no verifier, or for any other key.
    private func signature(_ text: String, holdsFor data: Data, manifest: StoreManifest) -> Bool {
        guard case .signed(let keys) = trust, let verifier, let keyID = manifest.signingKey,
              let key = keys.first(where: { String(hasher.sha256Hex($0.rawRepresentation).prefix(16)) == keyID }),
              let signature = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return false }
        return verifier.isValidSignature(signature, of: data, publicKey: key.rawRepresentation)
    }

    private func fetch(_ key: String, ifNoneMatch: String? = nil, accepting statuses: Set<Int> = [200]) async throws(RefreshError) -> HTTPResponse {
        guard let url = StoreLayout.url(of: key, under: storeURL) else { throw .transport(url: storeURL + "/" + key, reason: "not a URL") }
        let response: HTTPResponse
        do { response = try await transport.get(url, ifNoneMatch: ifNoneMatch) } catch {
            throw .transport(url: url.absoluteString, reason: "\(error)")
        }
        guard statuses.contains(response.status) else { throw .http(url: url.absoluteString, status: response.status) }
        return response
    }

    /// Writes `data` as `name` in the folder whole: a temporary file in the same folder, then a rename.
    private func keep(_ data: Data, as name: String) throws(RefreshError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileReplacement.write(data, to: folder.appendingPathComponent(name), temporaryName: ".\(name).\(UUID().uuidString).tmp")
        } catch {
            throw .disk(error.localizedDescription)
        }
    }

    private func within<T: Sendable>(seconds: Double, _ work: @escaping @Sendable () async throws(RefreshError) -> T) async throws(RefreshError) -> T {
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await work() }
                group.addTask {
                    try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let value = first else { throw RefreshError.timedOut(seconds: seconds) }
                return value
            }
        } catch let error as RefreshError {
            throw error
        } catch {
            throw .transport(url: storeURL, reason: "\(error)")
        }
    }

    static func fileName(_ id: String, _ version: SemanticVersion) -> String { PackRef.name(id, version) + ".json" }

    /// The store's index, refused when a key repeats (two readers could disagree on its value).
    public static func decodeIndex(_ data: Data) throws(ManifestDecodingError) -> StoreIndex {
        guard data.count <= StoreLimits.indexBytes else { throw ManifestDecodingError("\(data.count) bytes, above the \(StoreLimits.indexBytes >> 20) MiB an index may hold") }
        let index: StoreIndex
        if let plain = StoreIndex(plainJSON: data) {
            index = plain  // the layout publish writes, read as JSONDecoder reads it
        } else {
            if let duplicate = JSONDuplicateKeys.first(in: data) { throw ManifestDecodingError(duplicate.description) }
            do { index = try JSONDecoder().decode(StoreIndex.self, from: data) } catch { throw ManifestDecodingError(decoding: error) }
        }
        guard index.schemaVersion == 1 else { throw ManifestDecodingError("schema version \(index.schemaVersion); this SoundpackCore reads 1") }
        // Every reader builds store paths from these (`ID/VER/manifest.json`): an id or a version
        // that is not one could name a file outside the store.
        for (id, pack) in index.packs {
            guard PackFile.isValidID(id) else { throw ManifestDecodingError("'\(id.quoted(limit: 80))' is not a pack id") }
            for text in pack.versions.keys where SemanticVersion(text) == nil {
                throw ManifestDecodingError("'\(text.quoted(limit: 80))' (of \(id)) is not a semantic version")
            }
            if let latest = pack.latest, SemanticVersion(latest) == nil {
                throw ManifestDecodingError("the latest version of \(id), '\(latest.quoted(limit: 80))', is not a semantic version")
            }
        }
        return index
    }

    /// A version's manifest.json, refused when a key repeats, a file path could leave its folder,
    /// its phrases do not fit its grammar, or a name, token or text holds what pack.json may not
    /// hold. Every reader of a store's manifest (a phone, export, verify, catalog rebuild) decodes
    /// it here, so none accepts what another refuses.
    public static func decodeManifest(_ data: Data) throws(ManifestDecodingError) -> StoreManifest {
        guard data.count <= StoreLimits.manifestBytes else { throw ManifestDecodingError("\(data.count) bytes, above the \(StoreLimits.manifestBytes >> 20) MiB a manifest may hold") }
        if let duplicate = JSONDuplicateKeys.first(in: data) { throw ManifestDecodingError(duplicate.description) }
        let manifest: StoreManifest
        do { manifest = try JSONDecoder().decode(StoreManifest.self, from: data) } catch { throw ManifestDecodingError(decoding: error) }
        guard manifest.schemaVersion == 1 else { throw ManifestDecodingError("schema version \(manifest.schemaVersion); this SoundpackCore reads 1") }
        guard PackFile.isValidID(manifest.id) else { throw ManifestDecodingError("'\(manifest.id.visible)' is not a pack id") }
        let phrasebook: Phrasebook
        do { phrasebook = try manifest.checkedPhrasebook() } catch { throw ManifestDecodingError("phrases: \(error.description)") }
        for (token, clip) in manifest.clips {
            guard phrasebook.token(forKey: token) != nil else { throw ManifestDecodingError("unknown token '\(token.visible)'") }
            if let problem = PackFile.unprintable(token) { throw ManifestDecodingError("clips: \(problem)") }
            guard Self.isSafeStorePath(clip.file), clip.bytes >= 0, clip.durationSeconds.isFinite, clip.durationSeconds >= 0 else {
                throw ManifestDecodingError("the clip of '\(token.visible)' ('\(clip.file.visible)') is not a file of its version folder")
            }
        }
        for (what, file) in [("pack.json", manifest.packJSON)] + manifest.archives.sorted(by: { $0.key < $1.key }).map({ ("the \($0.key.visible) archive", $0.value) }) {
            guard Self.isSafeStorePath(file.file), file.bytes >= 0 else {
                throw ManifestDecodingError("\(what) ('\(file.file.visible)') is not a file of its version folder")
            }
        }
        if let name = manifest.name, let problem = PackFile.unprintable(name) { throw ManifestDecodingError("name: \(problem)") }
        for (key, text) in manifest.texts {
            if let problem = PackFile.unprintable(key) ?? PackFile.unprintable(text) { throw ManifestDecodingError("texts: \(problem)") }
        }
        if phrasebook.isDeclared {
            for phrase in phrasebook.phrases {
                for clip in phrase.clips where manifest.texts[clip.rawValue] == nil {
                    throw ManifestDecodingError("phrases: phrase '\(phrase.id.visible)' says clip '\(clip.rawValue.visible)', which has no text")
                }
            }
        }
        return manifest
    }

    /// A relative path that stays in its folder and names a file a phone can keep: no empty, `.` or
    /// `..` component, no leading `.` on the file name, no control character or backslash.
    public static func isSafeStorePath(_ path: String) -> Bool {
        let parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard !parts.isEmpty, path.utf8.count <= 1_024, !path.containsControlCharacter(), !path.utf8.contains(UInt8(ascii: "\\")) else { return false }
        guard parts.allSatisfy({ !$0.isEmpty && !$0.elementsEqual(".".utf8) && !$0.elementsEqual("..".utf8) }) else { return false }
        return parts.last?.first != UInt8(ascii: ".")
    }
}

/// Why index.json or manifest.json bytes are not a usable document.
public struct ManifestDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// A JSON decoder's failure in one short line: what is wrong, and where in the document.
    init(decoding error: any Error) {
        guard let error = error as? DecodingError else {
            self.init("\(error)")
            return
        }
        func place(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "" : " at " + path.map { $0.intValue.map(String.init) ?? $0.stringValue.quoted(limit: 40) }.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty: self.init("not JSON")
        case .dataCorrupted(let context): self.init("\(context.debugDescription.quoted(limit: 120))\(place(context.codingPath))")
        case .keyNotFound(let key, let context): self.init("'\(key.stringValue.quoted(limit: 40))' is missing\(place(context.codingPath))")
        case .typeMismatch(_, let context), .valueNotFound(_, let context): self.init("a value of the wrong type\(place(context.codingPath))")
        @unknown default: self.init("\(error)")
        }
    }
}

// `export`: the manifest the app writes into the App Group's shared container, so the Notification
// Service Extension knows which clips it has and where to download the others. The document is
// SoundpackCore's `SharedManifest`, the same type the app reads it with.

import Foundation
import SoundpackCatalog
import SoundpackCore
import SoundpackPack
import SoundpackStore
import SoundpackSupport
import SoundpackValidation

/// One pack to export: a published version from the store, or a validated folder.
public struct ExportedPack: Sendable {
    /// One clip of the pack, as the shared manifest lists it.
    public struct Clip: Sendable {
        /// The token the clip says.
        public var token: Token
        /// Path in the store version folder (`clips/shi.caf`), for the download URL.
        package var storePath: String
        /// The clip's size in bytes.
        public var bytes: Int
        /// The SHA-256 of its bytes, lowercase hex.
        public var sha256: String
        /// Its length in seconds.
        public var durationSeconds: Double
    }
    /// The pack's id.
    public var id: String
    /// The version exported (a folder's is the one its pack.json declares).
    public var version: SemanticVersion
    /// The grammar its amounts are read in.
    public var grammar: Grammar
    /// The largest amount it announces.
    public var maxAmount: Amount
    /// The texts of its tokens, as pack.json gives them.
    public var texts: [String: String]
    /// Whether the version is yanked; it is exported all the same, marked so.
    public var yanked: Bool
    /// Every clip, one per token.
    public var clips: [Clip]
    /// What the pack can announce.
    public var phrasebook: Phrasebook

    /// A pack from its published store manifest.
    init(manifest: StoreManifest, yanked: Bool) {
        id = manifest.id
        version = manifest.version
        grammar = manifest.readingGrammar
        maxAmount = manifest.maxAmount
        texts = manifest.texts
        self.yanked = yanked
        let book = manifest.phrasebook
        phrasebook = book
        clips = manifest.clips.compactMap { key, clip in
            book.token(forKey: key).map { Clip(token: $0, storePath: clip.file, bytes: clip.bytes, sha256: clip.sha256, durationSeconds: clip.durationSeconds) }
        }
    }

    /// A pack from a validated folder (not published: no download URLs); nil without a pack.json.
    init?(report: PackReport) {
        guard let manifest = report.packFile else { return nil }
        id = manifest.id
        version = manifest.version
        grammar = manifest.grammar
        maxAmount = manifest.maxAmount
        texts = manifest.texts
        yanked = false
        phrasebook = manifest.phrasebook
        clips = report.clips.compactMap { clip in
            guard let token = clip.token, let facts = clip.facts else { return nil }
            return Clip(token: token, storePath: StoreLayout.clipFile(packPath: clip.file), bytes: facts.bytes, sha256: facts.sha256,
                        durationSeconds: facts.durationSeconds)
        }
    }
}

/// The manifest the app writes into the App Group's shared container, from exported packs.
public enum SharedContainerExport {
    /// The shared manifest for `packs`: under `key` the bundled clip file names; per pack every
    /// token's file name, size, SHA-256, duration and (with `baseURL`) download URL.
    public static func manifest(_ packs: [ExportedPack], key: String, baseURL: BaseURL?, namespace: Bool) throws(SoundpackError) -> SharedManifest {
        var names: [String] = []
        var seen: [String: String] = [:]
        var shared: [String: SharedPack] = [:]
        if let problem = SharedManifest.keyProblem(key) { throw SoundpackError(.refused, "the UserDefaults key: \(problem)") }
        for pack in packs {
            // The app reads this file as a property list: XML cannot hold control characters, and
            // a manifest published before they were refused at validation could still carry some.
            for text in [pack.id] + pack.texts.keys + pack.texts.values + pack.clips.map(\.storePath)
            where text.containsControlCharacter() || text.xmlForbiddenScalar != nil {
                throw SoundpackError(.refused, "\(PackRef.name(pack.id, pack.version).visible) holds a control character in '\(text.quoted())'; publish a fixed version and export that")
            }
            var clips: [Token: SharedPack.Clip] = [:]
            for clip in pack.clips.sorted(by: { $0.token < $1.token }) {
                let fileName = (clip.storePath as NSString).lastPathComponent
                let name = namespace ? "\(pack.id)-\(fileName)" : fileName
                if let other = seen[name], other != "\(pack.id):\(clip.storePath)" {
                    throw SoundpackError(.refused, "file name '\(name)' is used by two clips (\(other) and \(pack.id):\(clip.storePath))", hint: "namespace the file names with the pack id")
                }
                if seen[name] == nil { names.append(name) }
                seen[name] = "\(pack.id):\(clip.storePath)"
                var url: URL?
                if let base = baseURL?.text {
                    let path = StoreLayout.versionFile(pack.id, pack.version, clip.storePath)
                    guard let made = StoreLayout.url(of: path, under: base) else {
                        throw SoundpackError(.refused, "'\(base)/\(path)' is not a URL; check the base URL")
                    }
                    url = made
                }
                clips[clip.token] = SharedPack.Clip(file: name, bytes: clip.bytes, sha256: clip.sha256, durationSeconds: clip.durationSeconds, url: url)
            }
            shared[pack.id] = SharedPack(id: pack.id, version: pack.version.description, grammar: pack.grammar, maxAmount: pack.maxAmount,
                                         texts: pack.texts, yanked: pack.yanked, clips: clips, phrasebook: pack.phrasebook)
        }
        return SharedManifest(key: key, bundledFiles: names.sorted(), packs: shared)
    }

    /// The bytes of the export: an XML property list or JSON.
    public static func encode(_ manifest: SharedManifest, as encoding: SharedManifest.Encoding) throws(SoundpackError) -> Data {
        do { return try manifest.encoded(as: encoding) } catch {
            throw SoundpackError(.refused, "cannot write the \(encoding.rawValue): \((error as? SharedManifest.EncodingError)?.description ?? error.localizedDescription)")
        }
    }
}


extension SharedContainerExport {
    /// The pack `source` names (`argument` as the user wrote it), as export ships it: a folder
    /// that validates, or a published version read from the store (the store is the source of
    /// truth). A yanked version is exported all the same (an app may need to ship what it has)
    /// and returned as `yanked` so the caller says so. `catalog` is opened only for a published
    /// version.
    public static func pack(_ source: PackSource, named argument: String, store: Store,
                            catalog: () throws(SoundpackError) -> any Catalog) throws(SoundpackError) -> (pack: ExportedPack, yanked: PublishedVersion?) {
        switch source {
        case .folder(let folder):
            let report = Validator().validate(folder: folder)
            guard report.errors == 0, let pack = ExportedPack(report: report) else {
                throw .refused("\(argument) does not validate (\(report.errors) errors)", hint: "soundpack validate \(argument)")
            }
            return (pack, nil)
        case .published(let id, let version):
            let found: (version: PublishedVersion, manifest: StoreManifest)?
            let opened = try catalog()
            do { found = try store.published(id, version, in: opened) } catch {
                throw error.context("cannot read \(argument) from the store")
            }
            guard let found else {
                throw .refused("\(argument) is neither a pack folder nor a published version", hint: "soundpack list shows published packs")
            }
            return (ExportedPack(manifest: found.manifest, yanked: found.version.yanked), found.version.yanked ? found.version : nil)
        }
    }
}

/// Where the store is served, checked once, where it is read: phones download from URLs built on
/// it. The one way to have one is `init(checking:)`, so the export and the payload take it as it is.
public struct BaseURL: Sendable, Equatable, CustomStringConvertible {
    /// The URL as given.
    public let text: String

    /// `text` when it is a base URL phones can use; when it is not, a refusal saying why, about the
    /// input `baseURL` (the caller names where it came from).
    public init(checking text: String) throws(SoundpackError) {
        try Self.check(text)
        self.text = text
    }

    /// The URL without a trailing slash, for joining a store path to it.
    public var trimmed: String { text.hasSuffix("/") ? String(text.dropLast()) : text }

    /// The URL as given.
    public var description: String { text }

    /// Where the store is served: phones download from URLs built on it, so only an absolute
    /// http(s) URL with a host will do (`cdn.example.com` alone would make every URL unusable).
    /// A user name or password would be copied into every clip URL on every phone, and a backslash
    /// or a port out of range makes a URL that browsers and URLSession read differently.
    private static func check(_ baseURL: String) throws(SoundpackError) {
        let example = "use an absolute http(s) URL such as https://cdn.example.com/packs"
        // The authority (`user:pass@host:port`), as written: between `://` and the path.
        let afterScheme = baseURL.range(of: "://")?.upperBound ?? baseURL.startIndex
        let authorityEnd = baseURL[afterScheme...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? baseURL.endIndex
        let authority = baseURL[afterScheme..<authorityEnd]
        // Messages show the URL with any user name and password cut out: they go to CI logs.
        var shown = baseURL
        if let at = authority.lastIndex(of: "@") { shown.replaceSubrange(afterScheme...at, with: "…@") }
        let quotedURL = shown.quoted(limit: 80)
        guard !baseURL.unicodeScalars.contains(where: { $0 == "\\" || $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) else {
            throw SoundpackError.refused("the base URL '\(quotedURL)' holds a backslash, a space or a control character; \(example)").about(input: "baseURL")
        }
        let parsed = URLComponents(string: baseURL)
        guard let parsed, let scheme = parsed.scheme?.lowercased(), scheme == "https" || scheme == "http",
              let host = parsed.host, !host.isEmpty, parsed.query == nil, parsed.fragment == nil else {
            throw SoundpackError.refused("the base URL '\(quotedURL)' is not an absolute http(s) URL; \(example)").about(input: "baseURL")
        }
        guard !authority.contains("@") else {
            throw SoundpackError.refused("the base URL '\(quotedURL)' holds a user name or password, which every phone would receive; serve the store without credentials").about(input: "baseURL")
        }
        if let port = parsed.port, !(1...65_535).contains(port) {
            throw SoundpackError.refused("the base URL '\(quotedURL)' has port \(port), outside 1–65535").about(input: "baseURL")
        }
        // A colon after the host (not inside an IPv6 `[…]`) must be followed by the port.
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]"), parsed.port == nil || authority[authority.index(after: colon)...].isEmpty {
            throw SoundpackError.refused("the base URL '\(quotedURL)' has an empty or unreadable port; \(example)").about(input: "baseURL")
        }
    }
}

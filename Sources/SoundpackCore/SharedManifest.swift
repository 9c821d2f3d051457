// The shared-container manifest `soundpack export` writes (schemas/export.schema.json), as the
// app and its Notification Service Extension read it.

import Foundation

/// One exported pack: its grammar and, per token, the clip file and where to get it.
public struct SharedPack: Sendable, Equatable {
    public struct Clip: Sendable, Equatable, Codable {
        public var file: String
        public var bytes: Int
        public var sha256: String
        public var durationSeconds: Double
        public var url: URL?

        public init(file: String, bytes: Int, sha256: String, durationSeconds: Double, url: URL? = nil) {
            self.file = file
            self.bytes = bytes
            self.sha256 = sha256
            self.durationSeconds = durationSeconds
            self.url = url
        }

        private enum CodingKeys: String, CodingKey { case file, bytes, sha256, durationSeconds, url }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            file = try c.decode(String.self, forKey: .file)
            bytes = try c.decode(Int.self, forKey: .bytes)
            sha256 = try c.decode(String.self, forKey: .sha256)
            durationSeconds = try c.decodeIfPresent(Double.self, forKey: .durationSeconds) ?? 0
            url = try c.decodeIfPresent(String.self, forKey: .url).flatMap(URL.init(string:))
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(file, forKey: .file)
            try c.encode(bytes, forKey: .bytes)
            try c.encode(sha256, forKey: .sha256)
            try c.encode(durationSeconds, forKey: .durationSeconds)
            try c.encodeIfPresent(url?.absoluteString, forKey: .url)
        }
    }
    /// The key of the pack in the manifest's `packs`.
    public var id: String
    public var version: String
    public var grammar: Grammar
    public var maxAmount: Amount
    public var texts: [String: String]
    public var yanked: Bool
    /// Token → clip.
    public var clips: [Token: Clip]
    /// What the pack can announce (the same phrases `soundpack say` and `render` read).
    public var phrasebook: Phrasebook

    public init(id: String, version: String, grammar: Grammar, maxAmount: Amount, texts: [String: String], yanked: Bool, clips: [Token: Clip],
                phrasebook: Phrasebook? = nil) {
        self.id = id
        self.version = version
        self.grammar = grammar
        self.maxAmount = maxAmount
        self.texts = texts
        self.yanked = yanked
        self.clips = clips
        self.phrasebook = phrasebook ?? Phrasebook(grammar: grammar, hasSuffix: clips[.suffix] != nil)
    }

    /// How this pack frames a reading by default (the same framing `soundpack say` and `render` use).
    public var announcement: Announcement { phrasebook.announcement(phrasebook.defaultPhrase) }

    private enum CodingKeys: String, CodingKey { case version, grammar, two, money, tenStart, maxAmount, texts, yanked, tokens, phrases, defaultPhrase, reading }

    init(id: String, from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.id = id
        version = try c.decode(String.self, forKey: .version)
        let grammarText = try c.decode(String.self, forKey: .grammar)
        let maxText = try c.decode(String.self, forKey: .maxAmount)
        guard let maxAmount = try? Amount(parsing: maxText) else {
            throw PlanError.unreadableManifest("pack \(id) has no usable maxAmount")
        }
        grammar = try Self.grammar(of: id, named: grammarText, in: c)
        self.maxAmount = maxAmount
        texts = try c.decodeIfPresent([String: String].self, forKey: .texts) ?? [:]
        yanked = try c.decodeIfPresent(Bool.self, forKey: .yanked) ?? false
        let written = try c.decodeIfPresent([String: Clip].self, forKey: .tokens) ?? [:]
        do {
            phrasebook = try Phrasebook.of(grammar: grammar, declared: try c.decodeIfPresent([String: [String]].self, forKey: .phrases),
                                           defaultPhrase: try c.decodeIfPresent(String.self, forKey: .defaultPhrase),
                                           hasSuffix: written[Token.suffix.rawValue] != nil)
        } catch let error as PackFileError {
            throw PlanError.unreadableManifest("pack \(id): \(error.description)")
        }
        var clips: [Token: Clip] = [:]
        for (key, clip) in written {
            guard let token = phrasebook.token(forKey: key) else { throw PlanError.unreadableManifest("pack \(id) has an unknown token '\(key.quoted(limit: 40))'") }
            clips[token] = clip
        }
        self.clips = clips
    }

    /// The grammar a pack reads amounts with: this SoundpackCore's own code when it knows the
    /// grammar and every option the manifest and its reading table name, else the reading table
    /// (DESIGN §3b) — the pack of a grammar added after this app was built still speaks.
    private static func grammar(of id: String, named name: String, in c: KeyedDecodingContainer<CodingKeys>) throws -> Grammar {
        var options = GrammarOptions()
        var optionsKnown = true
        var written: [String: String] = [:]
        for (key, option) in [(CodingKeys.two, "two"), (.money, "money"), (.tenStart, "tenStart")] {
            guard let text = try c.decodeIfPresent(String.self, forKey: key) else { continue }
            written[option] = text
            optionsKnown = options.set(option, text) && optionsKnown
        }
        // The table's grammar and options only: its steps are decoded when the table is read with.
        let header = try c.decodeIfPresent(ReadingTable.Header.self, forKey: .reading)
        if let header, header.grammar != name {
            throw PlanError.unreadableManifest("pack \(id) reads grammar '\(name.quoted(limit: 40))' but its reading table is of '\(header.grammar.quoted(limit: 40))'")
        }
        if let known = GrammarID(rawValue: name), optionsKnown {
            let grammar = Grammar(known, options: options)
            let chosen = Dictionary(uniqueKeysWithValues: grammar.chosenOptions.map { ($0.name, $0.value) })
            // A table naming an option this code does not read (a newer one) reads otherwise: use the table.
            if header.map({ $0.options == chosen }) ?? true { return grammar }
        }
        guard header != nil, let table = try c.decodeIfPresent(ReadingTable.self, forKey: .reading) else {
            let what = GrammarID(rawValue: name) == nil ? "grammar '\(name.quoted(limit: 40))'"
                : "the grammar options \(written.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.quoted(limit: 20))" }.joined(separator: " "))"
            throw PlanError.unreadableManifest("pack \(id) reads \(what), which this SoundpackCore does not know, and carries no reading table; export it again with a current soundpack")
        }
        do {
            return try Grammar(table: table)
        } catch {
            throw PlanError.unreadableManifest("pack \(id): \(error.description)")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(version, forKey: .version)
        try c.encode(grammar.id.rawValue, forKey: .grammar)
        // The options that differ from their defaults (two always): what the tool reads, the phone reads.
        for (name, value) in grammar.chosenOptions {
            if let key = CodingKeys(rawValue: name), [.two, .money, .tenStart].contains(key) { try c.encode(value, forKey: key) }
        }
        try c.encode(maxAmount.description, forKey: .maxAmount)
        try c.encode(texts, forKey: .texts)
        try c.encode(yanked, forKey: .yanked)
        // The portable reading (DESIGN §3b), in every export: what an app whose SoundpackCore
        // predates the grammar, or one of its options, reads amounts with.
        try c.encode(grammar.readingTable, forKey: .reading)
        try c.encode(Dictionary(uniqueKeysWithValues: clips.map { ($0.key.rawValue, $0.value) }), forKey: .tokens)
        // Only a pack that declares phrases writes them: the manifests of the others are as before.
        if phrasebook.isDeclared {
            try c.encode(phrasebook.written, forKey: .phrases)
            try c.encode(phrasebook.defaultID, forKey: .defaultPhrase)
        }
    }
}

/// The exported manifest (schemas/export.schema.json): the bundled clip names under its key, and
/// every pack. `soundpack export` writes this type and the app and extension read it, so the two
/// sides cannot disagree on the shape.
public struct SharedManifest: Sendable, Equatable, Codable {
    public static let supportedSchemaVersion = 1
    /// The UserDefaults key the reference app lists its bundled clips under.
    public static let defaultKey = "kMainAppMp3FileKey"

    /// The two encodings `export` writes; readers accept either.
    public enum Encoding: String, Sendable, CaseIterable { case plist, json }

    public var key: String
    /// Clip file names the app bundles (the list under `key`, kMainAppMp3FileKey by default).
    public var bundledFiles: [String]
    public var packs: [String: SharedPack]

    public init(key: String = SharedManifest.defaultKey, bundledFiles: [String], packs: [String: SharedPack]) {
        self.key = key
        self.bundledFiles = bundledFiles
        self.packs = packs
    }

    /// Reads an exported manifest, XML property list or JSON.
    public init(data: Data) throws(PlanError) {
        guard data.count <= StoreLimits.sharedManifestBytes else {
            throw .unreadableManifest("\(data.count) bytes, above the \(StoreLimits.sharedManifestBytes >> 20) MiB an export may hold")
        }
        do {
            if data.first(where: { !$0.isWhitespaceByte }) == UInt8(ascii: "{") {
                if let duplicate = JSONDuplicateKeys.first(in: data) { throw PlanError.unreadableManifest(duplicate.description) }
                self = try JSONDecoder().decode(SharedManifest.self, from: data)
            } else {
                self = try PropertyListDecoder().decode(SharedManifest.self, from: data)
            }
        } catch let error as PlanError {
            throw error
        } catch DecodingError.keyNotFound(let key, let context) where context.codingPath.isEmpty && key.stringValue == "soundpack" {
            throw .unreadableManifest("no \"soundpack\" dictionary; is this a soundpack export?")
        } catch let error as DecodingError {
            throw .unreadableManifest(Self.describe(error))
        } catch {
            throw .unreadableManifest("neither JSON nor a property list (\(error.localizedDescription))")
        }
    }

    /// Why `key` cannot be the UserDefaults key of the bundled clip list, or nil: it shares the
    /// document with the `soundpack` dictionary, and XML (the property list) must be able to hold it.
    public static func keyProblem(_ key: String) -> String? {
        if key.isEmpty { return "the key is empty" }
        if key == "soundpack" { return "'soundpack' is the key of the packs' dictionary in the same document" }
        if key.utf8.count > 256 { return "the key is \(key.utf8.count) bytes; use at most 256" }
        if key.containsControlCharacter() { return "'\(key.quoted())' holds a control character" }
        if let scalar = key.xmlForbiddenScalar { return "'\(key.quoted())' holds U+\(String(scalar.value, radix: 16, uppercase: true)), which XML cannot carry" }
        return nil
    }

    /// An export that cannot be written as asked.
    public struct EncodingError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The bytes `export` writes: an XML property list, or JSON with sorted keys and a final newline.
    /// Refused above `StoreLimits.sharedManifestBytes`, which the app refuses to read.
    public func encoded(as encoding: Encoding) throws -> Data {
        if let problem = Self.keyProblem(key) { throw EncodingError(description: problem) }
        let data: Data
        switch encoding {
        case .plist:
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .xml
            data = try encoder.encode(self)
            // Foundation writes a text's characters as they are, so one XML 1.0 forbids (a control
            // character, U+FFFE) would make a file no XML reader accepts: refused, never written.
            if let scalar = String(decoding: data, as: UTF8.self).xmlForbiddenScalar {
                throw EncodingError(description: "a text holds U+\(String(format: "%04X", scalar.value)), which an XML property list cannot carry")
            }
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            data = try encoder.encode(self) + Data("\n".utf8)
        }
        guard data.count <= StoreLimits.sharedManifestBytes else {
            throw EncodingError(description: "the manifest of \(packs.count) packs is \(data.count) bytes, above the \(StoreLimits.sharedManifestBytes >> 20) MiB an app reads; export the packs into several manifests")
        }
        return data
    }

    public init(from decoder: any Decoder) throws {
        let root = try decoder.container(keyedBy: StringKey.self)
        let soundpack = try root.nestedContainer(keyedBy: StringKey.self, forKey: StringKey("soundpack"))
        let version = (try? soundpack.decode(Int.self, forKey: StringKey("schemaVersion"))) ?? -1
        guard version == Self.supportedSchemaVersion else { throw PlanError.unsupportedManifestVersion(version) }
        key = try soundpack.decodeIfPresent(String.self, forKey: StringKey("key")) ?? Self.defaultKey
        bundledFiles = try root.decodeIfPresent([String].self, forKey: StringKey(key)) ?? []
        var packs: [String: SharedPack] = [:]
        if soundpack.contains(StringKey("packs")) {
            let container = try soundpack.nestedContainer(keyedBy: StringKey.self, forKey: StringKey("packs"))
            for id in container.allKeys {
                packs[id.stringValue] = try SharedPack(id: id.stringValue, from: try container.superDecoder(forKey: id))
            }
        }
        self.packs = packs
    }

    public func encode(to encoder: any Encoder) throws {
        var root = encoder.container(keyedBy: StringKey.self)
        try root.encode(bundledFiles, forKey: StringKey(key))
        var soundpack = root.nestedContainer(keyedBy: StringKey.self, forKey: StringKey("soundpack"))
        try soundpack.encode(Self.supportedSchemaVersion, forKey: StringKey("schemaVersion"))
        try soundpack.encode(key, forKey: StringKey("key"))
        var container = soundpack.nestedContainer(keyedBy: StringKey.self, forKey: StringKey("packs"))
        for (id, pack) in packs { try pack.encode(to: container.superEncoder(forKey: StringKey(id))) }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "neither JSON nor a property list (\(context.debugDescription))"
                : "\(path(context.codingPath)) has the wrong type (\(context.debugDescription))"
        @unknown default: return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String { keys.map(\.stringValue).joined(separator: ".") }
}

/// Why an amount cannot be planned or a clip cannot be used.
public enum PlanError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadableManifest(String)
    case unsupportedManifestVersion(Int)
    case unknownPack(String)
    case yankedPack(String)
    case amountUnreadable(AmountError)
    case noAmount(phrase: String)
    case missingClip(token: String, amount: String)
    case noDownloadURL(file: String)
    case sizeMismatch(file: String, expected: Int, actual: Int)
    case hashMismatch(file: String, expected: String, actual: String)

    public var description: String {
        switch self {
        case .unreadableManifest(let why): return "the shared manifest cannot be read: \(why)"
        case .unsupportedManifestVersion(let v): return "the shared manifest has schema version \(v); this SoundpackCore reads version \(SharedManifest.supportedSchemaVersion) (update the app or re-export)"
        case .unknownPack(let id): return "the shared manifest has no pack '\(id)'"
        case .yankedPack(let pin): return "\(pin) is yanked; plan with a version that is not (export or refresh the newest)"
        case .amountUnreadable(let error): return error.description
        case .noAmount(let phrase): return "phrase '\(phrase.visible)' says an amount, and none was given"
        case .missingClip(let token, let amount): return "the pack cannot say \(amount): it has no clip for token '\(token)'"
        case .noDownloadURL(let file): return "\(file) is neither bundled nor in Library/Sounds, and the manifest gives no URL to download it (export with --base-url)"
        case .sizeMismatch(let file, let expected, let actual): return "\(file) is \(actual) bytes, the manifest says \(expected); refusing to use it"
        case .hashMismatch(let file, let expected, let actual): return "\(file) has SHA-256 \(actual.prefix(16))…, the manifest says \(expected.prefix(16))…; refusing to use it"
        }
    }
}

extension UInt8 {
    fileprivate var isWhitespaceByte: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}

extension SharedPack {
    /// A pack as the phone plans it from a published version's manifest (fetched by
    /// `ManifestRefresher`): file names are the clips' last path components, as `export` writes
    /// them, and each clip downloads from the store served at `storeURL`.
    public init(published manifest: StoreManifest, storeURL: String, yanked: Bool = false) {
        let phrasebook = manifest.phrasebook
        var clips: [Token: Clip] = [:]
        for (key, clip) in manifest.clips {
            guard let token = phrasebook.token(forKey: key) else { continue }
            let file = clip.file.slashSeparated.last ?? clip.file
            let url = StoreLayout.url(of: StoreLayout.versionFile(manifest.id, manifest.version, clip.file), under: storeURL)
            clips[token] = Clip(file: file, bytes: clip.bytes, sha256: clip.sha256, durationSeconds: clip.durationSeconds, url: url)
        }
        self.init(id: manifest.id, version: manifest.version.description, grammar: manifest.readingGrammar, maxAmount: manifest.maxAmount,
                  texts: manifest.texts, yanked: yanked, clips: clips, phrasebook: phrasebook)
    }
}

extension SharedManifest {
    /// A manifest holding one published pack, keeping this manifest's key and those of its bundled
    /// files the published version still uses (see `bundled(_:stillUsedBy:)`).
    public func replacing(with pack: SharedPack) -> SharedManifest {
        var packs = self.packs
        packs[pack.id] = pack
        return SharedManifest(key: key, bundledFiles: bundled(bundledFiles, stillUsedBy: pack), packs: packs)
    }

    /// Of `names` (clips the app bundles, as listed under the key), those whose bytes `pack` still
    /// uses: same file name and the same SHA-256 as in this (shipped) manifest. A clip a newer
    /// version re-recorded under the same name is downloaded, never taken from the bundle.
    public func bundled(_ names: [String], stillUsedBy pack: SharedPack) -> [String] {
        let shipped = packs.values.flatMap(\.clips.values).reduce(into: [String: Set<String>]()) { $0[$1.file, default: []].insert($1.sha256) }
        let wanted = Dictionary(pack.clips.values.map { ($0.file, $0.sha256) }, uniquingKeysWith: { first, _ in first })
        return names.filter { name in wanted[name].map { shipped[name]?.contains($0) == true } ?? false }
    }
}

/// A JSON object key known only at run time (the shared manifest's UserDefaults key, a check's
/// name in pack.json).
struct StringKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

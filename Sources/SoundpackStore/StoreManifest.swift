// The store's manifest.json, on the Kit side: the one JSON encoding (sorted keys, indented, final
// newline) of SoundpackCore's StoreManifest and StoreIndex, the manifest publish writes for a pack,
// and the check that a stored manifest is that manifest for the pack.json stored beside it.

import Foundation
import SoundpackCore
import SoundpackPack
import SoundpackSupport

extension StoreManifest {
    package func encoded() throws(SoundpackError) -> Data { try StoreJSON.encode(self) }

    /// The manifest publish writes for `pack`: what pack.json says (id, version, name, grammar and
    /// reading options, maxAmount, profile, texts, phrases, source) around the version's files.
    package init(describing pack: PackFile, digest: String, clips: [String: Clip], packJSON: FileRecord, archives: [String: FileRecord], signingKey: String?) {
        self.init(id: pack.id, name: pack.name, version: pack.version, grammar: pack.grammar.id, two: pack.grammar.two,
                  maxAmount: pack.maxAmount, profile: pack.profile, texts: pack.texts, digest: digest, clips: clips,
                  packJSON: packJSON, archives: archives, signingKey: signingKey)
        setOptions(of: pack.grammar)
        setPhrases(pack.phrasebook)
        source = pack.source
    }

    /// Why this manifest is not the one publish writes for the pack.json stored beside it (`data`,
    /// already checked against `packJSON`'s SHA-256), or nil when it is. Recomputed, not trusted:
    /// every field pack.json decides must be pack.json's, each clip must sit at its pack path's
    /// store path, pack.json and the archives at the layout's names, and the digest must be the one
    /// PackDigest makes from pack.json and the clips' SHA-256 (each clip's bytes are checked against
    /// its entry by the caller). A manifest edited behind publish's back (a reading option changed,
    /// a clip path out of the version folder), its hashes updated to match, is caught here.
    package func disagreement(withPackJSON data: [UInt8]) -> String? {
        do {
            _ = try pack(describedBy: data)
            return nil
        } catch { return error.description }
    }

    /// Why a manifest is not the one publish writes for its pack.json.
    public struct Disagreement: Error, Sendable, CustomStringConvertible {
        /// What does not match, for the message.
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The pack.json `data` parsed, when this manifest is the one publish writes for it
    /// (`disagreement(withPackJSON:)` says what is checked); else why it is not.
    public func pack(describedBy data: [UInt8]) throws(Disagreement) -> PackFile {
        let pack: PackFile
        do { pack = try PackFile(json: Data(data)) } catch { throw Disagreement("its pack.json is not a valid pack.json: \(error.description)") }
        guard Set(pack.clips.keys.map(\.pathKey)) == Set(clips.keys.map(\.pathKey)) else { throw Disagreement("its tokens are not its pack.json's") }
        var expectedClips: [String: Clip] = [:]
        for (key, path) in pack.clips {
            guard var clip = clips[key] else { throw Disagreement("its tokens are not its pack.json's") }
            clip.file = StoreLayout.clipFile(packPath: path)
            expectedClips[key] = clip
        }
        var expectedArchives: [String: FileRecord] = [:]
        for (kind, archive) in archives {
            guard let known = ArchiveKind(rawValue: kind) else { throw Disagreement("it lists an archive of an unknown kind, '\(kind.quoted())'") }
            expectedArchives[kind] = FileRecord(file: StoreLayout.archiveFile(pack.id, pack.version, known), bytes: archive.bytes, sha256: archive.sha256)
        }
        let digest = PackDigest.digest(of: pack, clipHashes: clips.mapValues(\.sha256))
        let expected = StoreManifest(describing: pack, digest: digest, clips: expectedClips,
                                     packJSON: FileRecord(file: StoreLayout.packJSONFile, bytes: data.count, sha256: Digest.sha256Hex(data)),
                                     archives: expectedArchives, signingKey: signingKey)
        guard expected != self else { return pack }
        let differences: [(String, Bool)] = [
            ("id and version", (id, version) != (expected.id, expected.version)), ("name", name != expected.name),
            ("grammar", grammar != expected.grammar), ("reading options", (two, money, tenStart) != (expected.two, expected.money, expected.tenStart)),
            ("maxAmount", maxAmount != expected.maxAmount), ("profile", profile != expected.profile), ("texts", texts != expected.texts),
            ("phrases", phrases != expected.phrases || defaultPhrase != expected.defaultPhrase), ("source", source != expected.source),
            ("clip paths", self.clips != expected.clips), ("pack.json entry", packJSON != expected.packJSON),
            ("archive names", archives != expected.archives), ("schema version", schemaVersion != expected.schemaVersion),
        ]
        let fields = differences.filter(\.1).map(\.0)
        let digestWrong = digest != self.digest ? "its digest \(self.digest.prefix(12)) is not the \(digest.prefix(12)) its pack.json and clips make" : nil
        let disagreeing = fields.isEmpty ? nil : "it disagrees with its pack.json on \(fields.joined(separator: ", "))"
        throw Disagreement([disagreeing, digestWrong].compactMap { $0 }.joined(separator: ", and "))
    }
}

extension StoreIndex {
    /// index.json's bytes: written directly where that gives JSONEncoder's bytes, else by it.
    package func encoded() throws(SoundpackError) -> Data {
        if let plain = plainJSON() { return plain }
        return try StoreJSON.encode(self)
    }
}

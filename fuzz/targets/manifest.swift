// Fuzz target: pack.json bytes through the loader, the duplicate-key scan and what validation
// derives from a manifest (required tokens, framing); the shared manifest an app reads (a pack of
// an unknown grammar from its reading table); and the
// store's index.json and manifest.json as a phone's ManifestRefresher decodes them (index.json's
// direct reading and writing held against JSONDecoder and JSONEncoder).
import Foundation
import SoundpackCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    _ = JSONDuplicateKeys.first(in: bytes)
    if let manifest = try? PackFile(json: bytes) {
        let book = manifest.phrasebook
        let required = book.requiredTokens(upTo: manifest.maxAmount)
        if !book.isDeclared { precondition(required.contains(.prefix), "a pack without phrases always needs its prefix") }
        for (ordinal, token) in book.inventory.enumerated() { precondition(token.ordinal == ordinal, "a token is at its ordinal") }
        for phrase in book.phrases {
            let tokens = book.announcement(phrase).tokens(for: manifest.maxAmount)
            precondition(Set(phrase.clips).isSubset(of: required) && Set(tokens).isSubset(of: required), "every phrase says only required tokens")
            precondition(phrase.clips.allSatisfy { manifest.texts[$0.rawValue] != nil } || !book.isDeclared, "a declared phrase's clips have texts")
            _ = manifest.grammar.text(of: tokens, texts: manifest.texts).visible
        }
    }
    if let shared = try? SharedManifest(data: bytes) {
        for pack in shared.packs.values {
            let planner = try? ClipPlanner(manifest: shared, packID: pack.id)
            for phrase in [nil] + pack.phrasebook.phrases.map(\.id) { _ = try? planner?.plan(amount: "15.40", phrase: phrase) }
            // A pack read from its reading table reads every amount up to its maximum (check() proved it).
            if pack.grammar.isReadFromTable, pack.maxAmount < Amount.grammarLimit {
                precondition(pack.grammar.readingTable.tokens(for: pack.maxAmount) != nil, "a checked table reads every amount")
            }
        }
    }
    // index.json read and written directly agrees with JSONDecoder and JSONEncoder where it answers.
    if let plain = StoreIndex(plainJSON: bytes) {
        precondition(JSONDuplicateKeys.first(in: bytes) == nil, "the plain reading takes no repeated key")
        precondition((try? JSONDecoder().decode(StoreIndex.self, from: bytes)) == plain, "the plain reading reads as JSONDecoder")
        if let written = plain.plainJSON() {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            precondition((try? encoder.encode(plain)).map { $0 + Data("\n".utf8) } == written, "the plain writing writes as JSONEncoder")
            precondition(StoreIndex(plainJSON: written) == plain, "the plain writing reads back")
        }
    }
    // Skimmed bytes are the writer's own, decodeIndex reads them into the entries the skim counts
    // and builds, and an index written with every entry copied from them is those bytes again.
    if let skim = StoreIndex.skim(bytes) {
        let whole = try? ManifestRefresher.decodeIndex(bytes)
        precondition(whole == skim.index, "a skimmed index is what decodeIndex reads")
        precondition(whole?.plainJSON() == bytes, "skimmed bytes are the writer's")
        for (id, pack) in whole?.packs ?? [:] {
            precondition(skim.entries[id]?.versions == pack.versions.count, "a skim counts versions")
            precondition(skim.entries[id]?.yanked == pack.versions.values.filter(\.yanked).count, "a skim counts yanks")
        }
        precondition(StoreIndex(packs: [:]).plainJSON(keeping: skim, replacing: []) == bytes, "copied entries give the same bytes")
        // One entry built again between the copied ones (split into runs around it) gives them too.
        if let id = skim.entries.keys.min(by: { ($0.utf8.count, $0) < ($1.utf8.count, $1) }), let pack = skim.pack(id) {
            let pieces = StoreIndex(packs: [id: pack]).plainJSONPieces(keeping: skim, replacing: [id])
            precondition(pieces?.joinedBytes == bytes, "an entry built again between copied ones gives the same bytes")
        }
    }
    if let index = try? ManifestRefresher.decodeIndex(bytes) {
        for (id, pack) in index.packs {
            precondition(PackFile.isValidID(id), "a decoded index names only pack ids")
            precondition(pack.versions.keys.allSatisfy { SemanticVersion($0) != nil }, "a decoded index names only versions")
        }
    }
    if let published = try? ManifestRefresher.decodeManifest(bytes) {
        for clip in published.clips.values {
            precondition(ManifestRefresher.isSafeStorePath(clip.file), "a decoded manifest's clip path stays in its folder")
        }
        for file in [published.packJSON] + published.archives.values {
            precondition(ManifestRefresher.isSafeStorePath(file.file), "a decoded manifest's pack.json and archives stay in its folder")
        }
        for (key, text) in published.texts {
            precondition(PackFile.unprintable(key) == nil && PackFile.unprintable(text) == nil, "a decoded manifest's texts are printable")
        }
        let pack = SharedPack(published: published, storeURL: "https://cdn.example.com/voice")
        for clip in pack.clips.values {
            precondition(!clip.file.contains("/") && clip.file != ".." && clip.file != ".", "a clip file name is one path component")
            if let url = clip.url { precondition(url.host == "cdn.example.com", "a clip URL stays on the store's host") }
        }
        let planner = try? ClipPlanner(manifest: SharedManifest(bundledFiles: [], packs: [pack.id: pack]), packID: pack.id)
        for phrase in [nil] + pack.phrasebook.phrases.map(\.id) { _ = try? planner?.plan(amount: "15.40", phrase: phrase) }
    }
    return 0
}

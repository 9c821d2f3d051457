// Every committed fuzz seed and every input a fuzzer once crashed on (fuzz/regressions/TARGET/),
// replayed through the code its target exercises, in the debug build with all its checks.

import Foundation
@testable import SoundpackAudio
import SoundpackCore
@testable import SoundpackKit
@testable import SoundpackStore
@testable import SoundpackSynthesis
import SoundpackTestSupport
import Testing

@Suite struct FuzzCorpusTests {
    static func inputs(_ target: String) -> [String] {
        ["corpus", "regressions"].flatMap { kind -> [String] in
            let folder = Fixtures.repositoryRoot + "/fuzz/\(kind)/\(target)"
            return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { folder + "/" + $0 }
        }
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func everyTargetHasSeeds() {
        for target in ["manifest", "amount", "audio", "plain", "mp4", "archive", "payload", "store", "synth"] { #expect(!Self.inputs(target).isEmpty, "\(target)") }
    }

    @Test func manifestInputs() throws {
        for path in Self.inputs("manifest") {
            let data = try Self.bytes(path)
            _ = JSONDuplicateKeys.first(in: data)
            if let manifest = try? PackFile(json: data) {
                let book = manifest.phrasebook, required = book.requiredTokens(upTo: manifest.maxAmount)
                #expect(book.isDeclared || required.contains(.prefix))
                for phrase in book.phrases { #expect(Set(phrase.clips).isSubset(of: required), "\(path): \(phrase.id)") }
            }
            _ = try? SharedManifest(data: data)
            // index.json read directly agrees with JSONDecoder, and is written back as JSONEncoder writes it.
            if let plain = StoreIndex(plainJSON: data) {
                #expect(JSONDuplicateKeys.first(in: data) == nil && (try? JSONDecoder().decode(StoreIndex.self, from: data)) == plain, "\(path)")
                #expect(plain.plainJSON() == data, "\(path): not written back byte for byte")
            }
        }
        #expect(Self.inputs("manifest").contains { (try? StoreIndex(plainJSON: Self.bytes($0))) != nil }, "no index.json in the corpus")
    }

    @Test func amountInputs() throws {
        for path in Self.inputs("amount") {
            let text = String(decoding: try Self.bytes(path), as: UTF8.self)
            guard let amount = try? Amount(parsing: text) else { continue }
            #expect(try Amount(parsing: amount.description) == amount)
            #expect(Grammar(.zhHans, two: .liang).tokens(for: amount).last == ChineseGrammar.yuan)
        }
    }

    @Test func audioInputs() throws {
        // As the fuzz target does: each input also side by side with a short and a long tone, and
        // twice among both (four lanes).
        let (short, long) = (900, 12_000)
        let companions = [short, long].map { frames in
            Fixtures.floatWAV((0..<frames).map { Float(0.4 * sin(2 * Double.pi * 440 * Double($0) / 22_050)) })
        }
        let probe = AudioProbe()
        for path in Self.inputs("audio") {
            let bytes = Array(try Self.bytes(path))
            for group in [[bytes, companions[0]], [bytes, companions[1]], [companions[0], bytes, companions[1], bytes]] {
                for (result, clip) in zip(AudioProbe.probe(together: group.map { (probe, $0) }), group) {
                    #expect((try? result.get()) == (try? probe.probe(bytes: clip)), "\(path)")
                }
            }
            guard let facts = try? probe.probe(bytes: bytes) else { continue }
            #expect(facts.durationSeconds.isFinite && facts.dcOffsetPercent.isFinite, "\(path)")
            #expect((try? StoreJSON.encode(facts)) != nil, "\(path)")
        }
    }

    @Test func plainInputs() throws {
        // As the fuzz target does: a file the plain decoder takes, libsndfile reads the same.
        var taken = 0
        for path in Self.inputs("plain") {
            let bytes = Array(try Self.bytes(path))
            let (plain, libsndfile) = try PlainDecoderTests.decodeBoth(bytes)
            guard let plain else { continue }
            taken += 1
            #expect(plain.0 == libsndfile.0 && plain.1 == libsndfile.1, "\(path)")
        }
        #expect(taken >= 8, "every seed is decoded here")
    }

    @Test func mp4Inputs() throws {
        // As the fuzz target does: refused unread without decodesMP4, decoded through FFmpeg with it.
        var decoding = AudioProbe()
        decoding.decodesMP4 = true
        var decoded = 0
        for path in Self.inputs("mp4") {
            let bytes = Array(try Self.bytes(path))
            if ContainerSniffer.container(of: bytes) == .mp4 {
                let error = #expect(throws: AudioError.self, "\(path)") { try AudioProbe().probe(bytes: bytes) }
                if case .unsupportedFormat = error?.kind {} else { Issue.record("\(path): \(String(describing: error))") }
            }
            guard let facts = try? decoding.probe(bytes: bytes) else { continue }
            decoded += 1
            #expect(facts.durationSeconds.isFinite && facts.dcOffsetPercent.isFinite, "\(path)")
        }
        #expect(decoded >= 3, "the AAC and ALAC seeds decode")
    }

    @Test func archiveInputs() throws {
        for path in Self.inputs("archive") {
            let folder = TemporaryFolder()
            _ = try? SafeExtractor.extract(path, into: folder.path)
            for entry in Folders.walk(folder.path) { #expect(entry.kind != .other, "\(path): \(entry.path)") }
        }
    }

    /// index.json, manifest.json and pack.json of a folder store (split at NUL), read back as
    /// catalog rebuild and verify read it: what rebuild records is a manifest phones take and the
    /// one its pack.json makes, and verify finds no fault in it.
    @Test func storeInputs() throws {
        var recorded: [String] = []
        for path in Self.inputs("store") {
            let folder = TemporaryFolder()
            let parts = try Self.bytes(path).split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map { Data($0) }
            let id = ((try? ManifestRefresher.decodeManifest(parts.count > 1 ? parts[1] : Data()))?.id).flatMap { PackFile.isValidID($0) ? $0 : nil } ?? "wechat"
            for (part, file) in zip(parts, ["index.json", "\(id)/1.0.0/manifest.json", "\(id)/1.0.0/pack.json"]) { try folder.write("", to: "dist/" + file); try part.write(to: URL(fileURLWithPath: folder.file("dist/" + file))) }
            let store = Store.directory(folder.file("dist"))
            let catalog = try CatalogLocation.inMemory.open()
            guard let report = try? StoreRecovery(store: store, catalog: catalog).recover(packID: nil, index: try? store.readIndex(), listing: true) else { continue }
            recorded += report.recorded
            for name in report.recorded {
                let manifest = try ManifestRefresher.decodeManifest(try #require(try store.backend.read("\(id)/1.0.0/manifest.json")))
                #expect(manifest.disagreement(withPackJSON: Array(try #require(try store.backend.read("\(id)/1.0.0/pack.json")))) == nil, "\(path): \(name)")
                let drifts = try StoreVerifier(catalog: catalog, store: store).verify().drifts
                #expect(drifts.isEmpty, "\(path): \(drifts.map(\.message))")
            }
        }
        #expect(recorded == ["wechat@1.0.0"], "the seed without clips is recorded; the others are refused")
    }

    @Test func payloadInputs() throws {
        for path in Self.inputs("payload") {
            let facts = PushPayload.PackFacts(maxAmount: Amount(minorUnits: 9_999_999_999), yanked: false,
                                              phrasebook: Phrasebook(grammar: Grammar(.zhHans), hasSuffix: false),
                                              clipKeys: Set(Grammar(.zhHans).inventory.map(\.rawValue)))
            // As an S3 server's listing pages (split at NUL), sent round and round: it ends before a page comes twice.
            let pages = try Self.bytes(path).split(separator: 0, omittingEmptySubsequences: false).map { Data($0) }
            var listing = S3Listing(prefix: "voice/", location: "s3://bucket/voice", endpoint: "http://127.0.0.1")
            var asked = 0
            while asked <= pages.count, (try? listing.add(page: pages[asked % pages.count])) != nil { asked += 1 }
            #expect(asked <= pages.count, "\(path): the listing went round")
            let findings = PushPayload.lint(try Self.bytes(path), packs: ["wechat@1.0.0": facts])
            if path.hasSuffix("good.json") { #expect(findings.filter { $0.severity == .error }.isEmpty, "\(findings)") }
        }
    }

    /// As the reading target checks them: a table that passes `check()` walks every amount without
    /// leaving itself, saying its own tokens only; one that does not pass is refused, not read.
    @Test func readingInputs() throws {
        let inputs = Self.inputs("reading")
        #expect(inputs.count >= 3)
        var checked = 0
        for path in inputs {
            guard let table = try? JSONDecoder().decode(ReadingTable.self, from: Data(try Self.bytes(path))), (try? table.check()) != nil else { continue }
            checked += 1
            for minor: Int64 in [0, 1, 1_540, 10_000_000, 99_999_999_999_999] {
                let tokens = try #require(table.tokens(for: Amount(minorUnits: minor)), "\(path): \(minor)")
                #expect(tokens.allSatisfy(table.tokens.contains), "\(path)")
            }
        }
        #expect(checked >= 2, "the seeds include tables that pass")
    }

    /// As the synth target checks them: clip files distinct, and placeholders filled in the words only.
    @Test func synthInputs() throws {
        for path in Self.inputs("synth") {
            let lines = String(decoding: try Self.bytes(path), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let grammar = Grammar(.zhHans, options: GrammarOptions(money: .jiaoFen))
            let keys = lines + grammar.inventory.map(\.rawValue)
            let stems = grammar.fileStems(for: keys)
            #expect(Set(stems.values.map { $0.lowercased() }).count == Set(keys).count, "\(path)")
            var request = SynthRequest(id: "fuzz", grammar: Grammar(.zhHans), maxAmount: Amount(minorUnits: 9_999))
            let given = lines.dropFirst().map { line in
                let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (id: String(parts[0]), text: parts.count > 1 ? String(parts[1]) : "")
            }
            if let texts = try? PhraseTexts(given) {
                request.phraseTexts = texts
            }
            if let plan = try? PackSynthesizer.plan(request, into: PackFolder(path: "/nonexistent-fuzz-pack", shown: "pack")) {
                #expect(Set(plan.clips.map(\.file)).count == plan.clips.count, "\(path)")
            }
            guard let template = lines.first, let command = try? EngineCommand(template) else { continue }
            let spoken = lines.dropFirst().joined(separator: "\n")
            let marked = command.arguments(text: "\u{1}", out: "\u{2}", voice: "\u{3}")
            let filled = command.arguments(text: spoken, out: "/o", voice: "v")
            #expect(filled == marked.map { $0.replacingOccurrences(of: "\u{1}", with: spoken).replacingOccurrences(of: "\u{2}", with: "/o").replacingOccurrences(of: "\u{3}", with: "v") }, "\(path)")
        }
    }
}

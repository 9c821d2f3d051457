// index.json read and written directly (`StoreIndex(plainJSON:)`, `plainJSON()`) against
// Foundation's JSONDecoder and JSONEncoder, which read and wrote it before: where the direct ones
// answer they answer the same, and they answer for the indexes publish writes.

import Foundation
@testable import SoundpackCore
import Testing

@Suite struct StoreIndexJSONTests {
    /// JSONEncoder as publish configures it (StoreJSON), with its final newline.
    static func foundationBytes(_ index: StoreIndex) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(index) + Data("\n".utf8)
    }

    /// JSONDecoder as `decodeIndex` used it: nil when a key repeats or it does not decode.
    static func foundationIndex(_ data: Data) -> StoreIndex? {
        guard JSONDuplicateKeys.first(in: data) == nil else { return nil }
        return try? JSONDecoder().decode(StoreIndex.self, from: data)
    }

    /// A random index: pack ids and versions of every form, and now and then a string that JSON
    /// escapes, a non-ASCII reason, an empty object or a missing latest.
    static func randomIndex(_ random: inout SplitMix64, plain: Bool) -> StoreIndex {
        func text(_ alphabet: [String], _ count: ClosedRange<Int>) -> String {
            (0..<Int.random(in: count, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
        }
        let idAlphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-".map(String.init))
        let odd = plain ? [] : ["\"", "\\", "\n", "\u{1}", "\t", "\u{7F}"]
        let reasons = ["bad 5", "错读了十五", "x/y", "<&>", "é\u{301}", "\u{2028}"] + odd
        var packs: [String: StoreIndex.Pack] = [:]
        for _ in 0..<Int.random(in: (plain ? 1 : 0)...12, using: &random) {
            var versions: [String: StoreIndex.Version] = [:]
            for _ in 0..<Int.random(in: (plain ? 1 : 0)...8, using: &random) {
                var version = "\(Int.random(in: 0...12, using: &random)).\(Int.random(in: 0...12, using: &random)).\(Int.random(in: 0...120, using: &random))"
                if Bool.random(using: &random) { version += "-" + ["rc.1", "alpha", "0.3.7", "x-y"].randomElement(using: &random)! }
                if Int.random(in: 0..<4, using: &random) == 0 { version += "+build." + text(idAlphabet, 1...4) }
                let yanked = Bool.random(using: &random)
                versions[version] = StoreIndex.Version(
                    digest: text(Array("0123456789abcdef".map(String.init)), 64...64), manifest: "x/\(version)/manifest.json",
                    manifestSha256: text(Array("0123456789abcdef".map(String.init)), 64...64),
                    publishedAt: "2026-12-05T19:36:40.\(Int.random(in: 100...999, using: &random))Z",
                    yanked: yanked, yankReason: yanked && Bool.random(using: &random) ? text(reasons, 0...3) : nil)
            }
            packs[text(idAlphabet + odd, 1...12)] = StoreIndex.Pack(latest: Bool.random(using: &random) ? versions.keys.first : nil, versions: versions)
        }
        var index = StoreIndex(packs: packs)
        if !plain, Int.random(in: 0..<8, using: &random) == 0 { index.schemaVersion = Int.random(in: -3...20, using: &random) }
        return index
    }

    @Test func theWriterWritesJSONEncodersBytesOrLeavesThemToIt() throws {
        var random = SplitMix64(seed: 46)
        var written = 0
        for round in 0..<400 {
            let index = Self.randomIndex(&random, plain: round % 2 == 0)
            let expected = try Self.foundationBytes(index)
            guard let plain = index.plainJSON() else { continue }
            written += 1
            #expect(plain == expected, "round \(round): \(String(decoding: plain.prefix(300), as: UTF8.self))")
        }
        // Every plain index (half the rounds) is written directly.
        #expect(written >= 200)
    }

    @Test func theReaderReadsAsJSONDecoderOrLeavesItToIt() throws {
        var random = SplitMix64(seed: 4_646)
        var read = 0
        for round in 0..<400 {
            let index = Self.randomIndex(&random, plain: round % 2 == 0)
            var data = try Self.foundationBytes(index)
            // Now and then compact, or a byte changed: the reader must still agree or stand aside.
            if round % 5 == 1 { data = try JSONEncoder().encode(index) }
            if round % 3 == 2, !data.isEmpty {
                data[Int.random(in: 0..<data.count, using: &random)] = [UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "1"), 0x20, 0xC3].randomElement(using: &random)!
            }
            guard let plain = StoreIndex(plainJSON: data) else { continue }
            read += 1
            #expect(Self.foundationIndex(data) == plain, "round \(round): \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
        #expect(read >= 120)
    }

    @Test(arguments: [
        #"{"packs":{},"schemaVersion":1,"schemaVersion":1}"#,  // a key twice
        #"{"packs":{"a":{"versions":{}},"a":{"versions":{}}},"schemaVersion":1}"#,
        #"{"packs":{},"schemaVersion":1,"extra":2}"#,  // a key the index does not have
        #"{"packs":{"a\u0062":{"versions":{}}},"schemaVersion":1}"#,  // an escape
        #"{"packs":{},"schemaVersion":1.0}"#, #"{"packs":{},"schemaVersion":01}"#, #"{"packs":{},"schemaVersion":-1}"#,
        #"{"packs":{},"schemaVersion":1} x"#, "\u{FEFF}{\"packs\":{},\"schemaVersion\":1}",
        #"{"packs":{"a":{"versions":{"1.0.0":{"digest":"d","manifest":"m","manifestSha256":"s","publishedAt":"p"}}}},"schemaVersion":1}"#,  // no yanked
    ])
    func whatIsNotPlainIsLeftToJSONDecoder(_ text: String) {
        #expect(StoreIndex(plainJSON: Data(text.utf8)) == nil)
    }

    @Test func invalidUTF8IsLeftToJSONDecoder() {
        for bad: [UInt8] in [[0xFF], [0xC3], [0xE6, 0x94], [0xED, 0xA0, 0x80]] {
            let data = Data(#"{"packs":{"a"#.utf8) + Data(bad) + Data(#"":{"versions":{}}},"schemaVersion":1}"#.utf8)
            #expect(StoreIndex(plainJSON: data) == nil, "\(bad)")
        }
        let valid = Data(#"{"packs":{"a":{"versions":{"1.0.0":{"digest":"d","manifest":"m","manifestSha256":"s","publishedAt":"p","yankReason":"读","yanked":true}}}},"schemaVersion":1}"#.utf8)
        #expect(StoreIndex(plainJSON: valid)?.packs["a"]?.versions["1.0.0"]?.yankReason == "读")
    }

    @Test func nullsAndSpacesAreReadAsJSONDecoderReadsThem() throws {
        let text = " {\r\n\t\"schemaVersion\" : 1 , \"packs\" : { \"a\" : { \"latest\" : null , \"versions\" : { \"1.0.0\" : { \"yankReason\" : null , \"yanked\" : false , \"publishedAt\" : \"p\" , \"manifestSha256\" : \"s\" , \"manifest\" : \"m\" , \"digest\" : \"d\" } } } } } \n"
        let plain = try #require(StoreIndex(plainJSON: Data(text.utf8)))
        #expect(plain == Self.foundationIndex(Data(text.utf8)))
        #expect(plain.packs["a"]?.latest == nil && plain.packs["a"]?.versions["1.0.0"]?.yankReason == nil)
    }

    @Test func decodeIndexTakesEitherReading() throws {
        var random = SplitMix64(seed: 7)
        let index = Self.randomIndex(&random, plain: true)
        #expect(try ManifestRefresher.decodeIndex(try Self.foundationBytes(index)) == index)
        // An escape in an id: JSONDecoder reads it, and the id it spells is checked as before.
        let version = #"{"digest":"d","manifest":"xyz/1.0.0/manifest.json","manifestSha256":"s","publishedAt":"p","yanked":false}"#
        let escaped = Data(#"{"packs":{"x\u0079z":{"versions":{"1.0.0":\#(version)}}},"schemaVersion":1}"#.utf8)
        #expect(StoreIndex(plainJSON: escaped) == nil)
        #expect(try ManifestRefresher.decodeIndex(escaped).packs["xyz"]?.versions["1.0.0"] != nil)
        let notAnID = Data(#"{"packs":{"X\u0079z":{"versions":{"1.0.0":\#(version)}}},"schemaVersion":1}"#.utf8)
        #expect(throws: ManifestDecodingError.self) { try ManifestRefresher.decodeIndex(notAnID) }
    }

    /// The writer's own bytes are skimmed exactly when `decodeIndex` accepts them: every entry
    /// counted, located and built as the whole reading builds it. An index written with the
    /// skimmed entries it keeps copied is what writing it whole gives.
    @Test func skimmedEntriesAreCopiedAsTheWriterWritesThem() throws {
        var random = SplitMix64(seed: 4_647)
        var (copied, skimmed) = (0, 0)
        for round in 0..<300 {
            let earlier = Self.randomIndex(&random, plain: true)
            let data = try #require(earlier.plainJSON())
            let decoded = try? ManifestRefresher.decodeIndex(data)
            guard let skim = StoreIndex.skim(data) else {
                #expect(decoded == nil, "round \(round): bytes in the writer's layout that decodeIndex accepts are skimmed")
                continue
            }
            skimmed += 1
            #expect(decoded == earlier && skim.index == earlier && Set(skim.entries.keys) == Set(earlier.packs.keys))
            for (id, pack) in earlier.packs {
                let counted = skim.entries[id].map { [$0.versions, $0.yanked] }
                #expect(counted == [pack.versions.count, pack.versions.values.filter(\.yanked).count], "round \(round): \(id)")
            }
            var (rebuilt, replacing, whole) = (StoreIndex(packs: [:]), Set<String>(), earlier)
            for id in earlier.packs.keys.sorted() {
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    replacing.insert(id)
                    whole.packs[id] = nil
                case 1:
                    var pack = try #require(earlier.packs[id])
                    pack.versions[pack.versions.keys.sorted()[0]]?.yanked.toggle()
                    (rebuilt.packs[id], whole.packs[id]) = (pack, pack)
                default: copied += 1
                }
            }
            if round % 3 == 0 { (rebuilt.packs["zz-new"], whole.packs["zz-new"]) = (earlier.packs.values.first, earlier.packs.values.first) }
            // A new pack just after a kept one, before the next: the copy of the two kept ones must
            // not run on across it.
            if round % 3 == 1, let after = earlier.packs.keys.sorted().first, earlier.packs["\(after)0"] == nil {
                (rebuilt.packs["\(after)0"], whole.packs["\(after)0"]) = (earlier.packs[after], earlier.packs[after])
            }
            guard let written = whole.plainJSON() else { continue }
            #expect(rebuilt.plainJSON(keeping: skim, replacing: replacing) == written, "round \(round)")
            // Written in pieces: each run of kept entries one piece, between the pieces written anew.
            let pieces = try #require(rebuilt.plainJSONPieces(keeping: skim, replacing: replacing))
            #expect(pieces.count <= 2 * (rebuilt.packs.count + replacing.count) + 3, "round \(round): \(pieces.count) pieces")
        }
        #expect(copied > 300 && skimmed > 100)
    }

    /// Three packs, written again with one rebuilt or one added: kept entries side by side are one
    /// piece, a slice of the earlier bytes, and never run across an entry written between them.
    @Test func keptEntriesSideBySideAreOnePiece() throws {
        let version = StoreIndex.Version(digest: "d", manifest: "m", manifestSha256: "s", publishedAt: "p", yanked: false, yankReason: nil)
        let pack = StoreIndex.Pack(latest: "1.0.0", versions: ["1.0.0": version])
        let earlier = StoreIndex(packs: ["a": pack, "b": pack, "c": pack])
        let data = try #require(earlier.plainJSON())
        let skim = try #require(StoreIndex.skim(data))
        func text(_ piece: Data) -> String { String(decoding: piece, as: UTF8.self) }
        // b rebuilt: a alone, b written, c alone.
        var yanked = pack
        yanked.versions["1.0.0"]?.yanked = true
        var whole = earlier
        whole.packs["b"] = yanked
        let rebuilt = try #require(StoreIndex(packs: ["b": yanked]).plainJSONPieces(keeping: skim, replacing: ["b"]))
        #expect(rebuilt.count == 5 && rebuilt.joinedBytes == whole.plainJSON())
        #expect(text(rebuilt[1]).hasPrefix("    \"a\" : {") && text(rebuilt[1]).hasSuffix("}") && !text(rebuilt[1]).contains("\"b\""))
        #expect(text(rebuilt[3]).hasPrefix("    \"c\" : {"))
        // a0 added between a and b: a alone, a0 written, then b and c together.
        whole = earlier
        whole.packs["a0"] = pack
        let added = try #require(StoreIndex(packs: ["a0": pack]).plainJSONPieces(keeping: skim, replacing: []))
        #expect(added.count == 5 && added.joinedBytes == whole.plainJSON())
        #expect(text(added[2]).contains("\"a0\"") && text(added[3]).hasPrefix("    \"b\" : {") && text(added[3]).contains("\"c\" : {"))
        // Nothing changed: one run of all three between the header and the end.
        let kept = try #require(StoreIndex(packs: [:]).plainJSONPieces(keeping: skim, replacing: []))
        #expect(kept.count == 3 && kept.joinedBytes == data)
    }

    static let ownLayout = """
        {
          "packs" : {
            "a" : {
              "latest" : "1.0.0",
              "versions" : {
                "1.0.0" : {
                  "digest" : "d",
                  "manifest" : "a/1.0.0/manifest.json",
                  "manifestSha256" : "m",
                  "publishedAt" : "2026-12-05T19:36:40.123Z",
                  "yanked" : false
                }
              }
            }
          },
          "schemaVersion" : 1
        }

        """

    /// Any layout but the writer's own is still read (as JSONDecoder reads it), and not skimmed.
    @Test func onlyTheWritersOwnLayoutIsSkimmed() throws {
        let text = Self.ownLayout
        let own = try #require(StoreIndex(plainJSON: Data(text.utf8)))
        #expect(own.plainJSON() == Data(text.utf8))
        let skim = try #require(StoreIndex.skim(Data(text.utf8)))
        let range = try #require(skim.entries["a"]?.bytes)
        #expect(String(decoding: Data(text.utf8)[range], as: UTF8.self).hasPrefix("{\n      \"latest\""))
        #expect(skim.pack("a") == own.packs["a"] && skim.pack("b") == nil)
        let others = [
            text.replacingOccurrences(of: "\"latest\" : \"1.0.0\"", with: "\"latest\" : null"),
            text.replacingOccurrences(of: "\"yanked\" : false", with: "\"yankReason\" : null,\n          \"yanked\" : false"),
            text.replacingOccurrences(of: "\"manifestSha256\" : \"m\",\n          \"publishedAt\" : \"2026-12-05T19:36:40.123Z\"",
                                      with: "\"publishedAt\" : \"2026-12-05T19:36:40.123Z\",\n          \"manifestSha256\" : \"m\""),
            text.replacingOccurrences(of: "\n    \"a\"", with: "\n\t\"a\""),
            text.replacingOccurrences(of: "\"digest\" : ", with: "\"digest\"  : "),
            text.replacingOccurrences(of: "\"digest\" : ", with: "\"digest\":"),
            text.replacingOccurrences(of: "false\n", with: "false \n"),
            text.replacingOccurrences(of: "\n", with: "\r\n"),
            text + "\n",
            " " + text,
            String(text.dropLast()),
            text.filter { $0 != " " && $0 != "\n" },
        ]
        for other in others {
            let data = Data(other.utf8)
            #expect(StoreIndex.skim(data) == nil, "\(other)")
            #expect(StoreIndex(plainJSON: data) == Self.foundationIndex(data), "\(other)")
        }
    }

    /// What `decodeIndex` refuses, in the writer's own layout, is not skimmed either: an id or a
    /// version that is not one, a repeated key, another schema version, a missing member.
    @Test func whatDecodeIndexRefusesIsNotSkimmed() throws {
        let text = Self.ownLayout
        let start = try #require(text.range(of: "        \"1.0.0\" : {")).lowerBound
        let version = String(text[start..<(try #require(text.range(of: "false\n        }")).upperBound)])
        let refused = [
            text.replacingOccurrences(of: "\"a\" : {", with: "\"A\" : {"),
            text.replacingOccurrences(of: "\"1.0.0\" : {", with: "\"1.0\" : {"),
            text.replacingOccurrences(of: "\"latest\" : \"1.0.0\"", with: "\"latest\" : \"1.0.0.0\""),
            text.replacingOccurrences(of: "\"schemaVersion\" : 1", with: "\"schemaVersion\" : 2"),
            text.replacingOccurrences(of: "          \"digest\" : \"d\",\n", with: ""),
            text.replacingOccurrences(of: "          \"yanked\" : false", with: "          \"yanked\" : 0"),
            text.replacingOccurrences(of: version + "\n", with: version + ",\n" + version + "\n"),
            text.replacingOccurrences(of: "\"manifest\" : \"a/1.0.0/manifest.json\",", with: "\"manifest\" : \"a/1.0.0/manifest.json\",\n          \"manifest\" : \"b\","),
        ]
        for other in refused {
            let data = Data(other.utf8)
            #expect(other != text)
            #expect(StoreIndex.skim(data) == nil, "\(other)")
            #expect(throws: ManifestDecodingError.self, "\(other)") { try ManifestRefresher.decodeIndex(data) }
        }
    }

    /// Bytes changed one at a time in an index of the writer's layout: whenever they are still
    /// skimmed, `decodeIndex` reads them, into the entries the skim counts and builds.
    @Test func aSkimAgreesWithTheWholeReadingOnChangedBytes() throws {
        var random = SplitMix64(seed: 77)
        var skimmed = 0
        for round in 0..<800 {
            let index = Self.randomIndex(&random, plain: true)
            guard var bytes = index.plainJSON().map(Array.init) else { continue }
            let at = Int.random(in: 0..<bytes.count, using: &random)
            // ASCII that JSON or the layout gives a meaning to, and bytes of UTF-8 that may or may not form a character.
            bytes[at] = (Array("0123456789.-+\"\\ {}\n:,az\u{7F}".utf8) + [0xC3, 0xA9, 0xE8, 0xFF]).randomElement(using: &random)!
            let data = Data(bytes)
            guard let skim = StoreIndex.skim(data) else { continue }
            skimmed += 1
            let whole = try ManifestRefresher.decodeIndex(data)
            #expect(skim.index == whole, "round \(round)")
            for (id, pack) in whole.packs {
                #expect(skim.entries[id]?.versions == pack.versions.count && skim.entries[id]?.yanked == pack.versions.values.filter(\.yanked).count)
            }
            #expect(StoreIndex(packs: [:]).plainJSON(keeping: skim, replacing: []) == data)
        }
        #expect(skimmed > 40)
    }

    /// Plain version texts are read byte by byte, as the reading in full reads them.
    @Test func plainVersionsAreReadAsBefore() {
        var random = SplitMix64(seed: 3)
        let alphabet = Array("0123456789.-+a".utf8)
        for round in 0..<20_000 {
            let length = Int.random(in: 0...14, using: &random)
            var text = String(decoding: (0..<length).map { _ in alphabet[Int.random(in: 0..<(round % 2 == 0 ? 11 : alphabet.count), using: &random)] }, as: UTF8.self)
            if round % 7 == 0 { text = "\(Int.random(in: 0...1_999_999_999, using: &random)).0.\(Int.random(in: 0...99, using: &random))" }
            #expect(SemanticVersion(text) == SemanticVersion.readInFull(text), "\(text)")
        }
    }
}

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

    /// An index written by the writer says where each pack's entry is; writing another index with
    /// the unchanged entries copied from those bytes gives exactly what writing it whole gives.
    @Test func unchangedEntriesAreCopiedAsTheWriterWritesThem() throws {
        var random = SplitMix64(seed: 4_647)
        var copied = 0
        for round in 0..<300 {
            let earlier = Self.randomIndex(&random, plain: true)
            let data = try #require(earlier.plainJSON())
            let read = try #require(StoreIndex.plainLayout(of: data))
            let places = try #require(read.packBytes, "round \(round): the writer's own bytes give places")
            #expect(read.index == earlier && Set(places.keys) == Set(earlier.packs.keys))
            var later = earlier
            for id in earlier.packs.keys.sorted() {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: later.packs[id] = nil
                case 1:
                    let first = earlier.packs[id]!.versions.keys.sorted()[0]
                    later.packs[id]?.versions[first]?.yanked.toggle()
                default: copied += 1
                }
            }
            if round % 3 == 0 { later.packs["zz-new-\(round)"] = earlier.packs.values.first }
            guard let whole = later.plainJSON() else { continue }
            #expect(later.plainJSON(reusing: (data, read.index, places)) == whole, "round \(round)")
        }
        #expect(copied > 300)
    }

    /// Any layout but the writer's own is still read, and gives no places to copy from.
    @Test func onlyTheWritersOwnLayoutGivesPlaces() throws {
        let text = """
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
        let own = try #require(StoreIndex.plainLayout(of: Data(text.utf8)))
        #expect(own.index.plainJSON() == Data(text.utf8))
        let range = try #require(own.packBytes?["a"])
        #expect(String(decoding: Data(text.utf8)[range], as: UTF8.self).hasPrefix("{\n      \"latest\""))
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
            let read = try #require(StoreIndex.plainLayout(of: data), "\(other)")
            #expect(read.packBytes == nil, "\(other)")
            #expect(read.index == Self.foundationIndex(data), "\(other)")
        }
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

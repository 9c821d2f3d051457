// pack.json parsing: the demo shape parses, and each kind of mistake names its field.

import Foundation
import Testing
@testable import SoundpackCore

@Suite struct PackFileTests {
    static let valid = """
        {"id":"wechat","version":"1.0.0","grammar":"zh-Hans","grammarOptions":{"two":"liang"},"maxAmount":"99999999.99",
         "clips":{"prefix":"clips/prefix.caf","十":"clips/shi.caf"},"texts":{"prefix":"微信到账"},"checks":{"maxLeadingSilenceMs":60}}
        """

    @Test func parsesTheDocumentedShape() throws {
        let manifest = try PackFile(json: Data(Self.valid.utf8))
        #expect(manifest.id == "wechat")
        #expect(manifest.grammar == Grammar(.zhHans, two: .liang))
        #expect(manifest.maxAmount == Amount(minorUnits: 9_999_999_999))
        #expect(manifest.clips["十"] == "clips/shi.caf")
        #expect(manifest.checks.maxLeadingSilenceMs == 60)
        #expect(manifest.checks.maxTrailingSilenceMs == 80)
        #expect(manifest.profile == .iosNotification)
    }

    /// What soundpack writes (init, convert) reads back as the same pack: one Encodable type.
    @Test func whatIsWrittenReadsBackTheSame() throws {
        var file = try PackFile(json: Data(Self.valid.utf8))
        file.schema = "../../schemas/pack.schema.json"
        file.checks.ignore = ["audio.dc-offset"]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data = try encoder.encode(file)
        #expect(try PackFile(json: data) == file)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        // Only the checks that differ from their defaults are written; the options and profile are explicit.
        #expect((object["checks"] as? [String: Any]).map { Set($0.keys) } == ["maxLeadingSilenceMs", "ignore"])
        #expect((object["grammarOptions"] as? [String: String]) == ["two": "liang"])
        #expect(object["profile"] as? String == "ios-notification" && object["$schema"] as? String == "../../schemas/pack.schema.json")
    }

    /// A pack that departs from a default says why beside it (`checks.reasons`), and what soundpack
    /// writes keeps the reason, even for a threshold set to its default value.
    @Test func reasonsForChecksReadAndWriteBack() throws {
        let json = #"""
            {"id":"a","version":"1.0.0","grammar":"zh-Hans","maxAmount":"1","clips":{},
             "checks":{"bannerCutSeconds":10,"maxTrailingSilenceMs":80,"ignore":["audio.dc-offset"],
                       "reasons":{"bannerCutSeconds":"users choose Persistent banners","maxTrailingSilenceMs":"the default, on purpose",
                                  "audio.dc-offset":"recorded through an old interface"}}}
            """#
        let file = try PackFile(json: Data(json.utf8))
        #expect(file.checks.bannerCutSeconds == 10)
        #expect(file.checks.reasons == ["bannerCutSeconds": "users choose Persistent banners", "maxTrailingSilenceMs": "the default, on purpose",
                                        "audio.dc-offset": "recorded through an old interface"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(file)
        #expect(try PackFile(json: data) == file)
        let checks = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["checks"] as? [String: Any])
        #expect(Set(checks.keys) == ["bannerCutSeconds", "maxTrailingSilenceMs", "ignore", "reasons"])
    }

    @Test(arguments: [
        (#"{"bannerCutSeconds":10,"reasons":"Persistent banners"}"#, "checks.reasons"),
        (#"{"reasons":{"bannerCutSeconds":"Persistent banners"}}"#, "checks.reasons.bannerCutSeconds"),
        (#"{"bannerCutSeconds":10,"reasons":{"bannerCutSecond":"Persistent banners"}}"#, "checks.reasons.bannerCutSecond"),
        (#"{"ignore":["audio.dc-offset"],"reasons":{"audio.clipping":"old interface"}}"#, "checks.reasons.audio.clipping"),
        (#"{"bannerCutSeconds":10,"reasons":{"bannerCutSeconds":""}}"#, "checks.reasons.bannerCutSeconds"),
        (#"{"bannerCutSeconds":10,"reasons":{"bannerCutSeconds":10}}"#, "checks.reasons.bannerCutSeconds"),
        (#"{"bannerCutSeconds":10,"reasons":{"bannerCutSeconds":"line\nbreak"}}"#, "checks.reasons.bannerCutSeconds"),
        ("{\"bannerCutSeconds\":10,\"reasons\":{\"bannerCutSeconds\":\"\(String(repeating: "x", count: 501))\"}}", "checks.reasons.bannerCutSeconds"),
    ])
    func aReasonNamesACheckThePackSets(_ checks: String, _ field: String) {
        let json = #"{"id":"a","version":"1.0.0","grammar":"zh-Hans","maxAmount":"1","clips":{},"checks":"# + checks + "}"
        do {
            _ = try PackFile(json: Data(json.utf8))
            Issue.record("accepted \(checks)")
        } catch {
            #expect(error.field == field, "\(error)")
        }
    }

    @Test(arguments: [
        ("not json", nil as String?),
        ("[]", nil),
        (#"{"version":"1.0.0","grammar":"zh-Hans","maxAmount":"1","clips":{}}"#, "id"),
        (#"{"id":"We Chat","version":"1.0.0","grammar":"zh-Hans","maxAmount":"1","clips":{}}"#, "id"),
        (#"{"id":"a","version":"1.0","grammar":"zh-Hans","maxAmount":"1","clips":{}}"#, "version"),
        (#"{"id":"a","version":"1.0.0","grammar":"en","maxAmount":"1","clips":{}}"#, "grammar"),
        (#"{"id":"a","version":"1.0.0","grammar":"zh-Hans","maxAmount":99.5,"clips":{}}"#, "maxAmount"),
        (#"{"id":"a","version":"1.0.0","grammar":"zh-Hans","maxAmount":"1e9","clips":{}}"#, "maxAmount"),
        (#"{"id":"a","version":"1.0.0","grammar":"zh-Hans","maxAmount":"1"}"#, "clips"),
        (#"{"id":"a","version":"1.0.0","grammar":"zh-Hans","maxAmount":"1","clips":{"1":5}}"#, "clips.1"),
        (#"{"id":"a","version":"1.0.0","grammar":"zh-Hans","maxAmount":"1","clips":{},"chekcs":{}}"#, "chekcs"),
        (#"{"id":"a","version":"1.0.0","grammar":"zh-Hans","maxAmount":"1","clips":{},"checks":{"maxLeadingSilence":1}}"#, "checks.maxLeadingSilence"),
        (#"{"id":"a","version":"1.0.0","grammar":"zh-Hans","maxAmount":"1","clips":{},"checks":{"maxClipSeconds":-1}}"#, "checks.maxClipSeconds"),
        (#"{"id":"a","version":"1.0.0","grammar":"zh-Hans","maxAmount":"1","clips":{},"grammarOptions":{"two":"san"}}"#, "grammarOptions.two"),
        (#"{"id":"a","version":"1.0.0","grammar":"zh-Hans","maxAmount":"1","clips":{},"profile":"android"}"#, "profile"),
    ])
    func namesTheFieldAtFault(_ json: String, _ field: String?) {
        do {
            _ = try PackFile(json: Data(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.field == field, "\(error)")
            #expect(!error.message.isEmpty)
        }
    }

    /// Strict JSON, as every other tool reads it: Foundation's parser takes a trailing comma and
    /// bridges `true` to the number 1; soundpack takes neither.
    @Test func onlyStrictJSONIsRead() throws {
        let trailing = "{\"id\":\"a\",\"version\":\"1.0.0\",\n \"grammar\":\"zh-Hans\",\"maxAmount\":\"1\",\"clips\":{\"0\":\"clips/0.caf\",},\n}"
        #expect(throws: PackFileError(field: nil, message: "a trailing comma at line 2, column 64; JSON allows none: remove it", line: 2, column: 64)) {
            try PackFile(json: Data(trailing.utf8))
        }
        #expect(JSONDuplicateKeys.first(in: Data("[1, 2 ,\n ]".utf8)) == .trailingComma(line: 1, column: 7))
        #expect(JSONDuplicateKeys.first(in: Data(#"{"a":[1,2],"b":{"c":1}}"#.utf8)) == nil)
        #expect(JSONDuplicateKeys.first(in: Data(#"{"a":"x,}"}"#.utf8)) == nil, "a comma inside a string is text")
        #expect(throws: ManifestDecodingError.self) { try ManifestRefresher.decodeIndex(Data(#"{"packs":{},"schemaVersion":1,}"#.utf8)) }
        let boolean = #"{"id":"a","version":"1.0.0","grammar":"zh-Hans","maxAmount":"1","clips":{},"checks":{"clippingRunSamples":true}}"#
        do {
            _ = try PackFile(json: Data(boolean.utf8))
            Issue.record("true read as a number")
        } catch { #expect(error.field == "checks.clippingRunSamples") }
        let one = #"{"id":"a","version":"1.0.0","grammar":"zh-Hans","maxAmount":"1","clips":{},"checks":{"clippingRunSamples":1}}"#
        #expect(try PackFile(json: Data(one.utf8)).checks.clippingRunSamples == 1)
    }

    @Test func semanticVersionsOrderBySemver() throws {
        let ordered = ["0.9.0", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0", "1.0.1", "1.10.0", "2.0.0"]
        let versions = ordered.compactMap(SemanticVersion.init)
        #expect(versions.count == ordered.count)
        #expect(versions == versions.sorted())
        #expect(versions.map(\.description) == ordered)
        for bad in ["1", "1.0", "01.0.0", "1.0.0-", "1.0.0-01", "v1.0.0", "1.0.0+", ""] {
            #expect(SemanticVersion(bad) == nil, "accepted \(bad)")
        }
    }

    @Test(arguments: [("wechat", true), ("a", true), ("0pay-2", true), ("-x", false), ("WeChat", false), ("", false), (String(repeating: "a", count: 64), false)])
    func packIDs(_ id: String, _ valid: Bool) {
        #expect(PackFile.isValidID(id) == valid)
    }
}

/// The second hostile-input round's Core classes: version precedence at any length, the strict-JSON
/// scan's positions on long lines, what XML cannot carry, and paths told apart by their bytes.
@Suite struct HostileInputCoreTests {
    @Test func numericPreReleaseIdentifiersCompareAsNumbersAtAnyLength() throws {
        let order = ["1.0.0-rc.9", "1.0.0-rc.10", "1.0.0-rc.9223372036854775807", "1.0.0-rc.9223372036854775808",
                     "1.0.0-rc.99999999999999999999999999", "1.0.0-rc.a", "1.0.0"]
        let versions = try order.map { try #require(SemanticVersion($0)) }
        for (a, b) in zip(versions, versions.dropFirst()) {
            #expect(a < b && !(b < a), "\(a) < \(b)")
        }
        #expect(try #require(SemanticVersion("1.0.0-rc.1")).isPrerelease(ofSameCoreAs: try #require(SemanticVersion("1.0.0"))))
        #expect(!(try #require(SemanticVersion("1.0.0")).isPrerelease(ofSameCoreAs: try #require(SemanticVersion("1.0.1")))))
    }

    /// Columns are counted on from the last position asked about: right after multibyte text, on
    /// a line of 100,000 keys, and after a string that spans lines.
    @Test func strictJSONPositionsStayRightOnLongLines() {
        var line = "{"
        for index in 0..<100_000 { line += "\"k\(index)\":1," }
        line += "\"微\":1,\"last\":[1,]}"
        let column = line.utf16.count - 2  // the comma before "]}", 1-based
        #expect(JSONDuplicateKeys.first(in: Data(line.utf8)) == .trailingComma(line: 1, column: column))
        let text = "{\"a\":\"x\ny\",\n  \"微微\": 1, \"b\": 2}"
        let locations = JSONDuplicateKeys.locations(in: Data(text.utf8))
        #expect(locations["微微"] == JSONKeyLocation(line: 3, column: 3))
        #expect(locations["b"] == JSONKeyLocation(line: 3, column: 12))
        let emoji = "{\"😀\": 1, \"z\": 2}"
        #expect(JSONDuplicateKeys.locations(in: Data(emoji.utf8))["z"] == JSONKeyLocation(line: 1, column: 11))
    }

    /// The one pass that finds the first problem and every key's place finds what the two scans
    /// find apart: a problem first, a problem after a later key, two problems, one nested deep.
    @Test(arguments: [
        "{\"a\": 1, \"a\": 2, \"b\": [1,]}", "{\"a\": [1,], \"a\": 2}", "{\"x\": {\"y\": 1, \"y\": 2},\n \"z\": 3}",
        "{\"a\": {\"b\": {\"c\": {\"d\": {\"e\": {\"f\": {\"g\": 1, \"g\": 2}}}}}}, \"h\": 1}",
        "{\"clips\": {\"十\": \"shi.caf\"},\n\"clips\": {}}", "{\"a\": 1}", "[1, 2 ,\n ]", "{\"a\": \"x", "}{\"a\":1}",
    ])
    func strictJSONProblemAndLocationsInOnePass(_ text: String) {
        let bytes = Data(text.utf8)
        let together = JSONDuplicateKeys.firstAndLocations(in: bytes)
        #expect(together.problem == JSONDuplicateKeys.first(in: bytes))
        #expect(together.locations == JSONDuplicateKeys.locations(in: bytes))
    }

    /// Key locations by their dotted paths, written out: nested objects, an object in an array
    /// (`[]`), an empty key; a path longer than `locatedPathBytes` is not located, nor anything under it.
    @Test func keyLocationsNameNestedPaths() {
        let text = "{\"clips\": {\"十\": \"a\", \"\": \"b\"},\n \"x\": [{\"y\": 1}], \"grammarOptions\": {\"two\": true}}"
        let locations = JSONDuplicateKeys.locations(in: Data(text.utf8))
        #expect(locations == [
            "clips": JSONKeyLocation(line: 1, column: 2), "clips.十": JSONKeyLocation(line: 1, column: 12), "clips.": JSONKeyLocation(line: 1, column: 22),
            "x": JSONKeyLocation(line: 2, column: 2), "x.[].y": JSONKeyLocation(line: 2, column: 9),
            "grammarOptions": JSONKeyLocation(line: 2, column: 19), "grammarOptions.two": JSONKeyLocation(line: 2, column: 38),
        ])
        let long = String(repeating: "n", count: JSONDuplicateKeys.locatedPathBytes)
        let longText = "{\"\(long)\": {\"k\": [{\"j\": 1}]}, \"short\": {\"k\": 2}, \"\(long.dropLast())\": 3}"
        #expect(Set(JSONDuplicateKeys.locations(in: Data(longText.utf8)).keys) == ["short", "short.k", String(long.dropLast())])
    }

    /// pack.json read with its key locations gives the verdict `init(json:)` gives, and hands the
    /// locations back when it refuses the text too.
    @Test func packFileKeyLocationsComeWithTheVerdict() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let good = try Data(contentsOf: root.appendingPathComponent("packs/wechat/pack.json"))
        var located: [String: JSONKeyLocation] = [:]
        let pack = try PackFile(json: good, keyLocations: &located)
        #expect(pack == (try PackFile(json: good)))
        #expect(located == JSONDuplicateKeys.locations(in: good) && located["clips"] != nil)
        let repeated = Data("{\n  \"id\": \"wechat\",\n  \"id\": \"evil\"\n}".utf8)
        located = [:]
        var refused: PackFileError?, alone: PackFileError?
        do { _ = try PackFile(json: repeated, keyLocations: &located) } catch { refused = error }
        do { _ = try PackFile(json: repeated) } catch { alone = error }
        #expect(refused != nil && refused == alone, "\(String(describing: refused))")
        #expect(located["id"] == JSONKeyLocation(line: 2, column: 3))
    }

    @Test func xmlForbiddenCharactersAreFound() {
        #expect("微信到账 \t\n".xmlForbiddenScalar == nil)
        #expect("a\u{FFFE}".xmlForbiddenScalar == "\u{FFFE}")
        #expect("a\u{FFFF}".xmlForbiddenScalar == "\u{FFFF}")
        #expect("a\u{01}".xmlForbiddenScalar == "\u{01}")
        #expect("😀\u{10FFFF}".xmlForbiddenScalar == nil)
        #expect(SharedManifest.keyProblem("soundpack") != nil && SharedManifest.keyProblem("") != nil)
        #expect(SharedManifest.keyProblem("kMainAppMp3FileKey") == nil)
        #expect(throws: SharedManifest.EncodingError.self) {
            try SharedManifest(key: "k", bundledFiles: ["a\u{FFFF}.caf"], packs: [:]).encoded(as: .plist)
        }
    }

    @Test func pathKeysTellNormalizationsApart() {
        let composed = "clips/\u{E9}.caf", decomposed = "clips/e\u{301}.caf"
        #expect(composed == decomposed, "Swift compares by canonical equivalence")
        #expect(composed.pathKey != decomposed.pathKey)
        #expect(Set([composed.pathKey, decomposed.pathKey]).count == 2)
    }

    @Test func everyJSONReaderHasACap() {
        let big = Data(repeating: UInt8(ascii: " "), count: StoreLimits.indexBytes + 1)
        #expect(throws: ManifestDecodingError.self) { try ManifestRefresher.decodeIndex(big) }
        #expect(throws: ManifestDecodingError.self) { try ManifestRefresher.decodeManifest(Data(count: StoreLimits.manifestBytes + 1)) }
        #expect(throws: PlanError.self) { try SharedManifest(data: Data(count: StoreLimits.sharedManifestBytes + 1)) }
        #expect(throws: PackFileError.self) { try PackFile(json: Data(count: PackFile.maxBytes + 1)) }
    }
}

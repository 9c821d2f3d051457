// An app built before a grammar existed announces a pack in that grammar: the store's manifest of
// the new grammar cannot be read by the app's SoundpackCore (the refresh fails and is reported),
// and the manifest the app shipped reads the amount from its reading table (DESIGN §3b).

import Foundation
import Testing
import SoundpackCore
import SoundpackTestSupport
@testable import NotificationServiceExample

@Suite struct TableReadingPhoneTests {
    /// Renames the grammar of `pack` in the exported manifest (and its table) and in every store
    /// manifest of the pack: to this app, a grammar some later soundpack added.
    static func renameGrammar(on phone: Phone, to name: String) throws {
        let shipped = phone.appBundle.appendingPathComponent("SoundpackManifest.plist")
        var document = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: shipped), format: nil) as? [String: Any])
        var root = try #require(document["soundpack"] as? [String: Any])
        var packs = try #require(root["packs"] as? [String: Any])
        var pack = try #require(packs["wechat"] as? [String: Any])
        var reading = try #require(pack["reading"] as? [String: Any])
        (pack["grammar"], reading["grammar"]) = (name, name)
        pack["reading"] = reading
        packs["wechat"] = pack
        root["packs"] = packs
        document["soundpack"] = root
        try PropertyListSerialization.data(fromPropertyList: document, format: .xml, options: 0).write(to: shipped)
        let published = URL(fileURLWithPath: phone.project.file("dist/wechat/1.0.0/manifest.json"))
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: published)) as? [String: Any])
        manifest["grammar"] = name
        let data = try JSONSerialization.data(withJSONObject: manifest)
        try data.write(to: published)
        // index.json lists the manifest's SHA-256: the phone fetches the renamed manifest and cannot read it.
        let indexFile = URL(fileURLWithPath: phone.project.file("dist/index.json"))
        let index = try String(contentsOf: indexFile, encoding: .utf8)
        let entry = try #require(ManifestRefresher.decodeIndex(Data(index.utf8)).packs["wechat"]?.versions["1.0.0"])
        try index.replacingOccurrences(of: entry.manifestSha256, with: PortableSHA256().sha256Hex(data)).write(to: indexFile, atomically: true, encoding: .utf8)
    }

    @Test func aPackOfAGrammarTheAppDoesNotKnowIsAnnouncedFromItsTable() async throws {
        let phone = try Phone.make()
        defer { phone.tearDown() }
        // What the tool says, read while the grammar is still known everywhere.
        let expected = try phone.clipsEndToEnd("1234.56")
        let request = try phone.request("1234.56")
        try Self.renameGrammar(on: phone, to: "yue-Hant")
        let shipped = try SharedManifest(data: Data(contentsOf: phone.appBundle.appendingPathComponent("SoundpackManifest.plist")))
        #expect(shipped.packs["wechat"]?.grammar.isReadFromTable == true)
        try phone.install()
        let (shown, calls) = await phone.push(request)
        #expect(calls.count == 1)
        let name = try #require(shown.soundName, "delivered with \(shown.sound == nil ? "no" : "the default") sound: \(phone.reports)")
        #expect(name == "soundpack-wechat-1.0.0-1234.56.caf")
        #expect(try phone.played(name) == expected)
        // The store's manifest was fetched, and this SoundpackCore cannot read its grammar.
        #expect(phone.server.requests.contains("/wechat/1.0.0/manifest.json"), "\(phone.server.requests)")
        #expect(throws: ManifestDecodingError.self) {
            try ManifestRefresher.decodeManifest(Data(contentsOf: URL(fileURLWithPath: phone.project.file("dist/wechat/1.0.0/manifest.json"))))
        }
    }
}

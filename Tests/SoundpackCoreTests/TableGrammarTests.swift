// A phone whose SoundpackCore does not know a pack's grammar (or one of its options) reads amounts
// from the reading table the export carries (DESIGN §3b), and plans exactly what the grammar's own
// code plans. The grammars here are renamed in the exported manifest, so the phone cannot use the
// code it has: the table alone reads.

import Foundation
import Testing
@testable import SoundpackCore

@Suite struct TableGrammarTests {
    static let maxima = ["0.99", "9.99", "1234.56", "99999999.99", "999999999999.99"].map { try! Amount(parsing: $0) }

    /// The grammar read from its table is the grammar: the same reading of edge and random amounts
    /// (the table's walk, as `ReadingTableTests` proves for the bare table), and the same answers
    /// from the framework's searches, which run over the table's states as over the grammar's.
    @Test(arguments: ReadingTableTests.grammars)
    func aGrammarReadFromItsTableIsTheGrammar(_ grammar: Grammar) throws {
        let fromTable = try Grammar(table: grammar.readingTable)
        #expect(fromTable.isReadFromTable && !grammar.isReadFromTable)
        #expect(fromTable.inventory.map(\.rawValue) == grammar.inventory.map(\.rawValue))
        #expect(fromTable.readingTable == grammar.readingTable)
        var failures: [String] = []
        for minor in ReadingTableTests.edgeAmounts + ReadingTableTests.randomAmounts(1_500, seed: 11) {
            let amount = Amount(minorUnits: minor)
            let expected = grammar.tokens(for: amount).map(\.rawValue), read = fromTable.tokens(for: amount).map(\.rawValue)
            if read != expected && failures.count < 5 { failures.append("\(amount): table \(read), grammar \(expected)") }
        }
        #expect(failures.isEmpty, "\(grammar.summary): \(failures)")
        // Costs by key, so that both sides weigh the same word alike.
        let cost: (Token) -> Int64 = { Int64($0.rawValue.unicodeScalars.reduce(UInt32(3)) { $0 &* 31 &+ $1.value } % 997) }
        for maximum in Self.maxima {
            #expect(Set(fromTable.reachableTokens(upTo: maximum).map(\.rawValue)) == Set(grammar.reachableTokens(upTo: maximum).map(\.rawValue)), "\(maximum)")
            #expect(fromTable.costliestReading(upTo: maximum, cost: cost).cost == grammar.costliestReading(upTo: maximum, cost: cost).cost, "\(maximum)")
            for token in grammar.inventory.dropFirst(Token.firstGrammarOrdinal) {
                let own = try #require(fromTable.token(forKey: token.rawValue))
                #expect(fromTable.smallestAmount(saying: own, upTo: maximum) == grammar.smallestAmount(saying: token, upTo: maximum), "\(token) ≤ \(maximum)")
            }
        }
    }

    @Test func aTableThatLeavesAnAmountUnreadIsRefusedWithThatAmount() throws {
        var table = Grammar(.enIN).readingTable
        table.accepting.removeFirst()
        guard case .unreadAmount(let amount)? = Self.problem(table) else { Issue.record("not refused as incomplete: \(String(describing: Self.problem(table)))"); return }
        #expect(table.tokens(for: amount) == nil, "\(amount) is really unread")
        #expect(Grammar(.enIN).readingTable.tokens(for: amount) != nil)
    }

    @Test(arguments: ["", "prefix", "suffix", String(repeating: "十", count: 8), "ten\u{7}", "0"])
    func aTokenNoClipCanBeNamedByIsRefused(_ key: String) {
        var table = Grammar(.zhHans).readingTable
        table.tokens[1] = key  // "0" is already token 0: written twice
        #expect(Self.problem(table) == .badToken(key))
    }

    /// A table whose starts a phone would have to follow through millions of states is refused
    /// before it is walked: 3,000 starts, each digit folding them onto a different prefix of the
    /// states, so every position holds ten large sets (about 2.9 million states to follow in all).
    @Test func aTableTooCostlyToProveIsRefused() {
        let count = 3_000
        let row = { (state: Int) in (0...9).map { ReadingTable.Step(next: state % (count - 200 * $0), tokens: []) } }
        let layer = Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, row($0)) })
        let table = ReadingTable(grammar: "xx-Costly", options: [:], tokens: ["one"], starts: Array(0..<count), accepting: Array(0..<count),
                                 steps: Array(repeating: layer, count: ReadingDigits.count))
        #expect(Self.problem(table) == .tooComplex)
    }

    @Test func aTableWithNoStartIsRefused() {
        var table = Grammar(.zhHans).readingTable
        table.starts = []
        #expect(Self.problem(table) == .noStart)
    }

    @Test func aTableTokenHoldsItsKeyInline() throws {
        for key in ["十", "hundred", "साठ", "twenty-one", String(repeating: "a", count: 23), "两"] {
            let token = try #require(Token(tableKey: key, ordinal: 5))
            #expect(token.rawValue == key && token.ordinal == 5)
        }
        #expect(Token(tableKey: String(repeating: "é", count: 12), ordinal: 0) == nil, "24 bytes")
        #expect(Token(tableKey: "十", ordinal: 9) == Token("十", ordinal: 9))
        #expect(try #require(Token(tableKey: "十", ordinal: 9)).hashValue == Token("十", ordinal: 9).hashValue)
        #expect(Token(tableKey: "百", ordinal: 9) != Token("十", ordinal: 9))
    }

    static func problem(_ table: ReadingTable) -> ReadingTable.Problem? {
        do { try table.check(); return nil } catch { return error }
    }

    // MARK: - The phone

    /// An exported manifest of one pack in `grammar`, every token a clip, as `export` writes it.
    static func exported(_ grammar: Grammar, maxAmount: String = "99999999.99") throws -> [String: Any] {
        var clips: [Token: SharedPack.Clip] = [:]
        for token in grammar.inventory where token != .suffix {
            let file = "\(grammar.fileStem(of: token)).caf"
            clips[token] = SharedPack.Clip(file: file, bytes: 10, sha256: String(repeating: "0", count: 64), durationSeconds: 0.3, url: URL(string: "https://cdn.example.com/\(file)"))
        }
        let pack = SharedPack(id: "pay", version: "1.0.0", grammar: grammar, maxAmount: try Amount(parsing: maxAmount), texts: ["prefix": "Paid"], yanked: false, clips: clips)
        let data = try SharedManifest(bundledFiles: [], packs: ["pay": pack]).encoded(as: .json)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func edit(_ document: [String: Any], _ change: (inout [String: Any]) -> Void) throws -> Data {
        var document = document
        var root = try #require(document["soundpack"] as? [String: Any])
        var packs = try #require(root["packs"] as? [String: Any])
        var pack = try #require(packs["pay"] as? [String: Any])
        change(&pack)
        packs["pay"] = pack
        root["packs"] = packs
        document["soundpack"] = root
        return try JSONSerialization.data(withJSONObject: document)
    }

    static func renamed(_ pack: inout [String: Any], to name: String) {
        pack["grammar"] = name
        var reading = pack["reading"] as! [String: Any]
        reading["grammar"] = name
        pack["reading"] = reading
    }

    /// A grammar renamed to one no SoundpackCore knows: the phone plans from the table, and plans
    /// what it planned from the grammar's code, in JSON and as a property list.
    @Test(arguments: ReadingTableTests.grammars)
    func aPhoneThatDoesNotKnowTheGrammarPlansFromTheTable(_ grammar: Grammar) throws {
        let document = try Self.exported(grammar)
        let known = try ClipPlanner(manifest: SharedManifest(data: JSONSerialization.data(withJSONObject: document)), packID: "pay")
        let renamedJSON = try Self.edit(document) { Self.renamed(&$0, to: "xx-Future") }
        let plist = try PropertyListSerialization.data(fromPropertyList: JSONSerialization.jsonObject(with: renamedJSON), format: .xml, options: 0)
        for data in [renamedJSON, plist] {
            let manifest = try SharedManifest(data: data)
            let pack = try #require(manifest.packs["pay"])
            #expect(pack.grammar.isReadFromTable && pack.grammar.id.rawValue == "xx-Future" && !pack.grammar.id.isKnown)
            let planner = try ClipPlanner(manifest: manifest, packID: "pay")
            for minor in ReadingTableTests.edgeAmounts.filter({ $0 <= 9_999_999_999 }) + ReadingTableTests.randomAmounts(300, seed: 5).map({ $0 % 10_000_000_000 }) {
                let text = Amount(minorUnits: minor).description
                let expected = try known.plan(amount: text), planned = try planner.plan(amount: text)
                #expect(planned.clips.map(\.file) == expected.clips.map(\.file), "\(grammar.summary) \(text)")
            }
            // The pack written again carries the same table and name.
            let again = try SharedManifest(data: manifest.encoded(as: .json))
            #expect(again == manifest)
        }
    }

    /// A known grammar whose table names an option this code does not read is read from the table.
    @Test func anOptionThisCodeDoesNotKnowIsReadFromTheTable() throws {
        let document = try Self.exported(Grammar(.zhHans))
        let data = try Self.edit(document) { pack in
            var reading = pack["reading"] as! [String: Any]
            reading["options"] = ["two": "er", "pace": "slow"]
            pack["reading"] = reading
        }
        let pack = try #require(try SharedManifest(data: data).packs["pay"])
        #expect(pack.grammar.isReadFromTable && pack.grammar.id == .zhHans)
        #expect(pack.grammar.chosenOptions.map { "\($0.name)=\($0.value)" } == ["pace=slow", "two=er"])
        // A value of a known option this code does not read, with the table: the table reads.
        let newer = try Self.edit(document) { pack in
            pack["two"] = "liang-larger"
            var reading = pack["reading"] as! [String: Any]
            reading["options"] = ["two": "liang-larger"]
            pack["reading"] = reading
        }
        #expect(try SharedManifest(data: newer).packs["pay"]?.grammar.isReadFromTable == true)
    }

    @Test func aManifestTheTableCannotReadIsRefusedSayingWhy() throws {
        let document = try Self.exported(Grammar(.enUS))
        let cases: [(Data, String)] = [
            (try Self.edit(document) { $0["grammar"] = "xx-Future"; $0["reading"] = nil },
             "pack pay reads grammar 'xx-Future', which this SoundpackCore does not know, and carries no reading table; export it again with a current soundpack"),
            (try Self.edit(document) { $0["grammar"] = "xx-Future" },
             "pack pay reads grammar 'xx-Future' but its reading table is of 'en-US'"),
            (try Self.edit(document) { pack in
                Self.renamed(&pack, to: "xx-Future")
                var reading = pack["reading"] as! [String: Any]
                reading["accepting"] = [Int]()
                pack["reading"] = reading
            }, "pack pay: no start of the reading table reads 0 to an accepting state; it does not cover every amount"),
            (try Self.edit(document) { pack in
                Self.renamed(&pack, to: "xx-Future")
                var reading = pack["reading"] as! [String: Any]
                reading["format"] = 2
                pack["reading"] = reading
            }, "pack pay: reading table format 2 is not one this player reads (it reads 1)"),
        ]
        for (data, message) in cases {
            #expect(throws: PlanError.unreadableManifest(message)) { try SharedManifest(data: data) }
        }
        // zh-Hans with an option value this code does not read, and no table.
        let zh = try Self.exported(Grammar(.zhHans))
        let noTable = try Self.edit(zh) { $0["two"] = "liang-larger"; $0["reading"] = nil }
        #expect(throws: PlanError.unreadableManifest("pack pay reads the grammar options two=liang-larger, which this SoundpackCore does not know, and carries no reading table; export it again with a current soundpack")) {
            try SharedManifest(data: noTable)
        }
    }
}

@Suite struct SharedManifestSizeTests {
    /// An export the app would refuse to read is never written: the writer holds the reader's limit.
    @Test func aManifestAboveWhatTheAppReadsIsNotWritten() throws {
        let grammar = Grammar(.enIN)
        let clip = SharedPack.Clip(file: "x.caf", bytes: 1, sha256: String(repeating: "0", count: 64), durationSeconds: 0.1)
        func manifest(_ count: Int) -> SharedManifest {
            SharedManifest(bundledFiles: [], packs: Dictionary(uniqueKeysWithValues: (0..<count).map { n in
                ("pay-\(n)", SharedPack(id: "pay-\(n)", version: "1.0.0", grammar: grammar, maxAmount: Amount(minorUnits: 100), texts: [:], yanked: false, clips: [.prefix: clip]))
            }))
        }
        let one = try manifest(1).encoded(as: .plist)
        #expect(try SharedManifest(data: one).packs.count == 1)
        let many = StoreLimits.sharedManifestBytes / one.count + 1
        #expect(throws: SharedManifest.EncodingError.self) { try manifest(many).encoded(as: .plist) }
        #expect(throws: PlanError.self) { try SharedManifest(data: Data(count: StoreLimits.sharedManifestBytes + 1)) }
    }
}

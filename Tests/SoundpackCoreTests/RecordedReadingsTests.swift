// The default readings against outputs recorded by soundpack before the grammar framework
// (Golden/readings.tsv: 3,000 zero-heavy and random amounts, zh-Hans er and liang, zh-Hant
// liang), so moving zh onto the framework, or any later change to it, cannot change what
// today's packs say.

import Foundation
import Testing
@testable import SoundpackCore

@Suite struct RecordedReadingsTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/readings.tsv")

    @Test func defaultReadingsAreTheRecordedOnes() throws {
        let lines = try String(contentsOf: Self.file, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.count == 3_000)
        let grammars = [Grammar(.zhHans), Grammar(.zhHans, two: .liang), Grammar(.zhHant, two: .liang)]
        var mismatches: [String] = []
        for line in lines {
            let fields = line.split(separator: "\t").map(String.init)
            try #require(fields.count == 4, "\(line)")
            let amount = try Amount(parsing: fields[0])
            for (grammar, recorded) in zip(grammars, fields.dropFirst()) {
                let text = grammar.text(of: grammar.tokens(for: amount))
                if text != recorded, mismatches.count < 10 { mismatches.append("\(fields[0]) \(grammar.summary): \(text) ≠ \(recorded)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }
}

// A published version's row read column by column (`PublishedRow(row:)`, for the thousands of
// rows an index.json rewrite reads) against the Decodable reading every other row goes through:
// the same values, and for a damaged row the same problem.

import Foundation
@testable import SoundpackCatalog
import SoundpackCore
import Testing

@Suite struct PublishedRowTests {
    static let columns = ["id", "pack_id", "version", "digest", "published_at", "yanked", "yank_reason", "manifest_sha256", "tar_sha256", "zip_sha256", "key_id", "manifest_md5"]
    static let sound: [SQLValue] = [.integer(7), .text("wechat"), .text("1.2.3-rc.1"), .text("abc"), .text("2026-11-30T15:47:58.580Z"), .integer(1),
                                    .text("wrong 5"), .text("m"), .null, .text("z"), .null, .text("5")]

    static func row(_ values: [SQLValue]) -> SQLRow {
        SQLRow(names: Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) }), values: values)
    }

    /// The outcome as text: the row's values, or the problem.
    static func outcome(_ read: () throws(RowProblem) -> PublishedRow) -> String {
        do {
            let row = try read()
            return "\(row.id) \(row.packID) \(row.version) \(row.digest) \(row.publishedAt.timeIntervalSince1970) \(row.yanked) \(row.yankReason ?? "-") \(row.manifestSha256 ?? "-") \(row.tarSha256 ?? "-") \(row.zipSha256 ?? "-") \(row.keyID ?? "-") \(row.manifestMD5 ?? "-")"
        } catch {
            return "\(error)"
        }
    }

    @Test func everyColumnIsReadAsTheDecodableReadingReadsIt() {
        // The sound row, then each column in turn NULL, an integer, a real and odd text.
        var rows = [Self.sound]
        for column in Self.columns.indices {
            for value in [SQLValue.null, .integer(2), .real(0.5), .text("1.0"), .text("x")] {
                var values = Self.sound
                values[column] = value
                rows.append(values)
            }
        }
        for values in rows {
            let row = Self.row(values)
            let direct = Self.outcome { () throws(RowProblem) in try PublishedRow(row: row) }
            let decoded = Self.outcome { () throws(RowProblem) in try row.decode(PublishedRow.self) }
            #expect(direct == decoded, "\(values)")
        }
        #expect(Self.outcome { () throws(RowProblem) in try PublishedRow(row: Self.row(Self.sound)) }.hasPrefix("7 wechat 1.2.3-rc.1 abc"))
    }
}

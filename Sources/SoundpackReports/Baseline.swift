// A baseline: the findings of an earlier `validate --format json`, accepted for now, so a gate can
// be adopted on existing packs and fail only on what is new.

import Foundation
import SoundpackCore
import SoundpackSupport
import SoundpackValidation

package enum Baseline {
    /// Fingerprints (rule, token, file) of the baseline's findings, by pack id (or folder when the
    /// pack had no readable id).
    /// The most a baseline file may hold (a report of every finding of many packs is far smaller).
    package static let maxBytes = 64 << 20

    package static func load(_ data: Data) throws(SoundpackError) -> [String: Set<String>] {
        guard data.count <= maxBytes else { throw SoundpackError(.refused, "\(data.count) bytes, above the \(maxBytes >> 20) MiB a baseline may hold") }
        struct Document: Decodable {
            struct Pack: Decodable { var id: String?; var directory: String; var findings: [Finding] }
            var packs: [Pack]
        }
        if let duplicate = JSONDuplicateKeys.first(in: data) {
            throw SoundpackError(.refused, "not a usable baseline: \(duplicate.description)")
        }
        let document: Document
        do { document = try JSONDecoder().decode(Document.self, from: data) } catch {
            throw SoundpackError(.refused, "not a soundpack validate --format json report: \(Self.describe(error))")
        }
        var result: [String: Set<String>] = [:]
        for pack in document.packs { result[pack.id ?? pack.directory, default: []].formUnion(pack.findings.map(\.fingerprint)) }
        return result
    }
}

extension Baseline {
    /// What JSONDecoder found, in words a user can act on (its localizedDescription is "The data is missing.").
    static func describe(_ error: any Error) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            guard !keys.isEmpty else { return "the top level" }
            return "'" + keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined().drop { $0 == "." } + "'"
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?: return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?: return "\(path(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context)?: return context.codingPath.isEmpty ? "not JSON" : "\(path(context.codingPath)) is not readable"
        default: return "\(error)"
        }
    }
}


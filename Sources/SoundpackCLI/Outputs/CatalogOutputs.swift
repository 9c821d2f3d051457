// What the catalog commands (list, show, diff, yank, catalog) print: each result is Encodable (its JSON) and knows its text.

import Foundation
import SoundpackCore
import SoundpackKit

/// `list`: the catalog's packs, or a line saying there are none.
struct PackList: CommandOutput {
    var packs: [CatalogPack]
    var catalog: String

    private enum CodingKeys: String, CodingKey { case packs }

    func text(colour: Bool) -> String {
        guard !packs.isEmpty else { return "no packs in the catalog at \(catalog.visible) (soundpack validate DIR records one)\n" }
        return Table.render([["ID", "VERSION", "PUBLISHED", "GRAMMAR", "LAST VALIDATED", "RESULT", "NAME"]] + packs.map {
            [$0.id, $0.latestVersion ?? "-", String($0.publishedVersions), $0.grammar, $0.lastValidated?.timestamp ?? "never", $0.lastResult ?? "-", $0.name ?? ""]
        })
    }
}

/// `show`: a recorded version, its clips and the validation history of its content.
extension CatalogVersion: CommandOutput {
    func text(colour: Bool) -> String {
        var out = "\(id.visible) \(version)\(name.map { " — \($0.visible)" } ?? "")\n"
        out += "grammar     \(grammar.rawValue)\(grammarOptions.map { " (\($0.description))" } ?? "")\nmaxAmount   \(maxAmount)\ndigest      \(digest)\n"
        out += "published   \(publishedAt?.timestamp ?? "no")\(yanked ? " (yanked)" : "")\n"
        if let source { out += "spoken by   \(source.description.visible) (synthesised: placeholders until a voice is recorded)\n" }
        out += phrasesText
        out += "\n"
        var rows = [["TOKEN", "FILE", "BYTES", "FORMAT", "DURATION", "PEAK", "LOUDNESS", "SHA-256"]]
        for clip in clips {
            let format = [clip.container?.rawValue, clip.codec?.rawValue, clip.sampleRate.map { "\($0) Hz" }, clip.channels.map { $0 == 1 ? "mono" : "\($0) ch" }]
                .compactMap { $0 }.joined(separator: " ")
            rows.append([clip.token, clip.file, clip.bytes.map(String.init) ?? "-", format.isEmpty ? "unreadable" : format,
                         clip.durationSeconds.map { String(format: "%.3f s", $0) } ?? "-",
                         clip.truePeakDbtp.map { String(format: "%.1f dBTP", $0) } ?? "-",
                         clip.momentaryMaxLufs.map { String(format: "%.1f LUFS", $0) } ?? "-",
                         clip.sha256.map { String($0.prefix(16)) } ?? "-"])
        }
        out += Table.render(rows)
        // The runs of this content; runs of other content recorded under the same version number
        // (edits before it was published) are counted, not mixed in.
        let same = runs.filter { $0.digest == digest }
        let other = runs.count - same.count
        out += "\nvalidation history of digest \(digest.prefix(12)) (\(same.count) run\(same.count == 1 ? "" : "s")\(other > 0 ? "; \(other) of other content under this version" : "")):\n"
        var history = [["RAN AT", "RESULT", "ERRORS", "WARNINGS", "LONGEST", "PATH"]]
        for run in same.suffix(10) {
            history.append([run.ranAt.timestamp, run.passed ? "passed" : "failed", String(run.errors), String(run.warnings),
                            run.worstSeconds.map { String(format: "%.2f s", $0) + " (\(run.worstAmount ?? "?"))" } ?? "-", run.path])
        }
        return out + Table.render(history)
    }
}

extension CatalogVersion {
    /// One line per phrase, the default first: its pieces, each with the words its text says
    /// (`wechat (default)  prefix 微信到账 · {amount}`).
    var phrasesText: String {
        guard let phrases else {
            let why = publishedAt == nil ? "validate the pack again to record them" : "the store's manifest.json of this version has them"
            return "phrases     not recorded (this version was recorded before the catalog kept phrases; \(why))\n"
        }
        let ids = phrases.phrases.keys.sorted { ($0 == phrases.defaultPhrase ? 0 : 1, $0) < ($1 == phrases.defaultPhrase ? 0 : 1, $1) }
        var out = ""
        for (index, phraseID) in ids.enumerated() {
            let pieces = (phrases.phrases[phraseID] ?? []).map { piece in
                phrases.texts[piece].map { "\(piece.visible) \($0.visible)" } ?? piece.visible
            }
            let label = index == 0 ? "phrases     " : "            "
            out += label + "\(phraseID.visible)\(phraseID == phrases.defaultPhrase ? " (default)" : ""): \(pieces.joined(separator: " · "))\n"
        }
        return out
    }
}

/// `diff`: the changes between two versions of one pack and the bump they need; its JSON is the change.
struct Difference: CommandOutput {
    var pack: String
    var change: VersionChange

    func encode(to encoder: any Encoder) throws { try change.encode(to: encoder) }

    func text(colour: Bool) -> String {
        var out = "\(pack.visible) \(change.from.visible) → \(change.to.visible)\n"
        if change.items.isEmpty { out += change.from == change.to ? "  no changes\n" : "  only the version changed\n" }
        for item in change.items { out += "  \(item.kind): \(item.detail.visible) (needs \(item.needs.name))\n" }
        return out + "required bump: \(change.required.name)\n"
    }
}

/// `yank`: what the yank, or its undo, came to.
struct Yank: CommandOutput {
    var name: String
    var reason: String
    var outcome: YankOutcome

    private enum CodingKeys: String, CodingKey { case name, reason }

    func text(colour: Bool) -> String {
        switch outcome {
        case .notPublished: return "\(name.visible) is not published\n"
        case .alreadyYanked(let earlier): return "\(name.visible) is already yanked\(earlier.map { ": \($0.visible)" } ?? ""); the first reason stays\n"
        case .notYanked: return "\(name.visible) is not yanked; nothing to undo\n"
        case .yanked: return "yanked \(name.visible): \(reason.visible)\n"
        case .unyanked: return "\(name.visible) is no longer yanked\n"
        }
    }
}

/// `catalog migrate`: what was copied where.
struct CatalogMigration: CommandOutput {
    var from: String
    var to: String
    var rows: [String: Int]

    func text(colour: Bool) -> String {
        "copied \(from.visible) to \(to.visible): \(rows["packs"] ?? 0) packs, \(rows["versions"] ?? 0) versions, \(rows["clips"] ?? 0) clips, \(rows["validation_runs"] ?? 0) validation runs, \(rows["findings"] ?? 0) findings\n"
    }
}

/// `catalog rebuild --from-store`: the versions and yanks recorded from the store.
struct CatalogRebuild: CommandOutput {
    var catalog: String
    var store: String
    var recorded: [String]
    var yanked: [String]
    var known: Int

    func text(colour: Bool) -> String {
        var out = recorded.map { "recorded \($0.visible) from \(store.visible)\n" }.joined() + yanked.map { "recorded the yank of \($0.visible)\n" }.joined()
        out += "catalog \(catalog.visible): \(recorded.count) version\(recorded.count == 1 ? "" : "s") recorded from the store, \(yanked.count) yank\(yanked.count == 1 ? "" : "s"), \(known) already known; every file of each recorded version checked against its manifest\n"
        return out
    }
}

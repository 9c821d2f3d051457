// `soundpack yank ID@VER --reason TEXT`: withdraw a published version without deleting it.

import Foundation
import SoundpackCore
import SoundpackKit

enum YankCommand: Command {
    static let usesCatalogOrStore = true
    static let spec = CommandSpec(
        name: "yank",
        synopsis: "yank ID@VERSION --reason TEXT | yank ID@VERSION --undo",
        summary: "Mark a published version yanked: it stays downloadable, is flagged in the catalog, index.json and export, and its version number is never published again.",
        discussion: """
            A second yank of the same version keeps the first reason and says so. --undo takes a yank made by
            mistake back: the version is listed as available again (its files never changed).
            """,
        options: Options.specs)

    struct Options: ParsableArguments {
        var reference: PackRef?
        var reason: String?
        var undo = false

        static let declarations: [Declaration<Self>] = [
            .argument(to: \.reference) { text throws(SoundpackError) in try parseReference(text, requireVersion: true) },
            .option("--reason", to: \.reason, value: "TEXT", help: "why, shown wherever the version is listed"),
            .flag("--undo", to: \.undo, help: "take the yank back"),
        ]
    }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        guard let ref = arguments.reference, let version = ref.version else { throw .usage("yank needs one ID@VERSION") }
        let undo = arguments.undo
        let reason = arguments.reason ?? ""
        if undo {
            guard arguments.reason == nil else { throw .usage("--undo takes no --reason") }
        } else if reason.unicodeScalars.allSatisfy({ $0.properties.isWhitespace || $0.properties.generalCategory == .format }) {
            throw .usage("yank needs --reason TEXT\(reason.isEmpty ? "" : " (this one is only white space)")", hint: "soundpack yank \(PackRef.name(ref.id, version)) --reason \"clip 5 is clipped\"")
        } else if reason.containsControlCharacter() || reason.utf8.count > 1_000 {
            throw .usage("the --reason is shown in every listing: one line of printable text, at most 1000 bytes")
        }
        let publisher = Publisher(catalog: try context.openCatalog(), store: try context.store())
        publisher.now = context.now
        let outcome: YankOutcome
        do { outcome = try publisher.yank(ref.id, version, reason: reason, undo: undo) } catch {
            throw error.context("cannot \(undo ? "undo the yank" : "yank") \(PackRef.name(ref.id, version).visible)",
                                hint: "the catalog may already have it; run the same command again to bring index.json up to date")
        }
        let name = PackRef.name(ref.id, version)
        guard outcome != .notPublished else { throw .refused("\(name.visible) is not published", hint: "soundpack list shows what is") }
        try context.emit(Yank(name: name, reason: reason, outcome: outcome), .text)
        return .success
    }
}

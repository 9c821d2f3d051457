// `soundpack diff ID@A ID@B`: what changed between two recorded versions, and the bump it needs.

import Foundation
import SoundpackCore
import SoundpackKit

enum DiffCommand: Command {
    static let usesCatalogOrStore = true
    static let spec = CommandSpec(
        name: "diff",
        synopsis: "diff ID@A|DIR ID@B|DIR [--format text|json]",
        summary: "Show what changed between two versions of a pack, and the version bump it needs.",
        discussion: """
            Each side is a version the catalog recorded (ID@VERSION) or a pack folder, which is validated (not
            recorded) to compare a working copy with what is published: soundpack diff wechat@1.0.0 packs/wechat.
            A changed clip that sounds like another word's clip of the older side is shown as such ("audio
            changed: 5 — sounds like the earlier 6"; the store's clips are read for a recorded version), and a
            voice that changed as a whole as "voice changed".
            """,
        options: Options.specs)

    struct Options: ParsableArguments {
        var old: String?
        var new: String?
        var format = OutputFormat.text

        static let declarations: [Declaration<Self>] = [
            .argument(to: \.old),
            .argument(to: \.new),
            .choice("--format", to: \.format, value: "FORMAT"),
        ]
    }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let format = arguments.format
        guard let old = arguments.old, let new = arguments.new else { throw .usage("diff needs two versions", hint: "soundpack diff wechat@1.0.0 wechat@1.1.0") }
        var catalog: (any Catalog)?
        var store: Store?
        func facts(_ argument: String) throws(SoundpackError) -> (name: String, facts: VersionFacts) {
            let source = try context.packSource(argument, requireVersion: true)
            func open() throws(SoundpackError) -> any Catalog {
                if let catalog { return catalog }
                let opened = try context.openCatalog(readOnly: true)
                catalog = opened
                return opened
            }
            // Opened for a recorded version only: two pack folders need no store.
            func openStore() throws(SoundpackError) -> Store {
                if let store { return store }
                let opened = try context.store()
                store = opened
                return opened
            }
            do { return try VersionFacts.of(source, as: argument, catalog: open, store: openStore) } catch {
                if case .folder = source { throw error.with(hint: "soundpack validate \(argument)") }
                throw error.kind == .refused ? error.with(hint: "soundpack list shows what it holds") : error
            }
        }
        let a = try facts(old), b = try facts(new)
        guard a.name == b.name else {
            throw .usage("diff compares two versions of one pack; \(a.name.visible) and \(b.name.visible) are different packs",
                         hint: "soundpack diff \(PackRef.name(a.name, a.facts.version).visible) packs/\(a.name.visible)")
        }
        try context.emit(Difference(pack: a.name, change: VersionChange(from: a.facts, to: b.facts)), format)
        return .success
    }
}

// `soundpack list`: the packs in the catalog.

import SoundpackCore
import SoundpackKit

enum ListCommand: Command {
    static let usesCatalogOrStore = true
    static let spec = CommandSpec(
        name: "list",
        synopsis: "list [--format text|json]",
        summary: "List the packs in the catalog with their newest version and last validation.",
        options: Options.specs)

    struct Options: ParsableArguments {
        var format = OutputFormat.text

        static let declarations: [Declaration<Self>] = [.choice("--format", to: \.format, value: "FORMAT")]
    }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let format = arguments.format
        let packs: [CatalogPack]
        let catalog = try context.openCatalog(readOnly: true)
        do { packs = try catalog.packs() } catch {
            throw error.context("cannot read the catalog")
        }
        try context.emit(PackList(packs: packs, catalog: catalog.location), format)
        return .success
    }
}

// `soundpack list`: the packs in the catalog.

import SoundpackCore
import SoundpackKit

enum ListCommand: Command {
    static let usesCatalogOrStore = true
    static let spec = CommandSpec(
        name: "list",
        synopsis: "list [--format text|json]",
        summary: "List the packs in the catalog with their newest version and last validation.",
        options: [.choice("--format", value: "FORMAT", default: OutputFormat.text)])

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let format: OutputFormat = try arguments.choice("--format")
        guard arguments.positionals.isEmpty else { throw .usage("list takes no arguments") }
        let packs: [CatalogPack]
        let catalog = try context.openCatalog(arguments, readOnly: true)
        do { packs = try catalog.packs() } catch {
            throw error.context("cannot read the catalog")
        }
        try context.emit(PackList(packs: packs, catalog: catalog.location), format)
        return .success
    }
}

// `soundpack catalog migrate --from CATALOG --to CATALOG`: copy a catalog to another backend.
// `soundpack catalog rebuild --from-store`: record in the catalog what the store holds.

import Foundation
import SoundpackCore
import SoundpackKit

enum CatalogCommand: Command {
    static let usesCatalogOrStore = true
    static let spec = CommandSpec(
        name: "catalog",
        synopsis: "catalog migrate --from FILE|URL --to FILE|URL  |  catalog rebuild --from-store",
        summary: "Copy a catalog into another, empty one; or rebuild a lost catalog from the store.",
        discussion: """
            migrate: each side is a SQLite file or a postgresql:// URL. Both are brought to the current schema first;
            the copy is one transaction on the target, so it lands whole or not at all, and a target that already holds
            packs is refused. Then check the store against the new catalog with soundpack verify --catalog URL.
            rebuild --from-store: the store is the source of truth for what is published. Every version it holds
            (listed in index.json, or with an ID/VER/manifest.json) that the catalog (--catalog) lacks is read back,
            each file checked against its manifest's size and SHA-256 and each clip probed, then recorded, with the
            yanks index.json lists. index.json and each manifest are decoded as phones decode them (pack ids,
            paths inside the store, phrases, printable texts), and each manifest must be the one publish writes for
            the pack.json stored beside it, its digest recomputed from pack.json and the clips. A version the catalog
            has with another digest than the store's, or any of these failing, is refused (exit 3), and nothing is
            recorded then. publish and yank do the same for the pack they touch.
            """,
        options: Options.specs)

    struct Options: ParsableArguments {
        var subcommand: String?
        var from: String?
        var to: String?
        var fromStore = false

        static let declarations: [Declaration<Self>] = [
            .argument(to: \.subcommand),
            .option("--from", to: \.from, value: "FILE|URL", help: "migrate: the catalog to copy"),
            .option("--to", to: \.to, value: "FILE|URL", help: "migrate: the empty catalog to copy into (created if it is a new SQLite file)"),
            .flag("--from-store", to: \.fromStore, help: "rebuild: read the versions from the store (--store)"),
        ]
    }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        if arguments.subcommand == "rebuild" { return try rebuild(arguments, context) }
        guard arguments.subcommand == "migrate" else {
            throw .usage("catalog takes one subcommand: migrate or rebuild", hint: "soundpack catalog migrate --from .soundpack/catalog.sqlite --to postgresql://user@host/db, or soundpack catalog rebuild --from-store")
        }
        guard let from = arguments.from, let to = arguments.to else { throw .usage("catalog migrate needs --from and --to") }
        let migration = try CatalogCopy.migrate(from: CatalogLocation(from, workingDirectory: context.workingDirectory),
                                                to: CatalogLocation(to, workingDirectory: context.workingDirectory))
        try context.emit(CatalogMigration(from: migration.from, to: migration.to, rows: migration.counts.rows), .text)
        return .success
    }

    static func rebuild(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        guard arguments.fromStore else { throw .usage("catalog rebuild needs --from-store", hint: "soundpack catalog rebuild --from-store --store s3://bucket/voice") }
        // The store first: rebuilding from a store that does not exist creates nothing and records nothing.
        let store = try context.store(existing: true)
        let catalog = try context.openCatalog()
        let report = try Publisher(catalog: catalog, store: store).rebuildCatalog()
        try context.emit(CatalogRebuild(catalog: catalog.location, store: store.location, recorded: report.recorded, yanked: report.yanked, known: report.known), .text)
        return .success
    }
}

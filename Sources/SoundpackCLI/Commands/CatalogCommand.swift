// `soundpack catalog migrate --from CATALOG --to CATALOG`: copy a catalog to another backend.

import Foundation
import SoundpackCore
import SoundpackKit

enum CatalogCommand: Command {
    static let spec = CommandSpec(
        name: "catalog",
        synopsis: "catalog migrate --from FILE|URL --to FILE|URL",
        summary: "Copy every pack, version, clip and validation run of one catalog into another, empty one.",
        discussion: """
            Each side is a SQLite file or a postgresql:// URL. Both are brought to the current schema first; the copy
            is one transaction on the target, so it lands whole or not at all, and a target that already holds packs
            is refused. Then check the store against the new catalog with soundpack verify --catalog URL.
            """,
        options: [
            .option("--from", value: "FILE|URL", help: "the catalog to copy"),
            .option("--to", value: "FILE|URL", help: "the empty catalog to copy into (created if it is a new SQLite file)"),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(CLIError) -> ExitCode {
        guard arguments.positionals == ["migrate"] else {
            throw .usage("catalog takes one subcommand: migrate", hint: "soundpack catalog migrate --from .soundpack/catalog.sqlite --to postgresql://user@host/db")
        }
        guard let from = arguments.value("--from"), let to = arguments.value("--to") else { throw .usage("catalog migrate needs --from and --to") }
        func open(_ named: String, mustExist: Bool) throws(CLIError) -> SQLCatalog {
            do throws(CatalogError) {
                if PostgreSQLCatalog.isURL(named) { return try PostgreSQLCatalog(url: named) }
                let path = context.absolute(named)
                guard !mustExist || FileManager.default.fileExists(atPath: path) else {
                    throw CatalogError("there is no catalog at \(named.visible)")
                }
                return try SQLiteCatalog(path: path, createFolder: false)
            } catch {
                throw .environment("cannot use the catalog", error.message)
            }
        }
        let source = try open(from, mustExist: true), target = try open(to, mustExist: false)
        let counts: CatalogCopy.Counts
        do { counts = try CatalogCopy.copy(from: source, to: target) } catch {
            throw .failure(error.message, hint: "nothing was written to \(target.location.visible)")
        }
        let rows = counts.rows
        context.stdout.write("copied \(source.location.visible) to \(target.location.visible): \(rows["packs"] ?? 0) packs, \(rows["versions"] ?? 0) versions, \(rows["clips"] ?? 0) clips, \(rows["validation_runs"] ?? 0) validation runs, \(rows["findings"] ?? 0) findings\n")
        return .success
    }
}

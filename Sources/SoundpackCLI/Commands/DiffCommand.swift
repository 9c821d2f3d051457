// `soundpack diff ID@A ID@B`: what changed between two recorded versions, and the bump it needs.

import Foundation
import SoundpackCore
import SoundpackKit

enum DiffCommand: Command {
    static let spec = CommandSpec(
        name: "diff",
        synopsis: "diff ID@A ID@B [--format text|json]",
        summary: "Show what changed between two recorded versions of a pack, and the version bump it needs.",
        options: [.option("--format", value: "FORMAT", help: "text (default) or json")])

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(CLIError) -> ExitCode {
        let format = try arguments.choice("--format", ["text", "json"], default: "text")
        guard arguments.positionals.count == 2 else { throw .usage("diff needs two versions", hint: "soundpack diff wechat@1.0.0 wechat@1.1.0") }
        let a = try parseReference(arguments.positionals[0], requireVersion: true)
        let b = try parseReference(arguments.positionals[1], requireVersion: true)
        let catalog = try context.openCatalog(arguments)
        func facts(_ ref: (id: String, version: SemanticVersion?)) throws(CLIError) -> VersionFacts {
            guard let version = ref.version else { throw .usage("'\(ref.id)' needs a version: ID@VERSION") }
            let found: VersionRecord?
            do { found = try catalog.versionRecord(of: ref.id, version) } catch { throw .environment("cannot read the catalog", error.message) }
            guard let found else { throw .failure("no \(ref.id)@\(version) in the catalog", hint: "soundpack list shows what it holds") }
            return VersionFacts(found)
        }
        let change = VersionChange(from: try facts(a), to: try facts(b))
        if format == "json" {
            context.stdout.write(try context.json(change))
            return .success
        }
        let out = context.stdout
        out.write("\(a.id) \(change.from) → \(change.to)\n")
        if change.items.isEmpty { out.write("  no changes\n") }
        for item in change.items { out.write("  \(item.kind): \(item.detail) (needs \(item.needs.name))\n") }
        out.write("required bump: \(change.required.name)\n")
        return .success
    }
}

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
            """,
        options: [.choice("--format", value: "FORMAT", default: OutputFormat.text)])

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let format: OutputFormat = try arguments.choice("--format")
        guard arguments.positionals.count == 2 else { throw .usage("diff needs two versions", hint: "soundpack diff wechat@1.0.0 wechat@1.1.0") }
        var catalog: (any Catalog)?
        func facts(_ argument: String) throws(SoundpackError) -> (name: String, facts: VersionFacts) {
            let ref: (id: String, version: SemanticVersion)
            switch try context.packSource(argument, requireVersion: true) {
            case .folder(let folder):
                let report = Validator().validate(folder: folder)
                guard let facts = VersionFacts(report) else {
                    throw .refused("\(argument)/pack.json cannot be read", report.findings.first?.message, hint: "soundpack validate \(argument)")
                }
                return (report.packFile?.id ?? argument, facts)
            case .published(let id, let version?): ref = (id, version)
            case .published: throw .usage("'\(argument.visible)' needs a version: ID@VERSION")
            }
            let version = ref.version
            if catalog == nil { catalog = try context.openCatalog(arguments, readOnly: true) }
            let found: VersionRecord?
            do { found = try catalog?.versionRecord(of: ref.id, version) } catch { throw error.context("cannot read the catalog") }
            guard let found else {
                throw .refused("\(argument) is neither a pack folder nor a version in the catalog", hint: "soundpack list shows what it holds")
            }
            var recorded = VersionFacts(found)
            // The texts are in the store's manifest of the version, not in the catalog.
            if let store = try? context.store(arguments), let manifest = try? store.manifest(ref.id, version) { recorded.texts = manifest.texts }
            return (ref.id, recorded)
        }
        let a = try facts(arguments.positionals[0]), b = try facts(arguments.positionals[1])
        guard a.name == b.name else {
            throw .usage("diff compares two versions of one pack; \(a.name.visible) and \(b.name.visible) are different packs",
                         hint: "soundpack diff \(a.name.visible)@\(a.facts.version) packs/\(a.name.visible)")
        }
        let change = VersionChange(from: a.facts, to: b.facts)
        if format == .json {
            context.stdout.write(try context.json(change))
            return .success
        }
        let out = context.stdout
        out.write("\(a.name.visible) \(change.from.visible) → \(change.to.visible)\n")
        if change.items.isEmpty { out.write(change.from == change.to ? "  no changes\n" : "  only the version changed\n") }
        for item in change.items { out.write("  \(item.kind): \(item.detail.visible) (needs \(item.needs.name))\n") }
        out.write("required bump: \(change.required.name)\n")
        return .success
    }
}

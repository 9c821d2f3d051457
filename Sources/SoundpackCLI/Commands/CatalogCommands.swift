// `diff`, `yank` and `verify`: comparing, withdrawing and checking published versions.

import Foundation
import SoundpackCore
import SoundpackKit

/// `ID@VERSION` split in two.
func parseReference(_ text: String, requireVersion: Bool) throws(CLIError) -> (id: String, version: String?) {
    let parts = text.split(separator: "@", maxSplits: 1).map(String.init)
    guard let id = parts.first, !id.isEmpty else { throw .usage("'\(text)' is not ID[@VERSION]") }
    if requireVersion && parts.count < 2 { throw .usage("'\(text)' needs a version: ID@VERSION") }
    return (id, parts.count > 1 ? parts[1] : nil)
}

/// The version with the highest semantic version (unparseable ones sort first).
func newest(_ versions: [PublishedVersion]) -> PublishedVersion? {
    versions.max { SemanticVersion.isOlder($0.version, than: $1.version) }
}

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
        func facts(_ ref: (id: String, version: String?)) throws(CLIError) -> VersionFacts {
            let found: VersionFacts?
            do { found = try catalog.facts(of: ref.id, ref.version ?? "") } catch { throw .environment("cannot read the catalog", error.message) }
            guard let found else { throw .failure("no \(ref.id)@\(ref.version ?? "") in the catalog", hint: "soundpack list shows what it holds") }
            return found
        }
        let change = VersionChange(from: try facts(a), to: try facts(b))
        if format == "json" {
            context.stdout.write(context.json(change))
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

enum YankCommand: Command {
    static let spec = CommandSpec(
        name: "yank",
        synopsis: "yank ID@VERSION --reason TEXT",
        summary: "Mark a published version yanked: it stays downloadable, is flagged in the catalog, index.json and export, and can never be published again.",
        options: [.option("--reason", value: "TEXT", help: "why, shown wherever the version is listed")])

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(CLIError) -> ExitCode {
        guard arguments.positionals.count == 1 else { throw .usage("yank needs one ID@VERSION") }
        let ref = try parseReference(arguments.positionals[0], requireVersion: true)
        guard let reason = arguments.value("--reason"), !reason.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .usage("yank needs --reason TEXT")
        }
        let catalog = try context.openCatalog(arguments)
        let publisher = Publisher(catalog: catalog, store: context.storePath(arguments))
        do {
            let lock = try StoreLock(store: publisher.store)
            defer { lock.release() }
            let found: Bool
            do { found = try catalog.yank(ref.id, ref.version ?? "", reason: reason, at: context.now()) } catch {
                throw CLIError.environment("cannot record the yank", error.message)
            }
            guard found else { throw CLIError.failure("\(ref.id)@\(ref.version ?? "") is not published", hint: "soundpack list shows what is") }
            try publisher.writeIndex()
        } catch let error as CLIError {
            throw error
        } catch {
            throw .environment("cannot update the store", "\(error)")
        }
        context.stdout.write("yanked \(ref.id)@\(ref.version ?? ""): \(reason)\n")
        return .success
    }
}

enum VerifyCommand: Command {
    static let spec = CommandSpec(
        name: "verify",
        synopsis: "verify [--store DIR] [--public-key FILE...] [--format text|json]",
        summary: "Recompute every hash in the store and compare with manifests and catalog; exit 1 on any drift.",
        discussion: "Reports files missing from the store, files whose bytes changed, files no manifest lists, an index.json that does not match the catalog, and (with --public-key) manifest signatures that do not verify.",
        options: [
            .option("--public-key", value: "FILE", help: "an Ed25519 public key (FILE.pub from keygen) to check signatures with", repeatable: true),
            .option("--format", value: "FORMAT", help: "text (default) or json"),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(CLIError) -> ExitCode {
        let format = try arguments.choice("--format", ["text", "json"], default: "text")
        var verifier = StoreVerifier(catalog: try context.openCatalog(arguments), store: context.storePath(arguments))
        for file in arguments.values("--public-key") {
            guard let data = FileManager.default.contents(atPath: context.absolute(file)),
                  let key = Data(base64Encoded: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw .failure("cannot read the public key \(file)")
            }
            verifier.publicKeys[SigningKey.keyID(publicKey: Array(key))] = Array(key)
        }
        let result: (drifts: [Drift], filesChecked: Int)
        do { result = try verifier.verify() } catch { throw .environment("cannot read the catalog", error.message) }
        if format == "json" {
            struct Document: Encodable { var store: String, filesChecked: Int, drift: [Drift] }
            context.stdout.write(context.json(Document(store: verifier.store, filesChecked: result.filesChecked, drift: result.drifts)))
        } else {
            let colour = context.colours(context.stdout)
            for drift in result.drifts {
                context.stdout.write("\(verifier.store)/\(drift.path): \(Style.error(colour)) [\(drift.kind.rawValue)] \(drift.detail)\n")
            }
            context.stdout.write("\(verifier.store): \(result.filesChecked) files checked, \(result.drifts.isEmpty ? "no drift" : "\(result.drifts.count) problems")\n")
        }
        return result.drifts.isEmpty ? .success : .failure
    }
}

// `soundpack publish [DIR…]`: immutable, verifiable versions in a static store.

import Foundation
import SoundpackCore
import SoundpackKit

/// `publish --format`: text, JSON, or GitHub workflow annotations for the main branch's job.
enum PublishFormat: String, CaseIterable, ArgumentChoice { case text, json, github }

enum PublishCommand: Command {
    static let usesCatalogOrStore = true
    static let spec = CommandSpec(
        name: "publish",
        synopsis: "publish [DIR...] [--sign-key FILE] [--dry-run] [--format text|json|github]",
        summary: "Validate, archive and copy packs into the store, and record each version in the catalog.",
        discussion: """
            Without DIR, every folder under the project root's packs/ that holds a pack.json. A pack with validation errors is
            not published. The same id@version with the same content is a no-op; with other content it is
            refused ([catalog.version-conflict]). A new version must be greater than every published one, and
            big enough for its change against the newest: a removed token, a grammar change or a sample-format
            change needs a major bump, an added token a minor one, changed audio a patch. The store gets
            ID/VER/{clips/…, pack.json, ID-VER.tar.gz, ID-VER.zip, manifest.json} and index.json; archives are
            reproducible (SOURCE_DATE_EPOCH sets the tar mtime, default 0). --sign-key signs manifest.json
            with Ed25519 (manifest.json.sig; see soundpack keygen). With SOUNDPACK_TIMINGS=1 in the
            environment, where the run's time went (validation, archives, catalog, each kind of store request,
            index.json) is printed on stderr at the end, phase by phase.
            """,
        options: Options.specs)

    struct Options: ParsableArguments {
        var packs: [String] = []
        var signKey: String?
        var format = PublishFormat.text
        var dryRun = false

        static let declarations: [Declaration<Self>] = [
            .arguments(to: \.packs),
            .option("--sign-key", to: \.signKey, value: "FILE", help: "Ed25519 secret key written by soundpack keygen"),
            .choice("--format", to: \.format, value: "FORMAT"),
            .flag("--dry-run", to: \.dryRun, help: "check everything (validation, conflicts, the version bump) and say what would be published; write nothing"),
        ]
    }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let format = arguments.format
        let workspace = try context.workspace()
        let directories = arguments.packs.isEmpty ? workspace.discoverPacks() : arguments.packs
        guard !directories.isEmpty else {
            throw .usage("no packs to publish: no folder under the project's packs/ holds a pack.json", hint: "soundpack publish DIR")
        }
        let key = try arguments.signKey.map { (file) throws(SoundpackError) in try KeyFiles.secretKey(file, context) }
        guard let epoch = workspace.sourceDateEpoch else {
            throw .usage("SOURCE_DATE_EPOCH must be a non-negative integer, not '\(context.environment["SOURCE_DATE_EPOCH"] ?? "")'")
        }
        // A dry run against a project with no catalog yet compares with an empty one in memory,
        // so not even the catalog file is created.
        let dryRun = arguments.dryRun
        let catalog = try context.openCatalog(emptyWhenMissing: dryRun)
        let publisher = Publisher(catalog: catalog, store: try context.store(),
                                  signingKey: key, sourceDateEpoch: epoch)
        publisher.now = context.now
        publisher.dryRun = dryRun
        publisher.toolVersion = SoundpackCommand.version
        let outcomes: [PublishOutcome]
        let progress = Progress("checking clips", total: nil, sink: context.stderr, environment: context.environment)
        let printTimings = context.startTimings(first: "publish, in all")
        defer { printTimings?() }
        do {
            outcomes = try PhaseTimes.measure("publish, in all") { () throws(SoundpackError) in
                try publisher.publish(folders: directories.map(context.packFolder)) { done, total in progress.update(to: done, of: total) }
            }
        } catch {
            progress.finish()
            throw error.context("cannot publish")
        }
        progress.finish()
        if format == .github { context.stdout.write(FindingRenderer.github(outcomes)) } else {
            try context.emit(Publication(packs: outcomes), format == .json ? .json : .text)
        }
        // What the key signed: on stdout after the text, on stderr beside a machine-readable format.
        if let key, !dryRun {
            let signing: PublishSigning
            do { signing = try PublishSigning.of(outcomes, keyID: key.keyID, store: publisher.store) } catch {
                throw error.context("published, but cannot read back the signatures")
            }
            (format == .text ? context.stdout : context.stderr).write(signing.summary + "\n")
        }
        return outcomes.contains { $0.status == .refused } ? .failure : .success
    }
}

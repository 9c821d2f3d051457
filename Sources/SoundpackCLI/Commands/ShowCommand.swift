// `soundpack show ID[@VER]`: one version's clips, digest and validation history.

import Foundation
import SoundpackCore
import SoundpackKit

enum ShowCommand: Command {
    static let usesCatalogOrStore = true
    static let spec = CommandSpec(
        name: "show",
        synopsis: "show ID[@VERSION] [--format text|json]",
        summary: "Show a pack version from the catalog: reading options, phrases, clips, sizes, hashes, durations, digest, validation history.",
        discussion: "Without @VERSION the newest version is shown.",
        options: Options.specs)

    struct Options: ParsableArguments {
        var reference: PackRef?
        var format = OutputFormat.text

        static let declarations: [Declaration<Self>] = [
            .argument(to: \.reference) { text throws(SoundpackError) in try parseReference(text, requireVersion: false) },
            .choice("--format", to: \.format, value: "FORMAT"),
        ]
    }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let format = arguments.format
        guard let ref = arguments.reference else {
            throw .usage("show needs one pack id, optionally with @VERSION", hint: "soundpack show wechat@1.0.0")
        }
        let (id, version, reference) = (ref.id, ref.version, ref.description)
        let catalog = try context.openCatalog(readOnly: true)
        let found: CatalogVersion?
        do { found = try catalog.version(of: id, version) } catch {
            throw error.context("cannot read the catalog")
        }
        guard var found else {
            throw .refused("no \(reference) in the catalog at \(catalog.location.visible)",
                           hint: "soundpack list shows what it holds; soundpack validate DIR records a pack")
        }
        if found.phrases == nil, found.publishedAt != nil {
            // Recorded before the catalog kept phrases: the store's manifest of the version has them.
            // A store that cannot be read leaves them unshown, and the output says where they are.
            if let store = try? context.store(existing: true), let manifest = try? store.storedManifest(id, found.version) {
                found.phrases = VersionPhrases(manifest.phrasebook, texts: manifest.texts)
            }
        }
        try context.emit(found, format)
        return .success
    }
}

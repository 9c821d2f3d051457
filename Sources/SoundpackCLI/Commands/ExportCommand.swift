// `soundpack export`: the shared-container manifest the app and its extension read.

import Foundation
import SoundpackCore
import SoundpackKit

enum ExportCommand: Command {
    static let usesCatalogOrStore = true
    static let spec = CommandSpec(
        name: "export",
        synopsis: "export ID[@VER]|DIR... [--format plist|json] [--key NAME] [--base-url URL] [--namespace] [-o FILE]",
        summary: "Write the shared-container manifest the app and its Notification Service Extension read.",
        discussion: """
            Under --key (default kMainAppMp3FileKey) the clip file names the app bundles; under "soundpack" each
            pack's tokens with file name, size, SHA-256, duration and, with --base-url, the download URL
            (base URL + store path). ID[@VER] reads a published version from the store; DIR a pack folder.
            File names must be unique across the exported packs; --namespace prefixes them with the pack id.
            """,
        options: Options.specs)

    struct Options: ParsableArguments {
        var packs: [String] = []
        var format = SharedManifest.Encoding.plist
        var key = SharedManifest.defaultKey
        var baseURL: BaseURL?
        var namespace = false
        var output: String?

        static let declarations: [Declaration<Self>] = [
            .arguments(to: \.packs),
            .choice("--format", to: \.format, value: "FORMAT", help: "the manifest's encoding (plist: an XML property list)"),
            .option("--key", to: \.key, value: "NAME", help: "UserDefaults key for the bundled clip list (default kMainAppMp3FileKey)") { key throws(SoundpackError) in
                if let problem = SharedManifest.keyProblem(key) {
                    throw .usage("--key: \(problem)", hint: "the default is \(SharedManifest.defaultKey); the app must read the same key")
                }
                return key
            },
            .baseURL(to: \.baseURL, help: "where the store is served, for download URLs"),
            .flag("--namespace", to: \.namespace, help: "prefix file names with the pack id"),
            .option("-o", "--output", to: \.output, value: "FILE", help: "write to FILE instead of standard output"),
        ]
    }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let format = arguments.format
        guard !arguments.packs.isEmpty else { throw .usage("export needs ID[@VER] or a pack folder", hint: "soundpack export wechat --base-url https://cdn.example.com/packs") }
        let base = arguments.baseURL
        let store = try context.store()
        var packs: [ExportedPack] = []
        var catalog: (any Catalog)?
        for argument in arguments.packs {
            let (pack, yanked) = try SharedContainerExport.pack(try context.packSource(argument), named: argument, store: store) { () throws(SoundpackError) in
                if let catalog { return catalog }
                let opened = try context.openCatalog(readOnly: true)
                catalog = opened
                return opened
            }
            if let yanked {
                context.stderr.write("\(Style.warning(context.colours(context.stderr))) \(PackRef.name(yanked.id, yanked.version).visible) is yanked (\((yanked.yankReason ?? "no reason given").visible)); phones refuse to plan with it — export a version that is not yanked (soundpack export \(yanked.id.visible))\n")
            }
            packs.append(pack)
        }
        let data: Data
        do {
            let manifest = try SharedContainerExport.manifest(packs, key: arguments.key, baseURL: base, namespace: arguments.namespace)
            data = try SharedContainerExport.encode(manifest, as: format)
        } catch { throw error.context("cannot export") }
        if let output = arguments.output {
            try context.writeOutput(data, to: output)
            if output != "-" { context.stderr.write("wrote \(output.visible) (\(packs.count) pack\(packs.count == 1 ? "" : "s"), \(format))\n") }
        } else {
            context.stdout.write(String(decoding: data, as: UTF8.self))
        }
        return .success
    }
}

// `soundpack export`: the shared-container manifest the app and its extension read.

import Foundation
import SoundpackCore
import SoundpackKit

enum ExportCommand: Command {
    static let usesCatalogOrStore = true
    static let spec = CommandSpec(
        name: "export",
        synopsis: "export ID[@VER]|DIR... [--format plist|json] [--key NAME] [--base-url URL] [--namespace] [-o FILE]  |  export ID[@VER]|DIR --platform android -o DIR",
        summary: "Write the shared-container manifest the app and its Notification Service Extension read, or a pack for Android.",
        discussion: """
            Under --key (default kMainAppMp3FileKey) the clip file names the app bundles; under "soundpack" each
            pack's tokens with file name, size, SHA-256, duration and, with --base-url, the download URL
            (base URL + store path). ID[@VER] reads a published version from the store; DIR a pack folder.
            File names must be unique across the exported packs; --namespace prefixes them with the pack id.
            --platform android writes one pack into the new folder -o DIR: soundpack.json (schemas/android-export.schema.json:
            the pack, its phrases and texts, each clip's file, frames, bytes and SHA-256, and the reading as a table, DESIGN §3b)
            and clips/sp_<id>_<stem>.wav, 16-bit PCM in the pack's one sample rate and channel count (a pack whose clips do
            not share one is refused: soundpack convert makes them), the samples render joins. DIR is assembled beside
            itself and renamed into place; an existing DIR is refused.
            """,
        options: Options.specs)

    struct Options: ParsableArguments {
        var packs: [String] = []
        var platform = Platform.ios
        var format: SharedManifest.Encoding?
        var key: String?
        var baseURL: BaseURL?
        var namespace = false
        var output: String?

        static let declarations: [Declaration<Self>] = [
            .arguments(to: \.packs),
            .choice("--format", to: \.format, value: "FORMAT", shown: .plist, help: "the manifest's encoding (plist: an XML property list)"),
            .option("--key", to: \.key, value: "NAME", help: "UserDefaults key for the bundled clip list (default kMainAppMp3FileKey)") { key throws(SoundpackError) in
                if let problem = SharedManifest.keyProblem(key) {
                    throw .usage("--key: \(problem)", hint: "the default is \(SharedManifest.defaultKey); the app must read the same key")
                }
                return key
            },
            .baseURL(to: \.baseURL, help: "where the store is served, for download URLs"),
            .flag("--namespace", to: \.namespace, help: "prefix file names with the pack id"),
            .option("-o", "--output", to: \.output, value: "FILE", help: "write to FILE instead of standard output (android: the new folder)"),
            .choice("--platform", to: \.platform, value: "P", help: "what reads the export"),
        ]
    }

    /// What reads the export: the iOS app's shared container, or an Android app.
    enum Platform: String, ArgumentChoice { case ios, android }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        if arguments.platform == .android { return try android(arguments, context) }
        let format = arguments.format ?? .plist
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
            let manifest = try SharedContainerExport.manifest(packs, key: arguments.key ?? SharedManifest.defaultKey, baseURL: base, namespace: arguments.namespace)
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

    /// `--platform android`: one pack into the new folder `-o DIR`.
    static func android(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let example = "soundpack export wechat --platform android -o android/wechat"
        guard arguments.packs.count == 1, let argument = arguments.packs.first else {
            throw .usage("export --platform android takes one pack", hint: "run it once per pack (clip names are unique across packs, so their clips/ folders merge): \(example)")
        }
        guard let output = arguments.output, output != "-" else { throw .usage("export --platform android needs -o DIR, a new folder", hint: example) }
        let iosOnly = [("--format", arguments.format != nil), ("--key", arguments.key != nil), ("--base-url", arguments.baseURL != nil), ("--namespace", arguments.namespace)]
        if let (flag, _) = iosOnly.first(where: { $0.1 }) {
            throw .usage("\(flag) applies to the iOS export only", hint: "leave it out with --platform android")
        }
        let summary: AndroidExport.Summary
        switch try context.packSource(argument) {
        case .folder(let folder):
            do { summary = try AndroidExport.write(folder, into: context.absolute(output)) } catch { throw error.context("cannot export \(argument) for Android") }
        case .published(let id, let version):
            let store = try context.store()
            let found: (version: PublishedVersion, manifest: StoreManifest)?
            do { found = try store.published(id, version, in: try context.openCatalog(readOnly: true)) } catch {
                throw error.context("cannot read \(argument) from the store")
            }
            guard let found else { throw .refused("\(argument) is neither a pack folder nor a published version", hint: "soundpack list shows published packs") }
            if found.version.yanked {
                context.stderr.write("\(Style.warning(context.colours(context.stderr))) \(PackRef.name(id, found.version.version).visible) is yanked (\((found.version.yankReason ?? "no reason given").visible)); players refuse nothing, but phones should not announce with it — export a version that is not yanked\n")
            }
            let temporary = context.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : context.absolute($0) } ?? "/tmp"
            do { summary = try AndroidExport.write(found.manifest, from: store, temporaryFolder: temporary, into: context.absolute(output)) } catch {
                throw error.context("cannot export \(argument) for Android")
            }
        }
        let bytes = summary.files.reduce(0) { $0 + $1.bytes }
        let pcm = summary.document.pcm
        context.stdout.write("wrote \(output.visible): \(PackRef.name(summary.document.id, versionText: summary.document.version).visible), \(summary.files.count) clips (\(bytes / 1024) KiB, \(pcm.sampleRate) Hz \(pcm.channels == 1 ? "mono" : "\(pcm.channels) channels" ) 16-bit), soundpack.json with the \(summary.document.reading.grammar) reading\n")
        return .success
    }
}

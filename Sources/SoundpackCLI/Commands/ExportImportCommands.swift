// `export` (the shared-container manifest) and `import` (a received pack archive).

import Foundation
import SoundpackCore
import SoundpackKit

enum ExportCommand: Command {
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
        options: [
            .option("--format", value: "FORMAT", help: "plist (default, XML property list) or json"),
            .option("--key", value: "NAME", help: "UserDefaults key for the bundled clip list (default kMainAppMp3FileKey)"),
            .option("--base-url", value: "URL", help: "where the store is served, for download URLs"),
            .flag("--namespace", help: "prefix file names with the pack id"),
            .option("-o", "--output", value: "FILE", help: "write to FILE instead of standard output"),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(CLIError) -> ExitCode {
        let format = try arguments.choice("--format", ["plist", "json"], default: "plist")
        guard !arguments.positionals.isEmpty else { throw .usage("export needs ID[@VER] or a pack folder", hint: "soundpack export wechat --base-url https://cdn.example.com/packs") }
        let store = context.storePath(arguments)
        var packs: [ExportedPack] = []
        var catalog: Catalog?
        for argument in arguments.positionals {
            let folder = context.absolute(argument)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/pack.json", isDirectory: &isFolder), !isFolder.boolValue {
                let report = Validator().validate(directory: folder)
                guard report.errors == 0 else { throw .failure("\(argument) does not validate (\(report.errors) errors)", hint: "soundpack validate \(argument)") }
                packs.append(ExportedPack(report: report))
                continue
            }
            let ref = try parseReference(argument, requireVersion: false)
            if catalog == nil { catalog = try context.openCatalog(arguments) }
            let published: [PublishedVersion]
            do { published = try catalog?.publishedVersions(of: ref.id) ?? [] } catch { throw .environment("cannot read the catalog", error.message) }
            let chosen = ref.version.map { v in published.first { $0.version == v } } ?? newest(published.filter { !$0.yanked })
            guard let version = chosen else {
                throw .failure("\(argument) is neither a pack folder nor a published version", hint: "soundpack list shows published packs")
            }
            let path = "\(store)/\(version.id)/\(version.version)/manifest.json"
            guard let data = FileManager.default.contents(atPath: path), let manifest = try? JSONDecoder().decode(StoreManifest.self, from: data) else {
                throw .environment("cannot read \(path)", hint: "soundpack verify checks the store")
            }
            packs.append(ExportedPack(manifest: manifest, yanked: version.yanked))
        }
        let data: Data
        do {
            let document = try SharedContainerExport.document(packs, key: arguments.value("--key") ?? SharedContainerExport.defaultKey,
                                                              baseURL: arguments.value("--base-url"), namespace: arguments.has("--namespace"))
            data = format == "json" ? try SharedContainerExport.json(document) : try SharedContainerExport.plist(document)
        } catch { throw .failure("cannot export", error.message) }
        if let output = arguments.value("--output") {
            do { try AtomicFile.write(data, to: context.absolute(output)) } catch { throw .environment("cannot write \(output)", error.localizedDescription) }
            context.stderr.write("wrote \(output) (\(packs.count) pack\(packs.count == 1 ? "" : "s"), \(format))\n")
        } else {
            context.stdout.write(String(decoding: data, as: UTF8.self))
        }
        return .success
    }
}

enum ImportCommand: Command {
    static let spec = CommandSpec(
        name: "import",
        synopsis: "import ARCHIVE DEST",
        summary: "Extract a received pack archive (tar, tar.gz or zip) safely into DEST, then validate it.",
        discussion: """
            Entries with absolute paths or '..', symlinks, hard links, devices, duplicate names, more than 2000
            entries, an entry over 16 MiB or 256 MiB in all are refused. The pack is extracted into an empty
            temporary folder beside DEST, validated, and renamed to DEST only when it has no errors; DEST must not exist.
            """,
        options: [])

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(CLIError) -> ExitCode {
        guard arguments.positionals.count == 2 else { throw .usage("import needs ARCHIVE and DEST", hint: "soundpack import wechat-1.0.0.tar.gz packs/wechat") }
        let (archive, destination) = (arguments.positionals[0], arguments.positionals[1])
        do {
            var report = try PackImporter.importArchive(context.absolute(archive), into: context.absolute(destination))
            report.directory = destination
            ValidateCommand.printText([report], strict: false, context)
            return .success
        } catch {
            if var report = error.report {
                report.directory = destination
                ValidateCommand.printText([report], strict: false, context)
            }
            throw error.kind == .refused ? .failure("cannot import \(archive)", error.message) : .environment("cannot import \(archive)", error.message)
        }
    }
}

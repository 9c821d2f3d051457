// `soundpack import ARCHIVE DEST`: safe extraction of a received pack archive, then validation.

import Foundation
import SoundpackCore
import SoundpackKit

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
        options: Options.specs)

    struct Options: ParsableArguments {
        var archive: String?
        var destination: String?

        static let declarations: [Declaration<Self>] = [.argument(to: \.archive), .argument(to: \.destination)]
    }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        guard let archive = arguments.archive, let destination = arguments.destination else {
            throw .usage("import needs ARCHIVE and DEST", hint: "soundpack import wechat-1.0.0.tar.gz packs/wechat")
        }
        guard FileManager.default.isReadableFile(atPath: context.absolute(archive)) else {
            throw .environment("cannot import \(archive.visible)", "there is no readable file there")
        }
        let outcome: ImportOutcome
        do { outcome = try PackImporter.importArchive(context.absolute(archive), into: context.packFolder(destination)) } catch {
            throw error.context("cannot import \(archive)")
        }
        try context.emit(Validated(report: outcome.report), .text)
        guard case .imported = outcome else {
            throw .refused("cannot import \(archive)", "the pack in \(archive) does not validate (\(outcome.report.errors) errors); nothing was imported")
        }
        return .success
    }
}

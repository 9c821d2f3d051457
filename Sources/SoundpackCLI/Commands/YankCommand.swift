// `soundpack yank ID@VER --reason TEXT`: withdraw a published version without deleting it.

import Foundation
import SoundpackCore
import SoundpackKit

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
        let store = context.store(arguments)
        guard let version = ref.version else { throw .usage("yank needs ID@VERSION") }
        let lock: any StoreLock
        do { lock = try store.lock() } catch { throw .environment("cannot update the store", error.message) }
        defer { lock.release() }
        let outcome: YankOutcome
        do { outcome = try catalog.yank(ref.id, version, reason: reason, at: context.now()) } catch {
            throw .environment("cannot record the yank", error.message)
        }
        switch outcome {
        case .notPublished:
            throw .failure("\(ref.id)@\(version) is not published", hint: "soundpack list shows what is")
        case .alreadyYanked(let earlier):
            context.stdout.write("\(ref.id)@\(version) is already yanked\(earlier.map { ": \($0.visible)" } ?? ""); the first reason stays\n")
        case .yanked:
            do { try store.writeIndex(from: catalog) } catch { throw .environment("cannot update the store", error.description) }
            context.stdout.write("yanked \(ref.id.visible)@\(version): \(reason.visible)\n")
        }
        return .success
    }
}

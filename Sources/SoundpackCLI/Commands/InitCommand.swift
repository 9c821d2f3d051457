// `soundpack init DIR --id ID`: a pack.json listing every clip the grammar needs.

import Foundation
import SoundpackCore
import SoundpackKit

enum InitCommand: Command {
    static let spec = CommandSpec(
        name: "init",
        synopsis: "init DIR --id ID [--grammar zh-Hans|zh-Hant|en-US|en-IN|hi-IN] [--two STYLE] [--money STYLE] [--ten-start STYLE] [--max-amount AMOUNT] [--prefix TEXT]",
        summary: "Scaffold a pack: DIR/pack.json listing a clip for every token the grammar needs.",
        discussion: "Clip paths are clips/<token>.caf with ASCII names (十 → clips/shi.caf). An existing pack.json is never overwritten.",
        options: NewPackArguments.specs + [
            .option("--prefix", value: "TEXT", help: "the words of the prefix clip, e.g. 微信到账"),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let new = try NewPackArguments(arguments, command: "init", example: "soundpack init packs/mypack --id mypack")
        let (directory, id, grammar, maximum) = (new.directory, new.id, new.grammar, new.maximum)

        // A new pack has no suffix clip; one can be added later under "suffix".
        let tokens = Announcement(grammar: grammar, hasSuffix: false).requiredTokens(upTo: maximum)
        var clips: [String: String] = [:]
        for token in tokens { clips[token.rawValue] = "clips/\(grammar.fileStem(of: token)).caf" }
        var file = PackFile(id: id, name: id, version: SemanticVersion("0.1.0")!, grammar: grammar, maxAmount: maximum, clips: clips)
        if let prefix = arguments.value("--prefix") { file.texts = ["prefix": prefix] }

        let folder = context.absolute(directory)
        let target = URL(fileURLWithPath: folder).appendingPathComponent(PackFolder.packFile)
        guard !FileManager.default.fileExists(atPath: target.path) else {
            throw .refused("\(directory)/pack.json already exists", hint: "init never overwrites a pack; edit it or choose another folder")
        }
        let data: Data
        do { data = try StoreJSON.encode(file) } catch { throw .usage("cannot write these values as JSON: \(error.message)") }
        // What init writes goes through the reader validate uses: a value it would refuse (a
        // control character in --prefix, a --max-amount beyond the grammar) is refused here.
        do { _ = try PackFile(json: data) } catch {
            let option = ["maxAmount": "--max-amount", "texts.prefix": "--prefix", "texts": "--prefix", "id": "--id", "name": "--id"][error.field ?? ""] ?? "a value"
            throw .usage("\(option): \(error.message)", hint: "init writes only a pack.json that validate accepts")
        }
        do {
            try Folders.create(folder + "/clips")
            try AtomicFile.write(data, to: target.path)
        } catch {
            throw .environment("cannot write \(directory)/pack.json", error.localizedDescription)
        }
        context.stdout.write("created \(directory.visible)/pack.json with \(clips.count) clips; record them as \(directory.visible)/clips/<token>.caf, then run soundpack validate \(directory)\n")
        return .success
    }
}

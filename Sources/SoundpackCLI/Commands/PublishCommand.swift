// `soundpack publish [DIR…]`: immutable, verifiable versions in a static store.

import Foundation
import SoundpackKit

enum PublishCommand: Command {
    static let spec = CommandSpec(
        name: "publish",
        synopsis: "publish [DIR...] [--sign-key FILE] [--format text|json]",
        summary: "Validate, archive and copy packs into the store, and record each version in the catalog.",
        discussion: """
            Without DIR, every folder under ./packs that holds a pack.json. A pack with validation errors is
            not published. The same id@version with the same content is a no-op; with other content it is
            refused ([catalog.version-conflict]). A new version must be greater than every published one, and
            big enough for its change against the newest: a removed token, a grammar change or a sample-format
            change needs a major bump, an added token a minor one, changed audio a patch. The store gets
            ID/VER/{clips/…, pack.json, ID-VER.tar.gz, ID-VER.zip, manifest.json} and index.json; archives are
            reproducible (SOURCE_DATE_EPOCH sets the tar mtime, default 0). --sign-key signs manifest.json
            with Ed25519 (manifest.json.sig; see soundpack keygen).
            """,
        options: [
            .option("--sign-key", value: "FILE", help: "Ed25519 secret key written by soundpack keygen"),
            .option("--format", value: "FORMAT", help: "text (default) or json"),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(CLIError) -> ExitCode {
        let format = try arguments.choice("--format", ["text", "json"], default: "text")
        var directories = arguments.positionals
        if directories.isEmpty {
            let packs = context.absolute("packs")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: packs)) ?? []
            directories = names.sorted().filter { FileManager.default.fileExists(atPath: "\(packs)/\($0)/pack.json") }.map { "packs/\($0)" }
            guard !directories.isEmpty else {
                throw .usage("no packs to publish: no folder under ./packs holds a pack.json", hint: "soundpack publish DIR")
            }
        }
        var key: SigningKey?
        if let keyFile = arguments.value("--sign-key") { key = try KeygenCommand.load(keyFile, context) }
        let epochText = context.environment["SOURCE_DATE_EPOCH"] ?? "0"
        guard let epoch = Int64(epochText), epoch >= 0 else {
            throw .usage("SOURCE_DATE_EPOCH must be a non-negative integer, not '\(epochText)'")
        }
        let publisher = Publisher(catalog: try context.openCatalog(arguments), store: context.storePath(arguments),
                                  signingKey: key, sourceDateEpoch: epoch)
        publisher.now = context.now
        publisher.toolVersion = SoundpackCommand.version
        var outcomes: [PublishOutcome]
        let progress = Progress("checking clips", total: nil, sink: context.stderr)
        do {
            outcomes = try publisher.publish(directories: directories.map(context.absolute)) { done, _ in progress.update(to: done) }
        } catch {
            progress.finish()
            throw .environment("cannot publish", error.description)
        }
        progress.finish()
        for index in outcomes.indices { outcomes[index].directory = directories[index] }
        if format == "json" {
            context.stdout.write(context.json(["packs": outcomes.map(Summary.init)]))
        } else {
            let colour = context.colours(context.stdout)
            for outcome in outcomes {
                switch outcome.status {
                case .published, .unchanged:
                    context.stdout.write("\(outcome.directory): \(outcome.message)\n")
                case .refused:
                    if let report = outcome.report, report.errors > 0 { ValidateCommand.printText([report], strict: false, context) }
                    let rule = outcome.rule.map { "[\($0)] " } ?? ""
                    context.stdout.write("\(outcome.directory)/pack.json: \(Style.error(colour)) \(rule)\(outcome.message)\n")
                }
            }
        }
        return outcomes.contains { $0.status == .refused } ? .failure : .success
    }

    struct Summary: Encodable {
        var directory: String, id: String?, version: String?, status: String, message: String, rule: String?
        init(_ outcome: PublishOutcome) {
            (directory, id, version, status, message, rule) = (outcome.directory, outcome.id, outcome.version, outcome.status.rawValue, outcome.message, outcome.rule)
        }
    }
}

enum KeygenCommand: Command {
    static let spec = CommandSpec(
        name: "keygen",
        synopsis: "keygen -o FILE",
        summary: "Write an Ed25519 key pair for signing manifests: FILE (secret, mode 0600) and FILE.pub.",
        options: [.option("-o", "--output", value: "FILE", help: "where to write the secret key")])

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(CLIError) -> ExitCode {
        guard let output = arguments.value("--output") else { throw .usage("keygen needs -o FILE") }
        let path = context.absolute(output)
        guard !FileManager.default.fileExists(atPath: path), !FileManager.default.fileExists(atPath: path + ".pub") else {
            throw .failure("\(output) or \(output).pub already exists", hint: "keygen never overwrites a key")
        }
        let key = SigningKey.generate()
        do {
            try AtomicFile.write(Data((Data(key.secretKeyBytes).base64EncodedString() + "\n").utf8), to: path)
            chmod(path, 0o600)
            try AtomicFile.write(Data((Data(key.publicKey).base64EncodedString() + "\n").utf8), to: path + ".pub")
        } catch {
            throw .environment("cannot write the key", error.localizedDescription)
        }
        context.stdout.write("wrote \(output) (secret) and \(output).pub; key id \(key.keyID)\n")
        return .success
    }

    static func load(_ file: String, _ context: CLIContext) throws(CLIError) -> SigningKey {
        guard let data = FileManager.default.contents(atPath: context.absolute(file)) else {
            throw .failure("cannot read the signing key \(file)", hint: "create one with soundpack keygen -o \(file)")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let bytes = Data(base64Encoded: text), let key = SigningKey(secretKey: Array(bytes)) else {
            throw .failure("\(file) is not an Ed25519 secret key written by soundpack keygen")
        }
        return key
    }
}

// `soundpack keygen -o FILE`: an Ed25519 key pair for signing published manifests.

import Foundation
import SoundpackCore
import SoundpackKit

enum KeygenCommand: Command {
    static let spec = CommandSpec(
        name: "keygen",
        synopsis: "keygen -o FILE",
        summary: "Write an Ed25519 key pair for signing manifests: FILE (secret, mode 0600) and FILE.pub.",
        options: [.option("-o", "--output", value: "FILE", help: "where to write the secret key")])

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        guard let output = arguments.value("--output") else { throw .usage("keygen needs -o FILE") }
        guard output != "-" else { throw .usage("keygen writes a secret key and its .pub beside it, so -o needs a file name, not -") }
        let path = context.absolute(output)
        guard !FileManager.default.fileExists(atPath: path), !FileManager.default.fileExists(atPath: path + ".pub") else {
            throw .refused("\(output) or \(output).pub already exists", hint: "keygen never overwrites a key")
        }
        let key = SigningKey.generate()
        do {
            try AtomicFile.write(Data((Data(key.secretKeyBytes).base64EncodedString() + "\n").utf8), to: path, mode: 0o600, replacing: false)
            try AtomicFile.write(Data((Data(key.publicKey).base64EncodedString() + "\n").utf8), to: path + ".pub", replacing: false)
        } catch {
            throw .environment("cannot write the key", error.localizedDescription)
        }
        context.stdout.write("wrote \(output.visible) (secret) and \(output.visible).pub; key id \(key.keyID)\n")
        return .success
    }
}

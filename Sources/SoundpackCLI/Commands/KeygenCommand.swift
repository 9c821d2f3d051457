// `soundpack keygen -o FILE`: an Ed25519 key pair for signing published manifests.

import Foundation
import SoundpackCore
import SoundpackKit

enum KeygenCommand: Command {
    static let spec = CommandSpec(
        name: "keygen",
        synopsis: "keygen -o FILE [--force]",
        summary: "Write an Ed25519 key pair for signing manifests: FILE (secret, mode 0600) and FILE.pub.",
        discussion: """
            The secret key is refused inside a git work tree whose ignore rules (git check-ignore) do not cover FILE:
            one `git add .` would publish it. Add the line keygen names to .gitignore, write the key outside the
            repository (and keep it in your CI's secrets), or give --force. FILE.pub is public: commit it, and paste
            its contents into the app's configuration.
            """,
        options: Options.specs)

    struct Options: ParsableArguments {
        var output: String?
        var force = false

        static let declarations: [Declaration<Self>] = [
            .option("-o", "--output", to: \.output, value: "FILE", help: "where to write the secret key"),
            .flag("--force", to: \.force, help: "write the secret key into a git work tree even where git does not ignore it"),
        ]
    }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        guard let output = arguments.output else { throw .usage("keygen needs -o FILE") }
        guard output != "-" else { throw .usage("keygen writes a secret key and its .pub beside it, so -o needs a file name, not -") }
        let path = context.absolute(output)
        guard !FileManager.default.fileExists(atPath: path), !FileManager.default.fileExists(atPath: path + ".pub") else {
            throw .refused("\(output) or \(output).pub already exists", hint: "keygen never overwrites a key")
        }
        if !arguments.force { try refuseUnignoredSecret(at: path, shown: output) }
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

    /// Refuses a secret key path inside a git work tree that git does not ignore, naming the line
    /// that would ignore it. The path is judged where it really is: its folder's symbolic links are
    /// resolved first, so `link/release.key` into a repository is inside it.
    static func refuseUnignoredSecret(at path: String, shown: String) throws(SoundpackError) {
        let given = (path as NSString).deletingLastPathComponent
        guard let folder = realpath(given, nil) else { return }  // no such folder: the write fails and says so
        defer { free(folder) }
        let real = String(cString: folder) + "/" + (path as NSString).lastPathComponent
        guard let root = GitWorkTree.root(containing: String(cString: folder)) else { return }
        let inTree = String(real.dropFirst(root == "/" ? 1 : root.count + 1))
        let line = "/" + Self.gitignorePattern(inTree)
        let gitignore = (root as NSString).appendingPathComponent(".gitignore")
        switch GitWorkTree.ignores(real, inWorkTree: root) {
        case .ignored:
            return
        case .notIgnored:
            throw .refused("\(shown.visible) would be a secret key in the git work tree \(root.visible) that git does not ignore",
                           "one `git add .` would commit it",
                           hint: "add the line '\(line.visible)' to \(gitignore.visible), or write the key outside the repository; --force writes it anyway")
        case .unknown(let why):
            throw .refused("cannot tell whether git ignores \(shown.visible) in the work tree \(root.visible)", why,
                           hint: "add the line '\(line.visible)' to \(gitignore.visible) and make sure git runs, or give --force")
        }
    }

    /// `path` as a .gitignore pattern that matches only itself: git's glob characters and a
    /// backslash escaped with a backslash (gitignore(5)).
    static func gitignorePattern(_ path: String) -> String {
        var out = ""
        for character in path {
            if "\\*?[!# ".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}

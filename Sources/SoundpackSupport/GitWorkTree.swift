// Whether a file would be committed by `git add .`: a signing secret written into a git work tree
// that no ignore rule covers is one command away from a public repository.

import Foundation

/// The git work tree holding a path, and whether git ignores a file in it.
package enum GitWorkTree {
    /// The nearest folder, from `folder` upward, that holds `.git` (a folder, or the file of a
    /// linked work tree or submodule); nil when the path is in no work tree.
    package static func root(containing folder: String) -> String? {
        var current = URL(fileURLWithPath: folder).standardizedFileURL.path
        while true {
            if FileManager.default.fileExists(atPath: (current == "/" ? "" : current) + "/.git") { return current }
            guard current != "/" else { return nil }
            current = (current as NSString).deletingLastPathComponent
        }
    }

    /// What git says of a path in a work tree.
    package enum Ignored: Sendable, Equatable {
        case ignored
        case notIgnored
        /// git could not answer (not on PATH, a broken repository): the reason.
        case unknown(String)
    }

    /// Whether the ignore rules of the work tree at `root` (its `.gitignore` files,
    /// `.git/info/exclude`, the user's `core.excludesFile`) cover `path`, which need not exist.
    /// Asked of git itself (`git check-ignore`, started directly, no shell), so every rule git
    /// follows is followed.
    package static func ignores(_ path: String, inWorkTree root: String) -> Ignored {
        // git finds the repository from `root`, not from variables a caller's shell may have set.
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(["git", "-C", root, "check-ignore", "--quiet", "--", path],
                                           unsetting: ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_CEILING_DIRECTORIES"], timeoutSeconds: 30)
        } catch {
            return .unknown("git cannot be started: \(error)")
        }
        // check-ignore: 0 ignored, 1 not ignored, 128 a fatal error (its last line says which).
        switch outcome.ending {
        case .exited(0): return .ignored
        case .exited(1): return .notIgnored
        case .exited(let code): return .unknown("git check-ignore exited with status \(code)\(outcome.lastLine.isEmpty ? "" : ": \(outcome.lastLine)")")
        case .signalled(let signal): return .unknown("git check-ignore was killed by \(ChildProcess.name(ofSignal: signal))")
        case .timedOut: return .unknown("git check-ignore did not answer within 30 s")
        case .interrupted(let signal): return .unknown("interrupted by \(ChildProcess.name(ofSignal: signal))")
        }
    }
}

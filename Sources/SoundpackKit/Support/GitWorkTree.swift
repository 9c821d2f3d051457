// Whether a file would be committed by `git add .`: a signing secret written into a git work tree
// that no ignore rule covers is one command away from a public repository.

import Foundation

/// The git work tree holding a path, and whether git ignores a file in it.
public enum GitWorkTree {
    /// The nearest folder, from `folder` upward, that holds `.git` (a folder, or the file of a
    /// linked work tree or submodule); nil when the path is in no work tree.
    public static func root(containing folder: String) -> String? {
        var current = URL(fileURLWithPath: folder).standardizedFileURL.path
        while true {
            if FileManager.default.fileExists(atPath: (current == "/" ? "" : current) + "/.git") { return current }
            guard current != "/" else { return nil }
            current = (current as NSString).deletingLastPathComponent
        }
    }

    /// What git says of a path in a work tree.
    public enum Ignored: Sendable, Equatable {
        case ignored
        case notIgnored
        /// git could not answer (not on PATH, a broken repository): the reason.
        case unknown(String)
    }

    /// Whether the ignore rules of the work tree at `root` (its `.gitignore` files,
    /// `.git/info/exclude`, the user's `core.excludesFile`) cover `path`, which need not exist.
    /// Asked of git itself (`git check-ignore`, started directly, no shell), so every rule git
    /// follows is followed.
    public static func ignores(_ path: String, inWorkTree root: String) -> Ignored {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = ["git", "-C", root, "check-ignore", "--quiet", "--", path]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        // git finds the repository from `root`, not from variables a caller's shell may have set.
        let environment = ProcessInfo.processInfo.environment.filter { !["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_CEILING_DIRECTORIES"].contains($0.key) }
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") }
        envp.append(nil)
        defer { for pointer in envp { free(pointer) } }
        var child: pid_t = 0
        let started = posix_spawnp(&child, "git", &actions, nil, argv, envp)
        guard started == 0 else { return .unknown("git cannot be started: \(String(cString: strerror(started)))") }
        var status: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(child, &status, 0) } while reaped < 0 && errno == EINTR
        // Without its exit status (SIGCHLD ignored by whoever started us reaps it first) git has not
        // answered: never read a status that was not written as "ignored".
        guard reaped == child else { return .unknown("git check-ignore's exit status cannot be read: \(String(cString: strerror(errno)))") }
        let signal = status & 0x7F, code = (status >> 8) & 0xFF
        // check-ignore: 0 ignored, 1 not ignored, 128 a fatal error.
        switch (signal, code) {
        case (0, 0): return .ignored
        case (0, 1): return .notIgnored
        default: return .unknown(signal == 0 ? "git check-ignore exited with status \(code)" : "git check-ignore was killed by signal \(signal)")
        }
    }
}

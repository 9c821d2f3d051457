// The one way soundpack starts a program that works for it (a team's TTS command, the espeak-ng
// worker): posix_spawn, no shell, in a process group of its own, with an empty signal mask and
// default signal dispositions, a timeout, and the last 4 KiB of its stderr kept for the error.
// SIGINT, SIGTERM and SIGHUP caught while it runs (Interruption) are forwarded to its group.

import Foundation
import Synchronization

/// A program run to its end, its group killed at the timeout and after it ends.
package enum ChildProcess {
    /// How a run ended.
    package enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
        /// Stopped after the timeout.
        case timedOut
        /// soundpack received this signal while the program ran: it was forwarded to the program's
        /// group, and the group killed after a grace period.
        case interrupted(Int32)
    }

    package struct Outcome: Sendable {
        package var ending: Ending
        /// The end of what the program wrote on stderr, at most `tailBytes`.
        var stderrTail: [UInt8]

        /// The last line it wrote on stderr (where programs put their reason), at most 300 characters; empty for none.
        package var lastLine: String {
            let text = String(decoding: stderrTail, as: UTF8.self)
            let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            return lines.last(where: { !$0.isEmpty }).map { String($0.prefix(300)) } ?? ""
        }
    }

    /// How much of a program's stderr is kept: its end, where the reason is; 400 MB of noise costs no more.
    static let tailBytes = 4096
    /// How long a program may take to end after soundpack forwarded it SIGINT/SIGTERM/SIGHUP.
    package static let graceSeconds = 5.0

    /// Runs `arguments` (the program first: a path, or a name looked up on PATH) with standard input
    /// from /dev/null and standard output discarded, until it ends, `timeoutSeconds` pass, or an
    /// interruption (see `Interruption`) has been forwarded and waited for. Afterwards its whole
    /// process group is killed, so nothing it started outlives it. It gets this process's environment
    /// with `environment`'s variables set and those in `unsetting` removed. Throws only when it cannot
    /// be started.
    package static func run(_ arguments: [String], environment: [String: String] = [:], unsetting: Set<String> = [],
                           timeoutSeconds: Double) throws(POSIXFailure) -> Outcome {
        guard let program = arguments.first else { throw POSIXFailure("no program to run", code: EINVAL) }
        guard arguments.allSatisfy({ !$0.utf8.contains(0) }) else { throw POSIXFailure("an argument holds a NUL byte", code: EINVAL) }
        if let signal = Interruption.caught { return Outcome(ending: .interrupted(signal), stderrTail: []) }

        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw POSIXFailure("cannot create a pipe for its stderr") }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        defer { close(readEnd) }

        let started: Int32
        var child: pid_t = 0
        do {
            defer { close(writeEnd) }
            started = spawn(program, arguments, environment: environment, unsetting: unsetting, stderr: writeEnd, pid: &child)
        }
        guard started == 0 else { throw POSIXFailure(String(cString: strerror(started)), code: started) }

        var tail = ByteTail(capacity: tailBytes)
        var pipeOpen = true
        let deadline = DispatchTime.now() + timeoutSeconds
        var forwarded: (signal: Int32, until: DispatchTime)?
        var ending: Ending?
        // Polled without reaping (WNOWAIT): until it is reaped its pid, and so its group id, cannot be
        // reused, so the group killed below is its own.
        while true {
            if pipeOpen {
                var request = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                if poll(&request, 1, 2) > 0 { pipeOpen = tail.drain(readEnd, atMost: 1 << 20) }
            } else {
                usleep(2_000)
            }
            if hasEnded(child) { break }
            if forwarded == nil, let signal = Interruption.caught {
                kill(-child, signal)
                forwarded = (signal, DispatchTime.now() + graceSeconds)
            }
            if let forwarded {
                if DispatchTime.now() >= forwarded.until { ending = .interrupted(forwarded.signal); break }
            } else if DispatchTime.now() >= deadline {
                ending = .timedOut
                break
            }
        }
        kill(-child, SIGKILL)  // at the timeout or the grace's end, the program; after it ended, whatever it left running
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        if pipeOpen { _ = tail.drain(readEnd, atMost: Int.max) }
        if ending == nil {
            let signal = status & 0x7F
            if let forwarded { ending = .interrupted(forwarded.signal) } else if signal != 0 { ending = .signalled(signal) } else { ending = .exited((status >> 8) & 0xFF) }
        }
        return Outcome(ending: ending ?? .timedOut, stderrTail: tail.bytes)
    }

    /// posix_spawnp in a new process group, stdin /dev/null, stdout discarded, stderr into `stderr`,
    /// no other descriptor of this process; no signal blocked and every signal at its default:
    /// soundpack's own mask (a worker thread's blocked signals) and ignored SIGPIPE must not reach a
    /// program that bounds itself with a signal. ETXTBSY is retried for a moment: a script written
    /// just now can be held open for writing by a process another thread is starting, until that
    /// process closes its inherited descriptors.
    private static func spawn(_ program: String, _ arguments: [String], environment: [String: String], unsetting: Set<String>,
                              stderr: Int32, pid: inout pid_t) -> Int32 {
        var started = spawnOnce(program, arguments, environment: environment, unsetting: unsetting, stderr: stderr, pid: &pid)
        for _ in 0..<50 where started == ETXTBSY {
            usleep(10_000)
            started = spawnOnce(program, arguments, environment: environment, unsetting: unsetting, stderr: stderr, pid: &pid)
        }
        return started
    }

    #if os(Linux)
    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34 and later), found at run time: its
    /// header needs _GNU_SOURCE, and a C module compiled so defines fd_set unlike the toolchain's
    /// Dispatch module, which a clean build refuses. Without it (older glibc) nothing is added.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }

    /// Adds an action closing every descriptor from `first` up in the child.
    private static func closeFrom(_ first: Int32, in actions: inout posix_spawn_file_actions_t) {
        _ = addCloseFrom?(&actions, first)
    }
    #endif

    private static func spawnOnce(_ program: String, _ arguments: [String], environment: [String: String], unsetting: Set<String>,
                                  stderr: Int32, pid: inout pid_t) -> Int32 {
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t?
        var actions: posix_spawn_file_actions_t?
        #else
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        #if canImport(Darwin)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_CLOEXEC_DEFAULT))
        #else
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        #endif
        posix_spawnattr_setpgroup(&attributes, 0)
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        #if os(Linux)
        Self.closeFrom(3, in: &actions)
        #endif

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        #if canImport(Glibc)
        let inherited = Glibc.environ
        #else
        let inherited = environ
        #endif
        guard !environment.isEmpty || !unsetting.isEmpty else { return posix_spawnp(&pid, program, &actions, &attributes, argv, inherited) }
        var envp: [UnsafeMutablePointer<CChar>?] = []
        var index = 0
        while let entry = inherited[index] {
            let name = String(cString: entry).prefix { $0 != "=" }
            if environment[String(name)] == nil && !unsetting.contains(String(name)) { envp.append(strdup(entry)) }
            index += 1
        }
        envp += environment.map { strdup("\($0.key)=\($0.value)") }
        envp.append(nil)
        defer { for pointer in envp { free(pointer) } }
        return posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
    }

    /// Whether `child` has ended, without reaping it.
    private static func hasEnded(_ child: pid_t) -> Bool {
        var info = siginfo_t()
        while true {
            let polled = waitid(P_PID, id_t(child), &info, WEXITED | WNOHANG | WNOWAIT)
            if polled < 0 && errno == EINTR { continue }
            #if canImport(Darwin)
            return polled < 0 || info.si_pid == child
            #else
            return polled < 0 || info._sifields._sigchld.si_pid == child
            #endif
        }
    }

    /// A signal's name for a message: SIGSEGV, SIGABRT…; else its number.
    package static func name(ofSignal signal: Int32) -> String {
        let names: [Int32: String] = [SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
                                      SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
                                      SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ"]
        return names[signal] ?? "signal \(signal)"
    }

    /// The program this process runs, for starting it again as a worker: /proc/self/exe on Linux
    /// (the running file even if it was replaced since), the executable's path on macOS; nil when
    /// it cannot be known.
    package static var runningProgram: String? {
        #if os(Linux)
        return access("/proc/self/exe", X_OK) == 0 ? "/proc/self/exe" : nil
        #elseif canImport(Darwin)
        var size: UInt32 = 0
        _ = _NSGetExecutablePath(nil, &size)
        var buffer = [CChar](repeating: 0, count: Int(size) + 1)
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        return String(cString: buffer)
        #else
        return nil
        #endif
    }
}

/// The last `capacity` bytes of a stream.
struct ByteTail {
    let capacity: Int
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { self.capacity = capacity }

    mutating func append(_ chunk: UnsafeRawBufferPointer) {
        if chunk.count >= capacity {
            bytes = Array(chunk.suffix(capacity))
        } else {
            bytes.append(contentsOf: chunk)
            if bytes.count > capacity { bytes.removeFirst(bytes.count - capacity) }
        }
    }

    /// Reads what `fd` (non-blocking) holds now, up to `limit` bytes; false at its end.
    mutating func drain(_ fd: Int32, atMost limit: Int) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var total = 0
        while total < limit {
            let n = buffer.withUnsafeMutableBytes { SystemCall.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer.withUnsafeBytes { append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                total += n
                continue
            }
            if n < 0 && errno == EINTR { continue }
            return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
        }
        return true
    }
}

/// SIGINT, SIGTERM and SIGHUP while a job that runs programs is under way: caught instead of ending
/// soundpack at once, so the running program's group gets the signal (ChildProcess forwards it),
/// the job stops and cleans up, and the process then ends with the signal (the caller re-raises it).
package enum Interruption {
    private static let received = Atomic<Int32>(0)
    package static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The signal caught while `catching` ran; nil when none was.
    package static var caught: Int32? {
        let signal = received.load(ordering: .acquiring)
        return signal == 0 ? nil : signal
    }

    /// Runs `body` with the signals caught, then restores what was there before. A signal ignored
    /// when soundpack started (a background job of a shell without job control ignores SIGINT) stays
    /// ignored. Only a program that owns its process should call this (the soundpack binary), and
    /// not from two threads at once.
    package static func catching<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        received.store(0, ordering: .releasing)  // also initialises it before a handler can touch it
        let previous = signals.map { signal(Int32($0), record) }
        for (number, handler) in zip(signals, previous) where unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
            signal(number, SIG_IGN)
        }
        defer { for (number, handler) in zip(signals, previous) { signal(number, handler) } }
        return try body()
    }

    /// The error a job ends with when interrupted.
    package static func error(_ signal: Int32) -> SoundpackError {
        .environment("interrupted by \(ChildProcess.name(ofSignal: signal))", "the running engine was stopped and the working files removed")
    }

    private static let record: @convention(c) (Int32) -> Void = { signal in
        Interruption.received.store(signal, ordering: .releasing)
    }
}

// The extension's memory as iOS limits it: a meter of the most heap a run of the extension holds,
// for tests that hold each of its paths under a budget.

#if os(Linux)
import CMalloc
import Foundation

/// Stand-in only: the peak of the heap a run of the extension holds. iOS ends a service extension
/// whose memory footprint passes its limit, and then no notification is shown at all. Apple
/// documents no number; the public reports give "ActiveHard 24 MB" in the jetsam report of a killed
/// extension (nextcloud/talk-ios #1223), and 12–16 MB on older iOS 13 devices (element-ios #3868,
/// deltachat-ios PR #2477). The meter does not end the run: a test holds the peak under `budget`
/// and fails with the figure.
///
/// How it measures: glibc's count of live heap bytes (mallinfo2(3), `uordblks` + `hblkhd`: every
/// arena and every mmapped chunk), sampled by a thread of its own every millisecond and at each
/// stand-in call (a file read or written, a buffer made) while `measure` runs; the figure is the
/// highest sample less the count when the run began. What a stand-in keeps in memory where the
/// phone keeps it on disk — the samples of a file open for reading (AVAudioFile reads the file as
/// it is asked to), those written before the file is closed — is declared by the stand-in
/// (`hold`/`release`) and not counted, and no sample is taken while a stand-in does that
/// bookkeeping (`standInWork`).
///
/// Its limits: the heap is the whole process's, so tests running beside the measured one can
/// raise a sample (a failure that is not the extension's) or, freeing memory while it runs, lower
/// one by as much — by 10 MiB in a full test run here: measure in a process of its own, where the
/// run is alone; an allocation that lives under a millisecond between two stand-in
/// calls can be missed; memory outside malloc (thread stacks, mapped files) and the frameworks'
/// own (code, the system voice, Core Audio's converters) is not counted — which is why the budget
/// is half the 24 MB at which a phone ends the extension.
@_spi(StandIn) public enum ExtensionMemory {
    /// The footprint at which iOS ends the extension ("ActiveHard 24 MB", nextcloud/talk-ios #1223).
    public static let killedAt = 24 * 1_000_000
    /// What the extension's own work may hold at its peak: 12 MiB, the lowest limit reported for
    /// iOS 13 devices, leaving the rest of 24 MB to the frameworks.
    public static let budget = 12 << 20

    /// One measured run.
    public struct Reading: Sendable, CustomStringConvertible {
        /// The most heap the run held above what the process held when it began, in bytes.
        public var peakBytes: Int
        /// How many times the heap was sampled.
        public var samples: Int

        public init(peakBytes: Int, samples: Int) {
            self.peakBytes = peakBytes
            self.samples = samples
        }

        public var description: String { String(format: "%.2f MiB at its peak (%d samples)", Double(peakBytes) / Double(1 << 20), samples) }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var run = 0
    nonisolated(unsafe) private static var metering = false
    nonisolated(unsafe) private static var baseline = 0
    nonisolated(unsafe) private static var peak = 0
    nonisolated(unsafe) private static var samples = 0
    nonisolated(unsafe) private static var held = 0
    nonisolated(unsafe) private static var inStandInWork = 0

    /// Runs `body` (one path of the extension) and returns its result with the most heap it held.
    /// One measurement at a time.
    public static func measure<T>(_ body: () async throws -> T) async rethrows -> (value: T, reading: Reading) {
        let mine = begin()
        Thread {
            while isMetering(mine) {
                sample()
                usleep(1_000)
            }
        }.start()
        let value: T
        do {
            value = try await body()
        } catch {
            _ = finish()
            throw error
        }
        return (value, finish())
    }

    private static func begin() -> Int {
        lock.lock()
        defer { lock.unlock() }
        precondition(!metering, "ExtensionMemory: one measurement at a time")
        run += 1
        metering = true
        baseline = Int(soundpack_heap_in_use()) - held
        peak = 0
        samples = 0
        return run
    }

    private static func finish() -> Reading {
        sample()
        lock.lock()
        defer { lock.unlock() }
        metering = false
        return Reading(peakBytes: peak, samples: samples)
    }

    private static func isMetering(_ run: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return metering && self.run == run
    }

    /// Samples the heap now (the stand-ins call it where the extension calls them).
    public static func sample() {
        lock.lock()
        defer { lock.unlock() }
        guard metering, inStandInWork == 0 else { return }
        peak = max(peak, Int(soundpack_heap_in_use()) - held - baseline)
        samples += 1
    }

    /// Runs a stand-in's own bookkeeping (decoding a file it keeps whole, copying what it writes):
    /// no sample is taken while it runs, and what it keeps is declared with `hold` before it ends.
    public static func standInWork<T>(_ body: () throws -> T) rethrows -> T {
        sample()
        lock.lock()
        inStandInWork += 1
        lock.unlock()
        defer {
            lock.lock()
            inStandInWork -= 1
            lock.unlock()
            sample()
        }
        return try body()
    }

    /// Inside `standInWork`: `bytes` more that the stand-in keeps in memory where the phone keeps
    /// them on disk (negative: released).
    public static func hold(_ bytes: Int) {
        lock.lock()
        held += bytes
        lock.unlock()
    }
}
#endif

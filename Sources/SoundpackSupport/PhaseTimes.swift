// Where a run's time goes, phase by phase: `soundpack publish` and `validate` with SOUNDPACK_TIMINGS=1 print
// each measured phase's calls and their summed wall time on stderr. The table is the process's:
// while it is on, every run in the process adds to it (the command line runs one). Off (the
// default), a measured call costs one uncontended lock.

import Dispatch
import Foundation

package enum PhaseTimes {
    /// One phase: how many calls were measured and their wall time, summed.
    package struct Phase: Equatable, Sendable {
        package var name: String
        package var calls: Int
        package var nanoseconds: UInt64
    }

    private final class Table: @unchecked Sendable {
        let lock = NSLock()
        var on = false
        var phases: [Phase] = []
    }

    private static let table = Table()

    /// Starts measuring, from an empty table.
    package static func start() {
        table.lock.lock()
        (table.on, table.phases) = (true, [])
        table.lock.unlock()
    }

    /// Stops measuring; returns the phases in the order they were first measured.
    package static func stop() -> [Phase] {
        table.lock.lock()
        defer { table.lock.unlock() }
        table.on = false
        return table.phases
    }

    /// Whether phases are being measured: for a caller that adds up a phase's time in a loop of its
    /// own and reports it once (`add(_:nanoseconds:)`), so its loop takes no lock.
    package static var isOn: Bool {
        table.lock.lock()
        defer { table.lock.unlock() }
        return table.on
    }

    /// `body`, its wall time added to `phase` while measuring.
    package static func measure<T, Failure: Error>(_ phase: String, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        guard isOn else { return try body() }
        let start = DispatchTime.now().uptimeNanoseconds
        defer { add(phase, DispatchTime.now().uptimeNanoseconds - start) }
        return try body()
    }

    /// Counts one event of `phase` that has no time of its own (a request answered 501, say).
    package static func count(_ phase: String) {
        guard isOn else { return }
        add(phase, 0)
    }

    /// Adds one call of `phase` that took `nanoseconds` in all (a time summed by the caller).
    package static func add(_ phase: String, nanoseconds: UInt64) { add(phase, nanoseconds) }

    private static func add(_ phase: String, _ nanoseconds: UInt64) {
        table.lock.lock()
        defer { table.lock.unlock() }
        guard table.on else { return }
        if let index = table.phases.firstIndex(where: { $0.name == phase }) {
            table.phases[index].calls += 1
            table.phases[index].nanoseconds += nanoseconds
        } else {
            table.phases.append(Phase(name: phase, calls: 1, nanoseconds: nanoseconds))
        }
    }

    /// The phases as a table for a terminal: name, calls, milliseconds.
    package static func table(_ phases: [Phase]) -> String {
        let width = max(24, phases.map(\.name.count).max() ?? 0)
        var lines = ["phase".padding(toLength: width, withPad: " ", startingAt: 0) + "   calls          ms"]
        for phase in phases {
            let ms = String(format: "%.1f", Double(phase.nanoseconds) / 1e6)
            lines.append(phase.name.padding(toLength: width, withPad: " ", startingAt: 0)
                         + String(repeating: " ", count: max(0, 8 - String(phase.calls).count)) + String(phase.calls)
                         + String(repeating: " ", count: max(0, 12 - ms.count)) + ms)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

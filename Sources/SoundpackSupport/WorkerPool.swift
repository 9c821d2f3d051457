// Runs independent jobs on every core, stopping early at the first failure.

import Dispatch
import Foundation
import Synchronization

package enum WorkerPool {
    /// Calls `job` for every index in `0..<count`, on up to one worker per core; each worker takes
    /// the next index when it is free, so slow and fast jobs balance. After a job throws, no new
    /// job starts; the first error is rethrown once all workers stopped.
    package static func run<Failure: Error>(_ count: Int, job: @Sendable (Int) throws(Failure) -> Void) throws(Failure) {
        guard count > 0 else { return }
        let firstFailure = Mutex<Failure?>(nil)
        let workers = max(1, min(ProcessInfo.activeCores, count))
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < count, firstFailure.withLock({ $0 == nil }) else { return }
                do throws(Failure) { try job(index) } catch {
                    firstFailure.withLock { if $0 == nil { $0 = error } }
                }
            }
        }
        if let failure = firstFailure.withLock({ $0 }) { throw failure }
    }

    /// Like `run`, for jobs that mostly wait (network requests): `workers` threads of their own,
    /// however many cores there are.
    package static func runBlocking<Failure: Error>(_ count: Int, workers: Int, job: @escaping @Sendable (Int) throws(Failure) -> Void) throws(Failure) {
        guard count > 0 else { return }
        let firstFailure = Mutex<Failure?>(nil)
        let next = Atomic<Int>(0)
        let done = DispatchGroup()
        for _ in 0..<max(1, min(workers, count)) {
            done.enter()
            let thread = Thread {
                defer { done.leave() }
                while true {
                    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard index < count, firstFailure.withLock({ $0 == nil }) else { return }
                    do throws(Failure) { try job(index) } catch {
                        firstFailure.withLock { if $0 == nil { $0 = error } }
                    }
                }
            }
            thread.start()
        }
        done.wait()
        if let failure = firstFailure.withLock({ $0 }) { throw failure }
    }

    /// `(0..<count).map(transform)` for transforms that mostly wait (network requests), on
    /// `workers` threads of their own; results in index order.
    package static func mapBlocking<T: Sendable>(_ count: Int, workers: Int, _ transform: @escaping @Sendable (Int) -> T) -> [T] {
        let results = Mutex<[T?]>(Array(repeating: nil, count: count))
        runBlocking(count, workers: workers) { (index: Int) throws(Never) in
            let value = transform(index)
            results.withLock { $0[index] = value }
        }
        return results.withLock { $0.map { $0! } }
    }

    /// `(0..<count).map(transform)`, computed on every core; results in index order.
    package static func map<T: Sendable>(_ count: Int, _ transform: @Sendable (Int) -> T) -> [T] {
        let results = Mutex<[T?]>(Array(repeating: nil, count: count))
        run(count) { (index: Int) throws(Never) in
            let value = transform(index)
            results.withLock { $0[index] = value }
        }
        return results.withLock { $0.map { $0! } }
    }
}

/// A value made on a thread of its own from the moment it is created, while the caller goes on
/// with other work; `value` waits for it. It is not let go before the value is made, so its
/// thread never outlives its owner's use of it.
package final class Background<Value: Sendable>: Sendable {
    private final class State: Sendable {
        let result = Mutex<Value?>(nil)
        let done = DispatchSemaphore(value: 0)
    }
    private let state = State()

    package init(_ make: @escaping @Sendable () -> Value) {
        let state = self.state
        Thread {
            let value = make()
            state.result.withLock { $0 = value }
            state.done.signal()
        }.start()
    }

    /// The value, once made: the first call waits for it, later ones do not.
    package var value: Value {
        if let value = state.result.withLock({ $0 }) { return value }
        state.done.wait()
        state.done.signal()  // for a caller on another thread waiting at the same time
        return state.result.withLock { $0! }
    }

    deinit {
        if state.result.withLock({ $0 == nil }) { state.done.wait() }
    }
}

// Runs independent jobs on every core, stopping early at the first failure.

import Dispatch
import Foundation
import Synchronization

public enum WorkerPool {
    /// Calls `job` for every index in `0..<count`, on up to one worker per core. After a job
    /// throws, no new job starts; the first error is rethrown once all workers stopped.
    public static func run<Failure: Error>(_ count: Int, job: @Sendable (Int) throws(Failure) -> Void) throws(Failure) {
        guard count > 0 else { return }
        let firstFailure = Mutex<Failure?>(nil)
        let workers = max(1, min(ProcessInfo.activeCores, count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: count, by: workers) {
                if firstFailure.withLock({ $0 != nil }) { return }
                do throws(Failure) { try job(index) } catch {
                    firstFailure.withLock { if $0 == nil { $0 = error } }
                }
            }
        }
        if let failure = firstFailure.withLock({ $0 }) { throw failure }
    }
}

extension ProcessInfo {
    /// Cores this process may use.
    static var activeCores: Int { processInfo.activeProcessorCount }
}

// The worker pool render and validation share: every job once, and a failure stops new jobs; and
// a value made in the background while the caller goes on.

import Dispatch
import Foundation
import Synchronization
import Testing
@testable import SoundpackKit

@Suite struct WorkerPoolTests {
    struct Stop: Error, Equatable { var index: Int }

    @Test func everyIndexRunsExactlyOnce() {
        let seen = Mutex<[Int]>([])
        WorkerPool.run(1_000) { (index: Int) throws(Never) in seen.withLock { $0.append(index) } }
        #expect(seen.withLock { $0.sorted() } == Array(0..<1_000))
    }

    @Test func theFirstFailureIsRethrownAndLaterJobsDoNotStart() {
        let ran = Atomic<Int>(0)
        #expect(throws: Stop.self) {
            try WorkerPool.run(10_000) { (index: Int) throws(Stop) in
                ran.add(1, ordering: .relaxed)
                if index == 3 { throw Stop(index: index) }
            }
        }
        #expect(ran.load(ordering: .relaxed) < 10_000)
    }

    /// The value is made while the caller goes on: made in the caller's stead, it would wait out
    /// its 10 s for a signal the caller gives only once it has the Background back.
    @Test func aBackgroundValueIsMadeWhileTheCallerGoesOn() {
        let callerWentOn = DispatchSemaphore(value: 0)
        let made = Atomic<Int>(0)
        let background = Background { () -> Bool in
            made.add(1, ordering: .relaxed)
            return callerWentOn.wait(timeout: .now() + 10) == .success
        }
        callerWentOn.signal()
        // Asked on several threads at once: each gets the one value, made once.
        let values = WorkerPool.mapBlocking(4, workers: 4) { _ in background.value }
        #expect(values == [true, true, true, true])
        #expect(background.value)
        #expect(made.load(ordering: .relaxed) == 1)
    }

    /// Let go before its value is made (nobody asked for it), it waits for it: no read of a store
    /// goes on behind the caller's back once the caller is done with it.
    @Test func aBackgroundLetGoWaitsForItsValue() {
        let made = Atomic<Bool>(false)
        do {
            _ = Background { () -> Int in
                Thread.sleep(forTimeInterval: 0.05)
                made.store(true, ordering: .relaxed)
                return 0
            }
        }
        let wasMade = made.load(ordering: .relaxed)
        #expect(wasMade)
    }
}

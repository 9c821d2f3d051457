// The worker pool render and validation share: every job once, and a failure stops new jobs.

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
}

// Failures collected from several threads, for tests that run work concurrently.

import Foundation

public final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    public init() {}

    public func append(_ item: String) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    public var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

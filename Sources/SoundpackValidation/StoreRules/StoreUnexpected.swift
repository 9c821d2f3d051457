/// `store.unexpected` (error): a file in the store that no manifest lists, outside what an
/// interrupted publish leaves (`store.leftover`). Nothing of soundpack's put it there.

import SoundpackSupport
struct StoreUnexpected: StoreRule {
    static let id = RuleID.storeUnexpected
    static let severity = Severity.error
    static let summary = "A file in the store that no manifest lists."

    func check(_ store: StoreObservations) -> [Finding] {
        store.partitionedStrays.unexpected.map { finding($0, "in the store but in no manifest") }
    }
}

extension RuleID {
    /// `store.unexpected`, declared by `StoreUnexpected`.
    public static let storeUnexpected = RuleID(declaring: "store.unexpected")
}

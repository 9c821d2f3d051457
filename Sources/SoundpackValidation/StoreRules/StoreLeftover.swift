/// `store.leftover` (note).
struct StoreLeftover: Rule {
    static let id = RuleID.storeLeftover
    static let severity = Severity.note
    static let summary = "What an interrupted publish left (staging, temporary files, an unrecorded version, or files of a version whose manifest never went up); the next publish cleans or completes it."
    static let scope = RuleID.Scope.store
}

extension RuleID {
    /// `store.leftover`, declared by `StoreLeftover`.
    public static let storeLeftover = RuleID(declaring: "store.leftover")
}

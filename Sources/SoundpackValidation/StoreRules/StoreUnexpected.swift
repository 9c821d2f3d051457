/// `store.unexpected` (error).
struct StoreUnexpected: Rule {
    static let id = RuleID.storeUnexpected
    static let severity = Severity.error
    static let summary = "A file in the store that no manifest lists."
    static let scope = RuleID.Scope.store
}

extension RuleID {
    /// `store.unexpected`, declared by `StoreUnexpected`.
    public static let storeUnexpected = RuleID(declaring: "store.unexpected")
}

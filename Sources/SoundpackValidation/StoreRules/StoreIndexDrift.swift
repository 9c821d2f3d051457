/// `store.index` (error).
struct StoreIndexDrift: Rule {
    static let id = RuleID.storeIndex
    static let severity = Severity.error
    static let summary = "index.json does not match the catalog's published versions."
    static let scope = RuleID.Scope.store
}

extension RuleID {
    /// `store.index`, declared by `StoreIndexDrift`.
    public static let storeIndex = RuleID(declaring: "store.index")
}

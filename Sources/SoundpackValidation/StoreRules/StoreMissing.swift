/// `store.missing` (error).
struct StoreMissing: Rule {
    static let id = RuleID.storeMissing
    static let severity = Severity.error
    static let summary = "A file the catalog or a manifest lists is not in the store (or a signed manifest has no signature)."
    static let scope = RuleID.Scope.store
}

extension RuleID {
    /// `store.missing`, declared by `StoreMissing`.
    public static let storeMissing = RuleID(declaring: "store.missing")
}

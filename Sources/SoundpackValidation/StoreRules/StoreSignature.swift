/// `store.signature` (error).
struct StoreSignature: Rule {
    static let id = RuleID.storeSignature
    static let severity = Severity.error
    static let summary = "A manifest signature does not verify against the given public keys, or a version that must be signed is not."
    static let scope = RuleID.Scope.store
}

extension RuleID {
    /// `store.signature`, declared by `StoreSignature`.
    public static let storeSignature = RuleID(declaring: "store.signature")
}

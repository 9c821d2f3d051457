/// `store.index` (error): index.json is not one phones take, or does not list what the catalog's
/// published versions describe. Phones find packs through it.

import SoundpackSupport
struct StoreIndexMismatch: StoreRule {
    static let id = RuleID.storeIndex
    static let severity = Severity.error
    static let summary = "index.json does not match the catalog's published versions."

    func check(_ store: StoreObservations) -> [Finding] {
        switch store.index {
        case .refused(let reason): return [finding(store.indexKey, "not an index soundpack wrote, and phones refuse it: \(reason)")]
        case .differs(let packs) where packs.isEmpty:
            return [finding(store.indexKey, "does not match the catalog (soundpack publish rewrites it)")]
        case .differs(let packs):
            let named = packs.prefix(5).joined(separator: ", ") + (packs.count > 5 ? " and \(packs.count - 5) more" : "")
            return [finding(store.indexKey, "does not match the catalog in the entries of \(named) (soundpack publish of those packs' folders rewrites their entries)")]
        case .matches, .absent, .notRead: return []
        }
    }
}

extension RuleID {
    /// `store.index`, declared by `StoreIndexMismatch`.
    public static let storeIndex = RuleID(declaring: "store.index")
}

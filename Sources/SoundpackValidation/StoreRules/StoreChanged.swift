/// `store.changed` (error).
struct StoreChanged: Rule {
    static let id = RuleID.storeChanged
    static let severity = Severity.error
    static let summary = "A file's bytes differ from the SHA-256 its manifest or the catalog records, a manifest is not one soundpack wrote, or a FIFO, device, socket, folder or symbolic link stands where soundpack wrote a file (or the file is reached through a link)."
    static let scope = RuleID.Scope.store
}

extension RuleID {
    /// `store.changed`, declared by `StoreChanged`.
    public static let storeChanged = RuleID(declaring: "store.changed")
}

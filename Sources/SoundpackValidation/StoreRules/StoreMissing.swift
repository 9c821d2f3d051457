/// `store.missing` (error): a file the catalog or a manifest lists is not in the store, a signed
/// manifest's signature is missing or unreadable, or the store has no index.json while the catalog
/// has versions. Phones that follow the manifest would fail to download the file.

import SoundpackSupport
struct StoreMissing: StoreRule {
    static let id = RuleID.storeMissing
    static let severity = Severity.error
    static let summary = "A file the catalog or a manifest lists is not in the store (or a signed manifest has no signature)."

    func check(_ store: StoreObservations) -> [Finding] {
        var findings: [Finding] = []
        for looked in store.looked {
            guard let source = looked.listedBy, looked.found == .absent else { continue }
            findings.append(finding(looked.key, "listed in the \(source) but not in the store"))
        }
        for version in store.versions {
            guard case .read(_, _, let signature)? = version.manifest, let keyID = signature.keyID, !signature.read else { continue }
            findings.append(finding(signature.key, "the manifest is signed by key \(keyID) but the signature is missing or unreadable"))
        }
        if case .absent(expected: true) = store.index { findings.append(finding(store.indexKey, "the store has no index")) }
        return findings
    }
}

extension RuleID {
    /// `store.missing`, declared by `StoreMissing`.
    public static let storeMissing = RuleID(declaring: "store.missing")
}

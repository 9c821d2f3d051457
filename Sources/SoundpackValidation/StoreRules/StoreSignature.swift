import SoundpackCore
import SoundpackSupport

/// `store.signature` (error): with `--public-key`, a manifest whose signature does not verify, that
/// is signed by another key, or that is not signed (a note, not drift, for a version older than
/// `--unsigned-before`). A phone that checks signatures refuses such a version.
struct StoreSignature: StoreRule {
    static let id = RuleID.storeSignature
    static let severity = Severity.error
    static let summary = "A manifest signature does not verify against the given public keys, or a version that must be signed is not."

    func check(_ store: StoreObservations) -> [Finding] {
        store.versions.compactMap { version in
            guard case .read(_, _, let signature)? = version.manifest else { return nil }
            return check(signature, of: version, keysGiven: store.keysGiven)
        }
    }

    private func check(_ signature: StoreObservations.Signature, of version: StoreObservations.Version, keysGiven: Int) -> Finding? {
        let (id, number, manifestKey) = (version.id, version.version, version.manifestKey)
        guard let keyID = signature.keyID else {
            guard keysGiven > 0 else { return nil }
            if let cutoff = version.unsignedBefore, number < cutoff {
                return finding(manifestKey, "\(PackRef.name(id, number)) is not signed; accepted, as it is older than \(PackRef.name(id, cutoff)) (--unsigned-before)", severity: .note)
            }
            return finding(manifestKey, "\(PackRef.name(id, number)) is not signed, and --public-key asks for a signature on every version (--unsigned-before \(id)@VERSION accepts older unsigned ones)")
        }
        guard signature.read else { return nil }  // store.missing
        if signature.verifies == false { return finding(signature.key, "the signature by key \(keyID) does not match manifest.json") }
        if signature.verifies == nil && keysGiven > 0 {
            return finding(manifestKey, "signed by key \(keyID), which is not one of the \(keysGiven) given with --public-key")
        }
        return nil
    }
}

extension RuleID {
    /// `store.signature`, declared by `StoreSignature`.
    public static let storeSignature = RuleID(declaring: "store.signature")
}

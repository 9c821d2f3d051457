/// `catalog.version-conflict` (error): the same id@version is already published (in the catalog or
/// only in the store) with other content, or comes twice in one run. Published versions never
/// change: a phone that cached the old clips would play a mix.

import SoundpackSupport
struct CatalogVersionConflict: PublicationRule {
    static let id = RuleID.catalogVersionConflict
    static let severity = Severity.error
    static let summary = "This id@version is already published with other content; published versions never change."

    func check(_ candidate: PublicationCandidate) -> Finding? {
        guard let same = candidate.existing, same.digest != candidate.digest else { return nil }
        let (theirs, ours) = (same.digest.prefix(12), candidate.digest.prefix(12))
        if same.place == .thisRun {
            return finding("\(candidate.name) comes twice in this run with different content (digests \(theirs) and \(ours)); only one can be published — bump the version of one")
        }
        return finding("\(candidate.name) is already published in the store \(candidate.store) with other content (digest \(theirs), this pack \(ours)); published versions never change — bump the version in pack.json")
    }
}

extension RuleID {
    /// `catalog.version-conflict`, declared by `CatalogVersionConflict`.
    public static let catalogVersionConflict = RuleID(declaring: "catalog.version-conflict")
}

/// `catalog.version-not-newer` (error): a new version that is not greater than every published one.
/// Phones and `export` take the newest version; an older number would never be served.

import SoundpackSupport
struct CatalogVersionNotNewer: PublicationRule {
    static let id = RuleID.catalogVersionNotNewer
    static let severity = Severity.error
    static let summary = "A new version must be greater than every published version of the pack."

    func check(_ candidate: PublicationCandidate) -> Finding? {
        guard candidate.existing == nil, let newest = candidate.newest, !(newest < candidate.version) else { return nil }
        return finding("\(candidate.name) is not newer than the published \(newest); a new version must be greater than every published one")
    }
}

extension RuleID {
    /// `catalog.version-not-newer`, declared by `CatalogVersionNotNewer`.
    public static let catalogVersionNotNewer = RuleID(declaring: "catalog.version-not-newer")
}

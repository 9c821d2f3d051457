/// `catalog.version-yanked` (error): the same content was published under this id@version and
/// yanked. A yank is final: publishing it again would bring back what was withdrawn.

import SoundpackSupport
struct CatalogVersionYanked: PublicationRule {
    static let id = RuleID.catalogVersionYanked
    static let severity = Severity.error
    static let summary = "This id@version was yanked; a yanked version is never published again."

    func check(_ candidate: PublicationCandidate) -> Finding? {
        guard let same = candidate.existing, same.yanked else { return nil }
        return finding("\(candidate.name) was yanked (\(same.yankReason ?? "no reason given")) and can never be published again; bump the version")
    }
}

extension RuleID {
    /// `catalog.version-yanked`, declared by `CatalogVersionYanked`.
    public static let catalogVersionYanked = RuleID(declaring: "catalog.version-yanked")
}

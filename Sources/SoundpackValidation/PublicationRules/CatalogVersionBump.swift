/// `catalog.version-bump` (error): the version bump is smaller than the change from the newest
/// published version needs (`VersionChange`): a removed token, phrase, grammar or sample-format
/// change needs a major bump, an added token a minor one. An app pinned to a major version must
/// never receive a pack it cannot read.

import SoundpackSupport
struct CatalogVersionBump: PublicationRule {
    static let id = RuleID.catalogVersionBump
    static let severity = Severity.error
    static let summary = "The version bump is smaller than the change needs: a removed token, a grammar or sample-format change needs a major bump, an added token a minor one."

    func check(_ candidate: PublicationCandidate) -> Finding? {
        guard let newest = candidate.newest, let change = candidate.change else { return nil }
        let bump = Bump.between(newest, candidate.version)
        guard bump < change.required else { return nil }
        let reasons = change.items.filter { $0.needs > bump }.map { "\($0.kind) (\($0.detail)) needs a \($0.needs.name) bump" }
        return finding("\(candidate.name) is a \(bump.name) bump from \(newest), but \(reasons.joined(separator: "; "))")
    }
}

extension RuleID {
    /// `catalog.version-bump`, declared by `CatalogVersionBump`.
    public static let catalogVersionBump = RuleID(declaring: "catalog.version-bump")
}

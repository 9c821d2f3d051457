// The rules of `publish` that refuse a version for what the store already holds, each in its own
// file here, run in order over what publish knows of the version when it asks.

import SoundpackCore
import SoundpackSupport

/// A version publish is about to write, and what it has learnt of the pack's published versions
/// by the time it asks its rules: publish asks once it knows whether the same id@version exists,
/// and again once it knows the newest published version and the change from it.
package struct PublicationCandidate: Sendable {
    /// The same id@version, found before this one is written.
    package struct Existing: Sendable {
        /// Where it was found: the catalog, the store (a version the catalog lacks), or earlier in
        /// this run (a dry run's plan).
        package enum Place: Sendable { case catalog, store, thisRun }
        package var place: Place
        package var digest: String
        package var yanked: Bool
        package var yankReason: String?

        package init(place: Place, digest: String, yanked: Bool = false, yankReason: String? = nil) {
            (self.place, self.digest, self.yanked, self.yankReason) = (place, digest, yanked, yankReason)
        }
    }

    package var id: String
    package var version: SemanticVersion
    package var digest: String
    /// The store, as messages show it.
    package var store: String
    package var existing: Existing?
    /// The newest published version of the pack, when it has one and no version is the same.
    package var newest: SemanticVersion?
    /// The change from `newest`, when the bump is checked (not for a pre-release's successor of the
    /// same version, nor when the catalog has no record of `newest`).
    package var change: VersionChange?

    package init(id: String, version: SemanticVersion, digest: String, store: String) {
        (self.id, self.version, self.digest, self.store) = (id, version, digest, store)
    }

    /// `id@version`, as messages name it.
    var name: String { PackRef.name(id, version) }

    /// The first refusal of the publication rules, in order; nil when none refuses.
    package var refusal: Finding? {
        for rule in Self.rules { if let finding = rule.check(self) { return finding } }
        return nil
    }

    /// Every publication rule, in the order publish asks them: `RuleBook.rules`' publication rules.
    static let rules: [any PublicationRule] = RuleBook.rules.compactMap { $0 as? any PublicationRule }
}

/// A rule of `publish` (`Rule`: id, severity, summary) and its check of one candidate version: a
/// finding refuses it.
protocol PublicationRule: Rule {
    func check(_ candidate: PublicationCandidate) -> Finding?
}

extension PublicationRule {
    static var scope: RuleID.Scope { .publication }

    /// A finding of this rule, at its severity.
    func finding(_ message: String) -> Finding { Finding(Self.id, Self.severity, message) }
}

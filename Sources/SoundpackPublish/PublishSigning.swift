// What `publish --sign-key` actually signed: a key given to a run that publishes nothing new signs
// nothing, and a team that adopts signing must hear that its published versions stay unsigned.

import SoundpackCore
import SoundpackStore
import SoundpackSupport

/// The signatures of one publish run with a signing key.
public struct PublishSigning: Sendable, Equatable {
    /// The key's id (the first 16 hex digits of its SHA-256).
    public var keyID: String
    /// The versions this run published, each signed by the key.
    public var signed: [String]
    /// Versions the run found already published, and the key each is signed by (nil: unsigned).
    public var alreadyPublished: [(version: String, signedBy: String?)]

    /// Equal when the key, the signed versions and the already published ones (with their keys) are.
    public static func == (a: PublishSigning, b: PublishSigning) -> Bool {
        a.keyID == b.keyID && a.signed == b.signed && a.alreadyPublished.map(\.version) == b.alreadyPublished.map(\.version)
            && a.alreadyPublished.map(\.signedBy) == b.alreadyPublished.map(\.signedBy)
    }

    /// What the run signed, from its outcomes and the manifests of the versions it left unchanged.
    public static func of(_ outcomes: [PublishOutcome], keyID: String, store: Store) throws(SoundpackError) -> PublishSigning {
        var result = PublishSigning(keyID: keyID, signed: [], alreadyPublished: [])
        for outcome in outcomes {
            guard let id = outcome.id, let version = outcome.version else { continue }
            switch outcome.status {
            case .published: result.signed.append(PackRef.name(id, version))
            case .unchanged: result.alreadyPublished.append((PackRef.name(id, version), try store.storedManifest(id, version)?.signingKey))
            case .refused, .wouldPublish: continue
            }
        }
        return result
    }

    /// One line: how many versions were signed, and which already published ones are not signed
    /// by this key (unsigned, or by another), since a published version never changes.
    public var summary: String {
        var text = "\(signed.count) version\(signed.count == 1 ? "" : "s") signed with key \(keyID)"
        let unsigned = alreadyPublished.filter { $0.signedBy == nil }.map(\.version)
        // A key id read back from the store is untrusted text on its way to a terminal.
        let otherKey = alreadyPublished.compactMap { entry in
            entry.signedBy.flatMap { $0 == keyID ? nil : "\(entry.version) (key \($0.visible))" }
        }
        var notes: [String] = []
        if !unsigned.isEmpty { notes.append("\(unsigned.joined(separator: ", ")) already published unsigned") }
        if !otherKey.isEmpty { notes.append("\(otherKey.joined(separator: ", ")) already published signed by another key") }
        if !notes.isEmpty { text += ": " + notes.joined(separator: "; ") + "; a published version never changes (publish a new version to sign it)" }
        return text
    }
}

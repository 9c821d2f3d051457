import SoundpackCore
import SoundpackSupport

/// `file.unreadable` (error): the clip file is missing, empty, truncated, not audio, or above the
/// size, channel, rate or length caps. The message says which, and for a phrase's own clip which
/// phrases cannot be said without it. A clip known to be in a format iOS does not play (M4A) is
/// `format.unsupported`'s, not this rule's.
struct FileUnreadable: PackRule {
    static let id = RuleID.fileUnreadable
    static let severity = Severity.error
    static let summary = "A clip file is missing, empty, truncated, not audio, or above the size, channel, rate or length caps."

    func check(_ pack: InspectedPack) -> [Finding] {
        let book = pack.packFile?.phrasebook
        return pack.clips.compactMap { clip in
            guard case .failure(let error)? = clip.probe else { return nil }
            if case .unsupportedFormat = error.kind { return nil }
            let users = book.flatMap { book in clip.token.map { book.isDeclared ? book.phrases(saying: $0).map { "'\($0.id)'" } : [] } } ?? []
            let unsaid = users.isEmpty ? "" : " (phrase\(users.count == 1 ? "" : "s") \(users.joined(separator: ", ")) cannot be said)"
            return finding(token: clip.key, file: clip.path, "cannot read clip for '\(clip.key)': \(error.message)\(unsaid)")
        }
    }
}

extension RuleID {
    /// `file.unreadable`, declared by `FileUnreadable`.
    public static let fileUnreadable = RuleID(declaring: "file.unreadable")
}

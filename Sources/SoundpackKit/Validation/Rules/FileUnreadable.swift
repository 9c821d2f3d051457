/// `file.unreadable` (error): the clip file is missing, empty, truncated, not audio, or above the
/// size, channel, rate or length caps. The message says which.
struct FileUnreadable: ValidationRule {
    static let id = RuleID.fileUnreadable

    func check(_ pack: InspectedPack) -> [Finding] {
        pack.clips.compactMap { clip in
            guard case .failure(let error)? = clip.probe else { return nil }
            return Finding(Self.id, .error, token: clip.key, file: clip.path, "cannot read clip for '\(clip.key)': \(error.message)")
        }
    }
}

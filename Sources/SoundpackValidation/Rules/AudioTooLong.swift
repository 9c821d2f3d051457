import SoundpackSupport

/// `audio.too-long` (error): one clip longer than `checks.maxClipSeconds` (default 3 s), or for
/// the prefix and suffix `checks.maxPrefixSeconds` (default 5 s). Long clips make every
/// announcement slow and push it toward the 30 s limit.
struct AudioTooLong: PackRule {
    static let id = RuleID.audioTooLong
    static let severity = Severity.error
    static let summary = "A clip is longer than checks.maxClipSeconds (prefix and suffix: checks.maxPrefixSeconds)."

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let checks = pack.packFile?.checks else { return [] }
        return pack.clips.compactMap { clip in
            guard let facts = clip.facts else { return nil }
            let isFrame = clip.token == .prefix || clip.token == .suffix
            let limit = isFrame ? checks.maxPrefixSeconds : checks.maxClipSeconds
            guard facts.durationSeconds > limit else { return nil }
            return finding(token: clip.key, file: clip.path,
                           "clip lasts \(Format.seconds(facts.durationSeconds)), above the \(Format.seconds(limit)) limit (checks.\(isFrame ? "maxPrefixSeconds" : "maxClipSeconds"))")
        }
    }
}

extension RuleID {
    /// `audio.too-long`, declared by `AudioTooLong`.
    public static let audioTooLong = RuleID(declaring: "audio.too-long")
}

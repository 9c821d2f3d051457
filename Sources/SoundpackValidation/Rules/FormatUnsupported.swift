import SoundpackCore
import SoundpackSupport

/// `format.unsupported` (error): container or codec outside the pack's profile. For
/// `ios-notification`, iOS plays a notification sound only as aiff, wav or caf holding linear PCM,
/// IMA4, µLaw or aLaw; anything else silently falls back to the default sound. An MP4/M4A clip
/// (AAC or ALAC) is known by its boxes and reported without being decoded: `convert` reads it.
struct FormatUnsupported: PackRule {
    static let id = RuleID.formatUnsupported
    static let severity = Severity.error
    static let summary = "Container or codec outside the profile: iOS plays a notification sound only as aiff, wav or caf with linear PCM, IMA4, µLaw or aLaw."
    static let containers: Set<Container> = [.aiff, .aifc, .wav, .caf]
    static let codecs: Set<Codec> = [.lpcm, .ima4, .ulaw, .alaw]

    func check(_ pack: InspectedPack) -> [Finding] {
        pack.clips.compactMap { clip in
            if case .failure(let error)? = clip.probe, case .unsupportedFormat = error.kind {
                return finding(token: clip.key, file: clip.path, error.message)
            }
            guard let facts = clip.facts else { return nil }
            if !Self.containers.contains(facts.container) {
                return finding(token: clip.key, file: clip.path,
                               "container \(facts.container.rawValue) is not playable as an iOS notification sound; use caf, wav or aiff")
            }
            if !Self.codecs.contains(facts.codec) {
                return finding(token: clip.key, file: clip.path,
                               "codec \(facts.codec.rawValue) in \(facts.container.rawValue) is not playable as an iOS notification sound; use linear PCM, ima4 (in caf or aiff), µLaw or aLaw")
            }
            return nil
        }
    }
}

extension RuleID {
    /// `format.unsupported`, declared by `FormatUnsupported`.
    public static let formatUnsupported = RuleID(declaring: "format.unsupported")
}

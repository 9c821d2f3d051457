import SoundpackAudio
import SoundpackSupport

/// `format.mismatch` (error): clips differ in sample rate, channels or codec. The extension joins
/// clips byte by byte into one file; mixed formats join as noise or fail. Each clip that differs
/// from the most common format is named.
struct FormatMismatch: PackRule {
    static let id = RuleID.formatMismatch
    static let severity = Severity.error
    static let summary = "Clips differ in sample rate, channels or codec, so they join badly."

    func check(_ pack: InspectedPack) -> [Finding] {
        let readable = pack.clips.compactMap { clip in clip.facts.map { (clip, $0.format) } }
        var counts: [ClipFormat: Int] = [:]
        for (_, signature) in readable { counts[signature, default: 0] += 1 }
        guard counts.count > 1 else { return [] }
        // The most common format wins; ties go to the one that appears first (prefix first).
        let order = readable.map(\.1)
        guard let common = counts.max(by: { a, b in
            a.value != b.value ? a.value < b.value : (order.firstIndex(of: a.key) ?? 0) > (order.firstIndex(of: b.key) ?? 0)
        })?.key else { return [] }
        return readable.filter { $0.1 != common }.map { clip, signature in
            finding(token: clip.key, file: clip.path,
                    "clip is \(signature) but \(counts[common] ?? 0) other clips are \(common); convert it (soundpack convert)")
        }
    }
}

extension RuleID {
    /// `format.mismatch`, declared by `FormatMismatch`.
    public static let formatMismatch = RuleID(declaring: "format.mismatch")
}

import SoundpackCore
import SoundpackPack
import SoundpackSupport

/// `compose.download-size` (warning above `checks.maxAnnouncementBytes`, default 1 MiB): the clip
/// files of the heaviest announcement of any phrase and amount up to `maxAmount`. A phone that lacks
/// a clip downloads it inside the Notification Service Extension's time budget (about 30 s, on
/// whatever network the phone has), so every byte of the worst announcement is on that clock.
///
/// The weight is of **distinct files**, each counted once however often the announcement says it
/// (33333333.33 downloads `3` once): the extension fetches each missing file once, then joins. The
/// worst amount is found exactly, by a branch and bound over the reading's digits, not by sampling
/// amounts. Files are weighed as they lie in the pack, which is what the store serves.
struct ComposeDownloadSize: PackRule {
    static let id = RuleID.composeDownloadSize
    static let severity = Severity.warning
    static let summary = "The distinct clip files of the heaviest announcement up to maxAmount weigh more than checks.maxAnnouncementBytes; a phone lacking them downloads them within the notification extension's time budget."

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let manifest = pack.packFile else { return [] }
        let limit = Int64(manifest.checks.maxAnnouncementBytes)
        // Each distinct file once (keys naming one file share it), weighed by its size on disk.
        var fileOfPath: [[UInt8]: Int] = [:], weights: [Int64] = [], fileOfToken: [Token: Int] = [:]
        for clip in pack.clips where clip.unsafePath == nil {
            guard let token = clip.token else { continue }
            let key = PackPaths.normalized(clip.path).pathKey
            let file = fileOfPath[key] ?? {
                fileOfPath[key] = weights.count
                weights.append(Int64(clip.bytesOnDisk))
                return weights.count - 1
            }()
            fileOfToken[token] = file
        }
        // No announcement weighs more than every file it may need: most packs stop here.
        let needed = Set(pack.requiredTokens.compactMap { fileOfToken[$0] })
        guard needed.reduce(Int64(0), { $0 + weights[$1] }) > limit else { return [] }
        let book = manifest.phrasebook
        let heaviest = book.heaviestDownload(upTo: manifest.maxAmount, clip: { fileOfToken[$0] }, weights: weights, above: limit)
        guard heaviest.weight > limit else { return [] }
        let files = Set(heaviest.tokens.compactMap { fileOfToken[$0] }).count
        let said = ([book.isDeclared ? "phrase '\(heaviest.phrase.id)'" : nil, heaviest.amount.map { "amount \($0)" }].compactMap { $0 }).joined(separator: " with ")
        let text = manifest.grammar.text(of: heaviest.tokens, texts: manifest.texts)
        return [finding(at: "maxAmount",
                        "the heaviest announcement, for \(said) (\(text)), downloads \(files) clip files of \(Format.bytes(heaviest.weight)), above \(Format.bytes(limit)) (checks.maxAnnouncementBytes): a phone that lacks them fetches them within the notification extension's time budget; convert to 22.05 kHz mono (soundpack convert SRC DEST --rate 22050 --mono), and --codec ima4 for a quarter of 16-bit PCM, or lower maxAmount")]
    }
}

extension RuleID {
    /// `compose.download-size`, declared by `ComposeDownloadSize`.
    public static let composeDownloadSize = RuleID(declaring: "compose.download-size")
}

// The pack digest: SHA-256 over a canonical rendering of what a pack says and sounds like.

import Foundation
import SoundpackCore
import SoundpackSupport

package enum PackDigest {
    /// Canonical text: one `key=value` line per manifest field, then one `clip` line per clip in
    /// byte order of its key, with the SHA-256 of its bytes (`-` when the file could not be read).
    /// Formatting of pack.json (whitespace, key order) does not change the digest.
    /// `clipHashes`: the SHA-256 of each clip key's file, where it could be read.
    static func canonicalText(of manifest: PackFile, clipHashes: [String: String]) -> String {
        var lines = [
            "soundpack-pack-digest-v1",
            "id=\(manifest.id)",
            "version=\(manifest.version)",
            "grammar=\(manifest.grammar.id.rawValue)",
        ]
        // two always; the other reading options only when chosen, so packs that choose none keep
        // the digests they had before the options existed.
        lines += manifest.grammar.chosenOptions.map { "\($0.name)=\($0.value)" }
        lines += ["maxAmount=\(manifest.maxAmount)", "profile=\(manifest.profile.rawValue)"]
        for (key, value) in manifest.texts.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            lines.append("text \(key)\t\(value)")
        }
        // Phrases only when declared, so packs without them keep their digests.
        let book = manifest.phrasebook
        if book.isDeclared {
            lines.append("defaultPhrase=\(book.defaultID)")
            for phrase in book.phrases { lines.append("phrase \(phrase.id)\t\(phrase.pieces.joined(separator: " "))") }
        }
        // The engine that spoke the clips only when pack.json says one (synth), likewise.
        if let source = manifest.source {
            lines.append("sourceEngine=\(source.engine)")
            if let voice = source.voice { lines.append("sourceVoice=\(voice)") }
        }
        for (key, path) in manifest.clips.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            lines.append("clip \(key)\t\(path)\t\(clipHashes[key] ?? "-")")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    package static func digest(of manifest: PackFile, clipHashes: [String: String]) -> String {
        Digest.sha256Hex(Array(canonicalText(of: manifest, clipHashes: clipHashes).utf8))
    }
}

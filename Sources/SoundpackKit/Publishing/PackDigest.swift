// The pack digest: SHA-256 over a canonical rendering of what a pack says and sounds like.

import Foundation
import SoundpackCore

enum PackDigest {
    /// Canonical text: one `key=value` line per manifest field, then one `clip` line per clip in
    /// byte order of its key, with the SHA-256 of its bytes (`-` when the file could not be read).
    /// Formatting of pack.json (whitespace, key order) does not change the digest.
    static func canonicalText(of manifest: PackManifest, clips: [InspectedClip]) -> String {
        var lines = [
            "soundpack-pack-digest-v1",
            "id=\(manifest.id)",
            "version=\(manifest.version)",
            "grammar=\(manifest.grammar.id.rawValue)",
            "two=\(manifest.grammar.two.rawValue)",
            "maxAmount=\(manifest.maxAmount)",
            "profile=\(manifest.profile)",
        ]
        for (key, value) in manifest.texts.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }) {
            lines.append("text \(key)\t\(value)")
        }
        for clip in clips.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }) {
            lines.append("clip \(clip.key)\t\(clip.path)\t\(clip.facts?.sha256 ?? "-")")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func digest(of manifest: PackManifest, clips: [InspectedClip]) -> String {
        Digest.sha256Hex(Array(canonicalText(of: manifest, clips: clips).utf8))
    }
}

// Why an exported pack cannot be played: each case names the file at fault and what is wrong with it.
package soundpack.player

import java.io.File

/** A pack export that this player refuses to load. */
sealed class PackException(val file: File, val problem: String) : Exception("$file: $problem") {
    /** The manifest is not JSON, or a field is missing, of the wrong type or out of range. */
    class BadManifest(file: File, problem: String) : PackException(file, problem)

    /** The export was written for a newer player (its `format` or `minPlayerVersion`). */
    class TooNew(file: File, problem: String) : PackException(file, problem)

    /** A clip path that is not a plain `clips/NAME.wav` inside the export folder. */
    class UnsafePath(file: File, problem: String) : PackException(file, problem)

    /** A clip file that is missing, changed (size or SHA-256) or not the pack's PCM WAV. */
    class BadClip(file: File, problem: String) : PackException(file, problem)

    /** The reading table (DESIGN §3b) cannot be read with. */
    class BadReadingTable(file: File, problem: String) : PackException(file, problem)
}

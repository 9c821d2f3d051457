// An exported pack as loaded and checked (DESIGN §3c): immutable values, so that planning and
// joining never look at the manifest again.
package soundpack.player

import java.io.File

/** One piece of a phrase: a clip played as it is, or the amount's reading. */
sealed class Piece {
    data class Clip(val key: String) : Piece()
    object AmountReading : Piece() {
        override fun toString() = "{amount}"
    }
}

/** A clip of the export: its file and what the manifest promised about it (checked at load). */
data class Clip(val key: String, val file: File, val frames: Long, val bytes: Long, val sha256: String, val layout: WavLayout)

/** A loaded, checked Android export of one pack version. */
data class ExportedPack(
    val folder: File,
    val id: String,
    val version: String,
    val digest: String,
    val maxAmount: Amount,
    val pcm: PcmFormat,
    val phrases: Map<String, List<Piece>>,
    val defaultPhrase: String,
    val texts: Map<String, String>,
    val clips: Map<String, Clip>,
    val reading: ReadingTable
) {
    /** The key of the clip said alone when an announcement cannot be built (a missing clip). */
    val fallbackKey: String? get() = if (clips.containsKey(PREFIX)) PREFIX else null

    companion object {
        const val PREFIX = "prefix"
    }
}

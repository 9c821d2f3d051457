// Joins an announcement's clips into one PCM buffer, streamed from the clip files' data chunks:
// one format, no gaps, no player per clip, so the phone plays exactly what `render` writes.
package soundpack.player

import java.io.IOException
import java.io.RandomAccessFile

/** A clip an announcement needs that the pack cannot give: not in the export, or its file gone or changed. */
class MissingClipException(val key: String, reason: String) : IOException("clip \"$key\": $reason")

/** Joins clips of one loaded pack. */
class ClipJoiner(private val pack: ExportedPack, private val maxBytes: Long = DEFAULT_MAX_BYTES) {
    companion object {
        /** Bounds one announcement's buffer (about 6 minutes of 22.05 kHz mono). */
        const val DEFAULT_MAX_BYTES = 16L * 1024 * 1024
    }

    /** The PCM of `keys` back to back, in the pack's format; [MissingClipException] when one cannot be read. */
    fun join(keys: List<String>): ByteArray {
        val clips = keys.map { key -> pack.clips[key] ?: throw MissingClipException(key, "not in this pack's export") }
        val total = clips.fold(0L) { sum, clip -> sum + clip.layout.dataBytes }
        if (total > maxBytes) throw IOException("the announcement would be $total bytes, more than $maxBytes")
        val out = ByteArray(total.toInt())
        var at = 0
        for (clip in clips) {
            val size = clip.layout.dataBytes.toInt()
            try {
                RandomAccessFile(clip.file, "r").use { input ->
                    if (input.length() != clip.bytes) throw MissingClipException(clip.key, "${clip.file} changed since the pack was loaded")
                    input.seek(clip.layout.dataOffset)
                    input.readFully(out, at, size)
                }
            } catch (e: MissingClipException) {
                throw e
            } catch (e: IOException) {
                throw MissingClipException(clip.key, "${clip.file} cannot be read: ${e.message}")
            }
            at += size
        }
        return out
    }
}

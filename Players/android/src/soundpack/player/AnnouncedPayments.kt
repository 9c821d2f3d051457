// The payments this phone has announced, so that one payment is never spoken twice: not when the
// push is delivered again, not when the server sends it twice. One empty marker file per payment,
// named by the SHA-256 of its id and created exclusively, so two claims of the same id cannot both
// win; beyond `limit` markers the oldest are removed.
package soundpack.player

import java.io.File
import java.io.IOException
import java.nio.file.FileAlreadyExistsException
import java.nio.file.Files

/** A bounded on-disk record of announced payment ids in `folder`. */
class AnnouncedPayments(val folder: File, limit: Int = 256) {
    val limit: Int = if (limit < 1) 1 else limit

    /**
     * Records `paymentId` and returns true, or returns false when it was already recorded. When
     * the record cannot be written at all (a full disk) it returns true: a payment said once more
     * is better than a payment never said.
     */
    @Synchronized
    fun claim(paymentId: String): Boolean {
        val claimed = marker(paymentId)
        try {
            Files.createDirectories(folder.toPath())
            Files.createFile(claimed.toPath())
        } catch (e: FileAlreadyExistsException) {
            return false
        } catch (e: IOException) {
            return true
        }
        prune(keep = claimed)
        return true
    }

    /** Removes the record of `paymentId`, so that a redelivery says it (after a failure to play it). */
    @Synchronized
    fun forget(paymentId: String) {
        marker(paymentId).delete()
    }

    /** Whether `paymentId` was announced. */
    fun wasAnnounced(paymentId: String) = marker(paymentId).exists()

    private fun marker(paymentId: String) = File(folder, "payment-" + Sha256.hex(paymentId.toByteArray(Charsets.UTF_8)).take(32))

    /** Removes the oldest markers beyond the limit, never the one just claimed. */
    private fun prune(keep: File) {
        val markers = folder.listFiles { f -> f.name.startsWith("payment-") } ?: return
        if (markers.size <= limit) return
        markers.filter { it.name != keep.name }
            .sortedWith(compareBy<File>({ it.lastModified() }, { it.name }))
            .take(markers.size - limit)
            .forEach { it.delete() }
    }
}

// What every payment-voice app re-implements, once: read the push, speak each payment once, never
// speak late, never two at once, and say at least the prefix when clips are missing.
package dev.soundpack.player

import java.io.File
import java.security.MessageDigest
import java.util.concurrent.ExecutorService
import java.util.concurrent.Executors
import java.util.concurrent.Future

/** Where joined PCM is played; [play] returns when the sound has been handed over whole. */
interface AudioSink {
    fun play(pcm: ByteArray, format: PcmFormat)
}

/** A payment id as a push carries it (`paymentId`): 1–128 of [A-Za-z0-9._:-], starting with a
 *  letter or digit; anything else is not an id (the message id is used instead). */
object PaymentIds {
    fun isValid(id: String): Boolean =
        id.length in 1..128 && id[0].isAsciiLetterOrDigit() && id.all { it.isAsciiLetterOrDigit() || it in ".:_-" }

    private fun Char.isAsciiLetterOrDigit() = this in 'a'..'z' || this in 'A'..'Z' || this in '0'..'9'
}

/** The payments already announced: one empty marker file per payment, named by the SHA-256 of its
 *  id and created exclusively, so two deliveries racing for one id cannot both win; beyond [limit]
 *  markers the oldest are removed. */
class AnnouncedPayments(private val folder: File, private val limit: Int = 500) {
    /** True when [id] was not announced before (and is now marked); false when it was. */
    @Synchronized
    fun claim(id: String): Boolean {
        if (!folder.isDirectory && !folder.mkdirs()) throw java.io.IOException("cannot create ${folder.path}")
        val name = "payment-" + MessageDigest.getInstance("SHA-256").digest(id.toByteArray(Charsets.UTF_8)).joinToString("") { "%02x".format(it) }
        if (!File(folder, name).createNewFile()) return false
        val markers = folder.listFiles { file -> file.name.startsWith("payment-") } ?: return true
        if (markers.size > limit) {
            markers.sortedBy { it.lastModified() }.take(markers.size - limit).forEach { it.delete() }
        }
        return true
    }
}

/** What became of one push. */
enum class Outcome { SPOKEN, PREFIX_ONLY, ALREADY_ANNOUNCED, STALE, REFUSED }

/** Announces payments with one pack through one sink, one at a time, in the order received. */
class Announcer(
    private val pack: ExportedPack,
    private val sink: AudioSink,
    private val announced: AnnouncedPayments,
    /** A push sent longer ago than this says nothing: a late announcement misleads. */
    private val staleAfterMillis: Long = 60_000
) {
    private val queue: ExecutorService = Executors.newSingleThreadExecutor { runnable -> Thread(runnable, "soundpack-announcer").apply { isDaemon = true } }

    /** Queues the push [payload] (its JSON), sent at [sentAtMillis], received now ([nowMillis]);
     *  [messageId] stands in for a missing or invalid `paymentId`. */
    fun onPush(payload: String, messageId: String, sentAtMillis: Long, nowMillis: Long): Future<Outcome> =
        queue.submit<Outcome> { announce(payload, messageId, sentAtMillis, nowMillis) }

    /** Stops taking pushes once the queued ones are spoken. */
    fun shutdown() = queue.shutdown()

    private fun announce(payload: String, messageId: String, sentAtMillis: Long, nowMillis: Long): Outcome {
        if (nowMillis - sentAtMillis > staleAfterMillis) return Outcome.STALE
        @Suppress("UNCHECKED_CAST")
        val json = try { Json.parse(payload) as? Map<String, Any?> } catch (e: JsonException) { null } ?: return Outcome.REFUSED
        val id = (json["paymentId"] as? String)?.takeIf(PaymentIds::isValid) ?: messageId
        if (!announced.claim(id)) return Outcome.ALREADY_ANNOUNCED
        val phrase = json["phrase"] as? String
        val minor = if (pack.saysAmount(phrase)) {
            val text = json["amount"] as? String ?: return Outcome.REFUSED
            try { Amounts.parse(text, pack.maxMinor) } catch (e: AmountException) { return Outcome.REFUSED }
        } else null
        val tokens = pack.tokens(minor, phrase) ?: return Outcome.REFUSED
        val joined = if (tokens.all(pack::hasClip)) joinedOrNull(tokens) else null
        if (joined != null) {
            sink.play(joined, pack.pcm)
            return Outcome.SPOKEN
        }
        // A clip is missing (not shipped, or gone from the disk since the pack was loaded): the
        // prefix alone still tells the listener money arrived.
        val prefix = if (pack.hasClip("prefix")) joinedOrNull(listOf("prefix")) else null
        if (prefix == null) return Outcome.REFUSED
        sink.play(prefix, pack.pcm)
        return Outcome.PREFIX_ONLY
    }

    private fun joinedOrNull(tokens: List<String>): ByteArray? = try {
        pack.join(tokens)
    } catch (e: java.io.IOException) {
        null
    }
}

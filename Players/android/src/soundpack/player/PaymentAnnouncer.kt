// The player around the pack: takes payment pushes, drops stale and repeated ones, plans and joins
// each announcement and plays them one after another on a single player thread, so two payments
// arriving together are said back to back, never over each other.
package soundpack.player

import java.util.concurrent.Callable
import java.util.concurrent.CompletableFuture
import java.util.concurrent.Future
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.RejectedExecutionException
import java.util.concurrent.ThreadPoolExecutor
import java.util.concurrent.TimeUnit

/** What became of one payment push. */
sealed class AnnouncementOutcome {
    /** Played: the clip keys said; `fallback` when the announcement could not be built and the prefix was said alone. */
    data class Played(val keys: List<String>, val fallback: Boolean) : AnnouncementOutcome()
    /** The payment id was announced before. */
    data class Duplicate(val paymentId: String) : AnnouncementOutcome()
    /** Older than the cut-off when it arrived: a late announcement confuses more than it helps. */
    data class Stale(val ageMillis: Long) : AnnouncementOutcome()
    /** The payload cannot be announced with this pack (bad JSON, bad amount, another pack). */
    data class Refused(val reason: String) : AnnouncementOutcome()
    /** Nothing could be played: no clip to fall back on, the queue was full, or the sink failed. The id is not kept, so a redelivery tries again. */
    data class Failed(val reason: String) : AnnouncementOutcome()
}

/**
 * Announces payments with one loaded pack through `sink`. `record` remembers announced payment
 * ids; pushes older than `staleAfterMillis` are dropped. Call [close] when done.
 */
class PaymentAnnouncer(
    private val pack: ExportedPack,
    private val sink: AudioSink,
    private val record: AnnouncedPayments,
    private val staleAfterMillis: Long = DEFAULT_STALE_AFTER_MILLIS,
    maxQueued: Int = 16
) : java.io.Closeable {
    companion object {
        const val DEFAULT_STALE_AFTER_MILLIS = 60_000L
    }

    private val planner = AnnouncementPlanner(pack)
    private val joiner = ClipJoiner(pack)
    private val player = ThreadPoolExecutor(1, 1, 0L, TimeUnit.MILLISECONDS, LinkedBlockingQueue<Runnable>(maxQueued)) { task ->
        Thread(task, "soundpack-player").apply { isDaemon = true }
    }

    /**
     * Handles one push: `payloadJson` as delivered, `messageId` the push's own id (used when the
     * payload has no valid `paymentId`), `sentAtMillis` when it was sent and `nowMillis` now. The
     * checks run on the caller's thread; the playing is queued. The future completes with the outcome.
     */
    fun submit(payloadJson: String, messageId: String, sentAtMillis: Long, nowMillis: Long): Future<AnnouncementOutcome> {
        val age = nowMillis - sentAtMillis
        if (age > staleAfterMillis) return done(AnnouncementOutcome.Stale(age))
        val payload = try { PaymentPayload.parse(payloadJson) } catch (e: IllegalArgumentException) {
            return done(AnnouncementOutcome.Refused("the payload is not readable: ${e.message}"))
        }
        val packId = payload.pack?.substringBefore('@')
        if (packId != null && packId != pack.id) return done(AnnouncementOutcome.Refused("the payload is for pack \"$packId\", this is \"${pack.id}\""))
        val keys = try { planner.plan(payload.amount, payload.phrase) } catch (e: IllegalArgumentException) {
            return done(AnnouncementOutcome.Refused(e.message ?: "the amount cannot be said"))
        }
        val paymentId = payload.paymentId ?: messageId
        if (!record.claim(paymentId)) return done(AnnouncementOutcome.Duplicate(paymentId))
        return try {
            player.submit(Callable {
                val outcome = play(keys)
                if (outcome is AnnouncementOutcome.Failed) record.forget(paymentId)
                outcome
            })
        } catch (e: RejectedExecutionException) {
            record.forget(paymentId)
            done(AnnouncementOutcome.Failed("the player queue is full or closed"))
        }
    }

    /** Runs on the player thread: joins and plays, falling back to the prefix alone when a clip is missing. */
    private fun play(keys: List<String>): AnnouncementOutcome {
        var said = keys
        var fallback = false
        val pcm = try { joiner.join(keys) } catch (e: MissingClipException) {
            val prefix = pack.fallbackKey ?: return AnnouncementOutcome.Failed("${e.message}, and the pack has no prefix to say instead")
            said = listOf(prefix)
            fallback = true
            try { joiner.join(said) } catch (again: java.io.IOException) { return AnnouncementOutcome.Failed(again.message ?: "the prefix cannot be read") }
        } catch (e: java.io.IOException) {
            return AnnouncementOutcome.Failed(e.message ?: "the clips cannot be read")
        }
        return try {
            sink.play(pcm, pack.pcm)
            AnnouncementOutcome.Played(said, fallback)
        } catch (e: AudioSinkException) {
            AnnouncementOutcome.Failed(e.message ?: "the audio device failed")
        }
    }

    private fun done(outcome: AnnouncementOutcome): Future<AnnouncementOutcome> = CompletableFuture.completedFuture(outcome)

    /** Stops taking pushes; announcements already queued are still played. */
    override fun close() {
        player.shutdown()
    }
}

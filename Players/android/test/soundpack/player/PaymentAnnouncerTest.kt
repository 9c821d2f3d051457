package soundpack.player

import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.ByteArrayOutputStream
import java.io.File
import java.util.Collections
import java.util.concurrent.CountDownLatch
import java.util.concurrent.Future
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

/** A sink that records what it played and how many plays overlapped. */
class RecordingSink(private val playMillis: Long = 0) : AudioSink {
    val played: MutableList<ByteArray> = Collections.synchronizedList(ArrayList<ByteArray>())
    private val playing = AtomicInteger()
    val maxPlaying = AtomicInteger()

    override fun play(pcm: ByteArray, format: PcmFormat) {
        val now = playing.incrementAndGet()
        maxPlaying.accumulateAndGet(now) { a, b -> Math.max(a, b) }
        try {
            Thread.sleep(playMillis)
            played.add(pcm.copyOf())
        } finally {
            playing.decrementAndGet()
        }
    }
}

class PaymentAnnouncerTest {
    private val now = 1_700_000_000_000L

    private fun payload(amount: String, paymentId: String? = null, extra: String = "") =
        "{\"type\": \"payment\", \"amount\": \"$amount\", \"pack\": \"test@1.0.0\"" + (if (paymentId != null) ", \"paymentId\": \"$paymentId\"" else "") + extra + "}"

    private fun pcmOf(keys: List<String>): ByteArray {
        val out = ByteArrayOutputStream()
        keys.forEach { out.write(TestPacks.pcmOf(it)) }
        return out.toByteArray()
    }

    private fun result(future: Future<AnnouncementOutcome>) = future.get(10, TimeUnit.SECONDS)

    @Test
    fun `each payment id is announced once`() {
        val sink = RecordingSink()
        PaymentAnnouncer(TestPacks.load(), sink, AnnouncedPayments(TestPacks.tempDir())).use { announcer ->
            assertEquals(AnnouncementOutcome.Played(listOf("prefix", "1", "5", "点", "4", "元", "suffix"), false),
                result(announcer.submit(payload("15.40", "pay-1"), "msg-1", now, now)))
            assertEquals(AnnouncementOutcome.Duplicate("pay-1"), result(announcer.submit(payload("15.40", "pay-1"), "msg-2", now, now)))
            assertEquals(1, sink.played.size)
        }
    }

    @Test
    fun `the record survives a new player over the same folder`() {
        val folder = TestPacks.tempDir()
        PaymentAnnouncer(TestPacks.load(), RecordingSink(), AnnouncedPayments(folder)).use { result(it.submit(payload("1", "pay-9"), "m", now, now)) }
        PaymentAnnouncer(TestPacks.load(), RecordingSink(), AnnouncedPayments(folder)).use {
            assertEquals(AnnouncementOutcome.Duplicate("pay-9"), result(it.submit(payload("1", "pay-9"), "m2", now, now)))
        }
    }

    @Test
    fun `an invalid payment id is ignored and the message id used instead`() {
        PaymentAnnouncer(TestPacks.load(), RecordingSink(), AnnouncedPayments(TestPacks.tempDir())).use { announcer ->
            assertTrue(result(announcer.submit(payload("2", "bad id!"), "msg-7", now, now)) is AnnouncementOutcome.Played)
            assertEquals(AnnouncementOutcome.Duplicate("msg-7"), result(announcer.submit(payload("2", "-starts-with-dash"), "msg-7", now, now)))
            assertEquals(AnnouncementOutcome.Duplicate("msg-7"), result(announcer.submit(payload("2", "x".repeat(129)), "msg-7", now, now)))
        }
    }

    @Test
    fun `a payment older than the cut-off is dropped and not recorded`() {
        val sink = RecordingSink()
        val record = AnnouncedPayments(TestPacks.tempDir())
        PaymentAnnouncer(TestPacks.load(), sink, record, staleAfterMillis = 60_000).use { announcer ->
            assertEquals(AnnouncementOutcome.Stale(60_001), result(announcer.submit(payload("3", "late"), "m", now - 60_001, now)))
            assertTrue(result(announcer.submit(payload("3", "edge"), "m", now - 60_000, now)) is AnnouncementOutcome.Played)
            assertEquals(false, record.wasAnnounced("late"))
            assertEquals(1, sink.played.size)
        }
    }

    @Test
    fun `two payments submitted at once are played one after the other, never overlapping`() {
        val sink = RecordingSink(playMillis = 150)
        PaymentAnnouncer(TestPacks.load(), sink, AnnouncedPayments(TestPacks.tempDir())).use { announcer ->
            val gate = CountDownLatch(1)
            val futures = Collections.synchronizedList(ArrayList<Future<AnnouncementOutcome>>())
            val threads = listOf("1.11" to "a", "2.22" to "b").map { (amount, id) ->
                Thread { gate.await(); futures.add(announcer.submit(payload(amount, id), id, now, now)) }.apply { start() }
            }
            gate.countDown()
            threads.forEach { it.join(10_000) }
            futures.forEach { assertTrue(result(it) is AnnouncementOutcome.Played) }
            assertEquals(1, sink.maxPlaying.get())
            val expected = setOf(pcmOf(listOf("prefix", "1", "点", "1", "1", "元", "suffix")).toList(), pcmOf(listOf("prefix", "2", "点", "2", "2", "元", "suffix")).toList())
            assertEquals(expected, sink.played.map { it.toList() }.toSet())
        }
    }

    @Test
    fun `a missing clip makes the announcement fall back to the prefix alone`() {
        val sink = RecordingSink()
        PaymentAnnouncer(TestPacks.load(TestPacks.write(omit = setOf("9"))), sink, AnnouncedPayments(TestPacks.tempDir())).use { announcer ->
            assertEquals(AnnouncementOutcome.Played(listOf("prefix"), true), result(announcer.submit(payload("19"), "m1", now, now)))
            assertArrayEquals(TestPacks.pcmOf("prefix"), sink.played.single())
        }
    }

    @Test
    fun `payloads for another pack, with bad amounts or not JSON are refused without playing`() {
        val sink = RecordingSink()
        PaymentAnnouncer(TestPacks.load(), sink, AnnouncedPayments(TestPacks.tempDir())).use { announcer ->
            assertTrue(result(announcer.submit("{\"amount\": \"1\", \"pack\": \"other@1.0.0\"}", "m1", now, now)) is AnnouncementOutcome.Refused)
            assertTrue(result(announcer.submit(payload("1.234"), "m2", now, now)) is AnnouncementOutcome.Refused)
            assertTrue(result(announcer.submit("{\"amount\": 15.4}", "m3", now, now)) is AnnouncementOutcome.Refused)
            assertTrue(result(announcer.submit("not json", "m4", now, now)) is AnnouncementOutcome.Refused)
            assertTrue(result(announcer.submit("[" + "[".repeat(5000), "m5", now, now)) is AnnouncementOutcome.Refused)
            assertEquals(0, sink.played.size)
        }
    }

    @Test
    fun `a payment the sink failed to play is not kept, so a redelivery says it`() {
        var failures = 1
        val sink = object : AudioSink {
            override fun play(pcm: ByteArray, format: PcmFormat) {
                if (failures-- > 0) throw AudioSinkException("device busy")
            }
        }
        PaymentAnnouncer(TestPacks.load(), sink, AnnouncedPayments(TestPacks.tempDir())).use { announcer ->
            assertEquals(AnnouncementOutcome.Failed("device busy"), result(announcer.submit(payload("4", "pay-4"), "m", now, now)))
            assertTrue(result(announcer.submit(payload("4", "pay-4"), "m", now, now)) is AnnouncementOutcome.Played)
        }
    }

    @Test
    fun `the record keeps at most its limit of ids, dropping the oldest`() {
        val folder = TestPacks.tempDir()
        val record = AnnouncedPayments(folder, limit = 3)
        for (i in 1..5) {
            assertTrue(record.claim("id-$i"))
            // Distinct ages, older first, whatever the file system's clock resolution.
            assertTrue(File(folder, markerName("id-$i")).setLastModified(1_000_000_000L * i))
        }
        assertEquals(3, folder.listFiles()!!.size)
        assertEquals(listOf(false, false, true, true, true), (1..5).map { record.wasAnnounced("id-$it") })
        assertEquals(false, record.claim("id-5"))
    }

    private fun markerName(id: String): String =
        "payment-" + TestPacks.sha256(id.toByteArray()).take(32)
}

package dev.soundpack.player

import android.media.AudioTrack
import java.io.File
import java.nio.file.Files
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

class JsonTests {
    @Test fun readsWhatItIsGiven() {
        assertEquals(mapOf("a" to listOf(1L, 2.5, "x", true, null)), Json.parse(" {\"a\": [1, 2.5, \"x\", true, null]} "))
        assertEquals("é\n\"", Json.parse("\"\\u00e9\\n\\\"\""))
    }

    @Test fun refusesWhatIsNotJson() {
        for (bad in listOf("", "{", "[1,]", "{\"a\":1,\"a\":2}", "01", "1 2", "\"\u0001\"", "[".repeat(100) + "]".repeat(100), "nul", "{\"a\" 1}", "99999999999999999999")) {
            assertThrows(JsonException::class.java, { Json.parse(bad) }, bad)
        }
    }
}

class AmountTests {
    @Test fun readsExactly() {
        assertEquals(1540L, Amounts.parse("15.4", Long.MAX_VALUE))
        assertEquals(1540L, Amounts.parse("15.40", Long.MAX_VALUE))
        assertEquals(123456789L, Amounts.parse("1,234,567.89", Long.MAX_VALUE))
        assertEquals(123456789L, Amounts.parse("12,34,567.89", Long.MAX_VALUE))
        assertEquals(99_999_999_999_999L, Amounts.parse("999999999999.99", Long.MAX_VALUE))
        assertEquals("0.05", Amounts.written(5))
    }

    @Test fun refusesWhatIsNotAnAmount() {
        for (bad in listOf("", "1.234", "1.", ".5", "-1", "1e3", "1,23", "1,2345", "12,3,456", "1000000000000", "１", "0x10", " 1")) {
            assertThrows(AmountException::class.java, { Amounts.parse(bad, Long.MAX_VALUE) }, bad)
        }
        assertThrows(AmountException::class.java) { Amounts.parse("1.00", 99) }
    }
}

class ReadingTableTests {
    private fun table() = ReadingTable.from(Json.parse(Fixtures.table()) as Map<String, Any?>)

    @Test fun readsAsDesignedWalking14Digits() {
        assertEquals(listOf("d4", "d2"), table().tokensFor(42))
        assertEquals(listOf("d7"), table().tokensFor(7))
        assertEquals(listOf("d0"), table().tokensFor(0))
        assertNull(table().tokensFor(ReadingTable.LIMIT))
        assertNull(table().tokensFor(-1))
    }

    @Test fun refusesATableAWalkCouldLeave() {
        val good = Fixtures.table()
        for (bad in listOf(good.replace("\"format\":1", "\"format\":2"), good.replace("\"digits\":14", "\"digits\":13"),
                           good.replace("\"starts\":[0]", "\"starts\":[5]"), good.replace("[0,[9]]]}]", "[3,[9]]]}]").replaceFirst("[0,[]]", "[7,[]]"),
                           good.replace("[0,[9]]", "[0,[10]]"), good.replace("{\"0\":", "{\"00\":"))) {
            assertThrows(PackException::class.java) { ReadingTable.from(Json.parse(bad) as Map<String, Any?>) }
        }
    }
}

class ExportedPackTests {
    @Test fun loadsPlansAndJoinsTheClipsDataAsItIs() {
        val pack = ExportedPack.load(Fixtures.export())
        assertEquals(listOf("prefix", "d1", "d5"), pack.tokens(15))
        assertEquals(listOf("order"), pack.tokens(null, "order"))
        assertEquals(listOf("prefix", "d3"), pack.tokens(3, "no-such-phrase"), "an unknown phrase is the default one")
        val joined = pack.join(listOf("prefix", "d1"))
        val expected = Wav.read(Fixtures.clip(1, 10), "a").let { (_, r) -> Fixtures.clip(1, 10).copyOfRange(r.first, r.last + 1) } +
            Wav.read(Fixtures.clip(4, 13), "b").let { (_, r) -> Fixtures.clip(4, 13).copyOfRange(r.first, r.last + 1) }
        assertArrayEquals(expected, joined)
    }

    @Test fun refusesAnExportItCannotTrustNamingWhy() {
        fun refused(folder: File): String = assertThrows(PackException::class.java) { ExportedPack.load(folder) }.message ?: ""
        val changed = Fixtures.export()
        File(changed, "clips/sp_test_d5.wav").let { it.writeBytes(it.readBytes().also { b -> b[b.size - 1] = 9 }) }
        assertTrue(refused(changed).contains("sp_test_d5.wav has SHA-256"))
        assertTrue(refused(Fixtures.export({ it.replace("\"minPlayerVersion\":1", "\"minPlayerVersion\":2") })).contains("needs player version 2"))
        assertTrue(refused(Fixtures.export({ it.replace("\"format\":1,\"minPlayer", "\"format\":7,\"minPlayer") })).contains("format 7"))
        assertTrue(refused(Fixtures.export({ it.replace("clips/sp_test_d5.wav", "../sp_test_d5.wav") })).contains("not a path inside the export"))
        assertTrue(refused(Fixtures.export(skipClip = "d3")).contains("missing"))
        assertTrue(refused(Fixtures.export({ it.replace("\"sampleRate\":8000", "\"sampleRate\":16000") })).contains("the pack's clips are"))
        val garbage = Files.createTempDirectory("soundpack-player-garbage").toFile()
        File(garbage, "soundpack.json").writeBytes(byteArrayOf(0, 1, 2, -1))
        assertTrue(refused(garbage).contains("is not JSON"))
    }
}

class AnnouncerTests {
    class Recorder : AudioSink {
        val played = ArrayList<ByteArray>()
        override fun play(pcm: ByteArray, format: PcmFormat) { synchronized(played) { played.add(pcm) } }
    }

    private fun announcer(sink: AudioSink, folder: File = Fixtures.export(), staleAfter: Long = 60_000) =
        Announcer(ExportedPack.load(folder), sink, AnnouncedPayments(Files.createTempDirectory("soundpack-announced").toFile()), staleAfter)

    @Test fun aPaymentIsAnnouncedOnceAndALateOneNotAtAll() {
        val sink = Recorder()
        val announcer = announcer(sink)
        val push = "{\"amount\":\"0.42\",\"paymentId\":\"p-1\"}"
        assertEquals(Outcome.SPOKEN, announcer.onPush(push, "m-1", 1_000, 2_000).get())
        assertEquals(Outcome.ALREADY_ANNOUNCED, announcer.onPush(push, "m-2", 1_000, 2_000).get())
        assertEquals(Outcome.STALE, announcer.onPush("{\"amount\":\"0.42\",\"paymentId\":\"p-2\"}", "m-3", 1_000, 70_000).get())
        assertEquals(Outcome.SPOKEN, announcer.onPush("{\"amount\":\"0.42\",\"paymentId\":\"bad id\"}", "m-4", 1_000, 2_000).get(), "an invalid id: the message id")
        assertEquals(Outcome.REFUSED, announcer.onPush("{\"amount\":\"1.00\",\"paymentId\":\"p-3\"}", "m-5", 1_000, 2_000).get(), "above maxAmount")
        assertEquals(2, sink.played.size)
    }

    @Test fun aMissingClipSaysThePrefixAlone() {
        val folder = Fixtures.export()
        val sink = Recorder()
        val announcer = announcer(sink, folder)
        // The export loads, then a clip goes missing from the disk: the prefix alone is said.
        File(folder, "clips/sp_test_d7.wav").delete()
        assertEquals(Outcome.PREFIX_ONLY, announcer.onPush("{\"amount\":\"0.77\",\"paymentId\":\"p-7\"}", "m", 0, 0).get())
        assertArrayEquals(ExportedPack.load(Fixtures.export()).join(listOf("prefix")), sink.played.single())
        assertEquals(Outcome.SPOKEN, announcer.onPush("{\"amount\":\"0.55\",\"paymentId\":\"p-8\"}", "m", 0, 0).get())
    }

    @Test fun twoPaymentsAtOnceNeverOverlap() {
        AudioTrack.played.clear()
        val announcer = announcer(AudioTrackSink())
        val start = CountDownLatch(1)
        val threads = (1..8).map { n -> Thread { start.await(); announcer.onPush("{\"amount\":\"0.${10 + n}\",\"paymentId\":\"p-$n\"}", "m", 0, 0).get() } }
        threads.forEach(Thread::start)
        start.countDown()
        threads.forEach { it.join(TimeUnit.SECONDS.toMillis(10)) }
        val played = synchronized(AudioTrack.played) { AudioTrack.played.toList() }
        assertEquals(8, played.size)
        val sorted = played.sortedBy { it.startNanos }
        for (i in 1 until sorted.size) assertTrue(sorted[i].startNanos >= sorted[i - 1].endNanos, "announcements overlap")
        assertTrue(played.all { it.sampleRate == 8000 && it.channels == 1 })
    }
}

class AudioTrackStandInTests {
    @Test fun theStandInRefusesWhatAndroidRefuses() {
        assertEquals(AudioTrack.ERROR_BAD_VALUE, AudioTrack.getMinBufferSize(1000, android.media.AudioFormat.CHANNEL_OUT_MONO, android.media.AudioFormat.ENCODING_PCM_16BIT))
        val format = android.media.AudioFormat.Builder().setSampleRate(8000).setChannelMask(android.media.AudioFormat.CHANNEL_OUT_MONO).setEncoding(android.media.AudioFormat.ENCODING_PCM_16BIT).build()
        assertThrows(UnsupportedOperationException::class.java) { AudioTrack.Builder().setAudioFormat(format).setBufferSizeInBytes(2).build() }
        val track = AudioTrack.Builder().setAudioFormat(format).setBufferSizeInBytes(4096).build()
        assertEquals(AudioTrack.ERROR_BAD_VALUE, track.write(ByteArray(4), 2, 4))
        assertEquals(2, track.write(ByteArray(3), 0, 3), "a partial frame is not written")
        track.release()
        assertThrows(IllegalStateException::class.java) { track.play() }
        assertEquals(AudioTrack.ERROR_INVALID_OPERATION, track.write(ByteArray(4), 0, 4))
        assertFalse(track.state == AudioTrack.STATE_INITIALIZED)
    }

    @Test fun theSinkPlaysTheWholeBufferAndReleasesTheTrack() {
        AudioTrack.played.clear()
        val released = AudioTrack.released
        val pcm = ByteArray(20_000) { it.toByte() }
        AudioTrackSink().play(pcm, PcmFormat(22050, 1))
        assertArrayEquals(pcm, AudioTrack.played.single().pcm)
        assertEquals(released + 1, AudioTrack.released)
    }
}

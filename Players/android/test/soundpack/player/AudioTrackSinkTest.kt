package soundpack.player

import android.media.AudioAttributes
import android.media.AudioFormat
import android.media.AudioTrack
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import soundpack.player.android.AudioTrackSink
import standin.StandinAudioDevice
import java.util.concurrent.TimeUnit

class AudioTrackSinkTest {
    private val format = PcmFormat(22050, 1, 16)
    private val pcm = ByteArray(22050 * 2) { (it * 7).toByte() }  // one second, bigger than the track's buffer

    @BeforeEach @AfterEach
    fun resetDevice() = StandinAudioDevice.reset()

    @Test
    fun `the sink streams the whole buffer through one track and releases it`() {
        AudioTrackSink(sleeper = {}).play(pcm, format)
        assertArrayEquals(pcm, StandinAudioDevice.playedBuffers().single())
        assertEquals(0, StandinAudioDevice.openTracks())
    }

    @Test
    fun `a short announcement is padded with silence to fill the path, and played without waiting out the deadline`() {
        var sleeps = 0
        val short = ByteArray(200) { 1 }
        AudioTrackSink(sleeper = { sleeps++ }).play(short, format)
        val played = StandinAudioDevice.playedBuffers().single()
        assertEquals(AudioTrack.getMinBufferSize(22050, AudioFormat.CHANNEL_OUT_MONO, AudioFormat.ENCODING_PCM_16BIT), played.size)
        assertArrayEquals(short, played.copyOf(200))
        assertTrue(played.drop(200).all { it == 0.toByte() })
        assertEquals(0, sleeps)
    }

    @Test
    fun `a track that dies mid-announcement is reported and still released`() {
        StandinAudioDevice.deadAfterBytes = 1000
        val error = assertThrows(AudioSinkException::class.java) { AudioTrackSink(sleeper = {}).play(pcm, format) }
        assertTrue(error.message!!.contains("ERROR_DEAD_OBJECT"), error.message)
        assertEquals(0, StandinAudioDevice.openTracks())
        assertEquals(1000, StandinAudioDevice.playedBuffers().single().size)
    }

    @Test
    fun `no output device and unsupported formats are reported, not thrown raw`() {
        StandinAudioDevice.available = false
        assertThrows(AudioSinkException::class.java) { AudioTrackSink(sleeper = {}).play(pcm, format) }
        StandinAudioDevice.available = true
        assertThrows(AudioSinkException::class.java) { AudioTrackSink(sleeper = {}).play(pcm, PcmFormat(2000, 1, 16)) }
        assertThrows(AudioSinkException::class.java) { AudioTrackSink(sleeper = {}).play(pcm, PcmFormat(22050, 3, 16)) }
    }

    @Test
    fun `two payments through the AudioTrack sink never have two tracks open`() {
        val pack = TestPacks.load()
        PaymentAnnouncer(pack, AudioTrackSink(sleeper = { Thread.sleep(it) }), AnnouncedPayments(TestPacks.tempDir())).use { announcer ->
            val a = announcer.submit("{\"amount\": \"1.5\", \"paymentId\": \"a\"}", "a", 0, 0)
            val b = announcer.submit("{\"amount\": \"2.5\", \"paymentId\": \"b\"}", "b", 0, 0)
            assertTrue(a.get(10, TimeUnit.SECONDS) is AnnouncementOutcome.Played)
            assertTrue(b.get(10, TimeUnit.SECONDS) is AnnouncementOutcome.Played)
        }
        assertEquals(1, StandinAudioDevice.maxOpenTracks())
        assertEquals(2, StandinAudioDevice.playedBuffers().size)
    }
}

/** The stand-in refuses what Android refuses; these pin the rules the sink relies on. */
class AudioTrackStandinTest {
    @BeforeEach @AfterEach
    fun resetDevice() = StandinAudioDevice.reset()

    private fun track(bufferBytes: Int = 3840): AudioTrack = AudioTrack.Builder()
        .setAudioAttributes(AudioAttributes.Builder().setUsage(AudioAttributes.USAGE_NOTIFICATION_EVENT).setContentType(AudioAttributes.CONTENT_TYPE_SPEECH).build())
        .setAudioFormat(AudioFormat.Builder().setEncoding(AudioFormat.ENCODING_PCM_16BIT).setSampleRate(22050).setChannelMask(AudioFormat.CHANNEL_OUT_MONO).build())
        .setTransferMode(AudioTrack.MODE_STREAM)
        .setBufferSizeInBytes(bufferBytes)
        .build()

    @Test
    fun `getMinBufferSize answers ERROR_BAD_VALUE for a rate, mask or encoding Android refuses`() {
        assertEquals(3840, AudioTrack.getMinBufferSize(22050, AudioFormat.CHANNEL_OUT_MONO, AudioFormat.ENCODING_PCM_16BIT))
        assertEquals(AudioTrack.ERROR_BAD_VALUE, AudioTrack.getMinBufferSize(3999, AudioFormat.CHANNEL_OUT_MONO, AudioFormat.ENCODING_PCM_16BIT))
        assertEquals(AudioTrack.ERROR_BAD_VALUE, AudioTrack.getMinBufferSize(22050, 0x3, AudioFormat.ENCODING_PCM_16BIT))
        assertEquals(AudioTrack.ERROR_BAD_VALUE, AudioTrack.getMinBufferSize(22050, AudioFormat.CHANNEL_OUT_MONO, 99))
    }

    @Test
    fun `the builders refuse invalid values`() {
        assertThrows(IllegalArgumentException::class.java) { AudioFormat.Builder().setSampleRate(200_000) }
        assertThrows(IllegalArgumentException::class.java) { AudioFormat.Builder().setChannelMask(0) }
        assertThrows(IllegalArgumentException::class.java) { AudioFormat.Builder().setEncoding(42) }
        assertThrows(IllegalArgumentException::class.java) { AudioAttributes.Builder().setUsage(999) }
        assertThrows(IllegalArgumentException::class.java) { AudioTrack.Builder().setBufferSizeInBytes(0) }
        assertThrows(IllegalArgumentException::class.java) { AudioTrack.Builder().setTransferMode(7) }
        assertThrows(UnsupportedOperationException::class.java) { track(bufferBytes = 3841) }
    }

    @Test
    fun `a stopped stream track takes only what fits its buffer, then a short count`() {
        val t = track()
        assertEquals(3840, t.write(ByteArray(10_000), 0, 10_000))
        assertEquals(0, t.write(ByteArray(10), 0, 10))
        t.play()
        assertEquals(10_000, t.write(ByteArray(10_000), 0, 10_000))
        assertEquals(4, t.write(ByteArray(5), 0, 5))  // whole frames only
        t.release()
    }

    @Test
    fun `bad indexes are ERROR_BAD_VALUE and a released track refuses everything`() {
        val t = track()
        assertEquals(AudioTrack.ERROR_BAD_VALUE, t.write(ByteArray(4), 2, 4))
        assertEquals(AudioTrack.ERROR_BAD_VALUE, t.write(ByteArray(4), -1, 2))
        assertEquals(AudioTrack.ERROR_BAD_VALUE, t.write(ByteArray(4), 0, 4, 9))
        t.release()
        assertEquals(AudioTrack.STATE_UNINITIALIZED, t.getState())
        assertEquals(AudioTrack.ERROR_INVALID_OPERATION, t.write(ByteArray(4), 0, 4))
        assertThrows(IllegalStateException::class.java) { t.play() }
        assertThrows(IllegalStateException::class.java) { t.stop() }
        assertThrows(IllegalStateException::class.java) { t.pause() }
        assertThrows(IllegalStateException::class.java) { t.getPlaybackHeadPosition() }
        t.release()  // a second release is harmless, as on Android
    }

    @Test
    fun `a stream track plays nothing until its buffer has filled, and reports position 0 once stopped`() {
        val t = track()
        t.play()
        assertEquals(1000, t.write(ByteArray(1000), 0, 1000))
        assertEquals(0, t.getPlaybackHeadPosition())
        assertEquals(3000, t.write(ByteArray(3000), 0, 3000))
        assertEquals(2000, t.getPlaybackHeadPosition())
        t.stop()
        assertEquals(0, t.getPlaybackHeadPosition())
        t.release()
        assertEquals(4000, StandinAudioDevice.playedBuffers().single().size)
    }

    @Test
    fun `a dead track returns what it took, then ERROR_DEAD_OBJECT`() {
        StandinAudioDevice.deadAfterBytes = 100
        val t = track()
        t.play()
        assertEquals(100, t.write(ByteArray(400), 0, 400))
        assertEquals(AudioTrack.ERROR_DEAD_OBJECT, t.write(ByteArray(400), 0, 400))
        t.release()
    }
}

// The one Android-facing class: plays a joined announcement through android.media.AudioTrack in
// MODE_STREAM. Everything it plays was planned and joined by the platform-free core.
package soundpack.player.android

import android.media.AudioAttributes
import android.media.AudioFormat
import android.media.AudioTrack
import soundpack.player.AudioSink
import soundpack.player.AudioSinkException
import soundpack.player.PcmFormat

/**
 * An [AudioSink] over a fresh streaming AudioTrack per announcement: built with the pack's format,
 * started, fed the whole buffer (short writes continued, error codes turned into
 * [AudioSinkException]) and silence up to one track buffer, so that even a short announcement
 * fills the data path and starts playing; then waited for until the playback head has passed the
 * last frame (a stopped track reports position 0, so the wait comes before stop()), stopped, and
 * released whatever happens.
 * `usage` and `contentType` are AudioAttributes values (a notification sound of speech by default).
 */
class AudioTrackSink(
    private val usage: Int = AudioAttributes.USAGE_NOTIFICATION_EVENT,
    private val contentType: Int = AudioAttributes.CONTENT_TYPE_SPEECH,
    private val sleeper: (Long) -> Unit = { Thread.sleep(it) }
) : AudioSink {
    override fun play(pcm: ByteArray, format: PcmFormat) {
        if (format.bitsPerSample != 16) throw AudioSinkException("${format.bitsPerSample}-bit PCM is not supported; exports are 16-bit")
        val channelMask = when (format.channels) {
            1 -> AudioFormat.CHANNEL_OUT_MONO
            2 -> AudioFormat.CHANNEL_OUT_STEREO
            else -> throw AudioSinkException("${format.channels} channels are not supported")
        }
        val minimum = AudioTrack.getMinBufferSize(format.sampleRate, channelMask, AudioFormat.ENCODING_PCM_16BIT)
        if (minimum <= 0) throw AudioSinkException("AudioTrack.getMinBufferSize(${format.sampleRate}, $channelMask, PCM_16BIT) = ${errorName(minimum)}")
        val track = try {
            AudioTrack.Builder()
                .setAudioAttributes(AudioAttributes.Builder().setUsage(usage).setContentType(contentType).build())
                .setAudioFormat(AudioFormat.Builder().setEncoding(AudioFormat.ENCODING_PCM_16BIT).setSampleRate(format.sampleRate).setChannelMask(channelMask).build())
                .setTransferMode(AudioTrack.MODE_STREAM)
                .setBufferSizeInBytes(minimum)
                .build()
        } catch (e: UnsupportedOperationException) {
            throw AudioSinkException("AudioTrack could not be built for ${format.sampleRate} Hz: ${e.message}")
        } catch (e: IllegalArgumentException) {
            throw AudioSinkException("AudioTrack parameters refused: ${e.message}")
        }
        try {
            if (track.getState() != AudioTrack.STATE_INITIALIZED) throw AudioSinkException("AudioTrack is not initialized")
            try { track.play() } catch (e: IllegalStateException) { throw AudioSinkException("AudioTrack.play() refused: ${e.message}") }
            writeAll(track, pcm)
            if (pcm.size < minimum) writeAll(track, ByteArray(minimum - pcm.size - (minimum - pcm.size) % format.frameBytes))
            awaitPlayed(track, pcm.size / format.frameBytes, format.sampleRate)
            track.stop()
        } finally {
            track.release()
        }
    }

    /** Blocking writes until every byte is queued; a negative result or no progress is a failure. */
    private fun writeAll(track: AudioTrack, pcm: ByteArray) {
        var offset = 0
        while (offset < pcm.size) {
            val written = track.write(pcm, offset, pcm.size - offset)
            if (written < 0) throw AudioSinkException("AudioTrack.write failed with ${errorName(written)} after $offset of ${pcm.size} bytes")
            if (written == 0) throw AudioSinkException("AudioTrack.write made no progress after $offset of ${pcm.size} bytes")
            offset += written
        }
    }

    /**
     * Waits until the head has played `frames` frames, at most the sound's length and a second
     * more. The head position is an unsigned 32-bit count; an announcement is far below 2^31 frames.
     */
    private fun awaitPlayed(track: AudioTrack, frames: Int, sampleRate: Int) {
        val deadline = System.nanoTime() + (frames * 1000L / sampleRate + 1000L) * 1_000_000L
        while (track.getPlaybackHeadPosition() < frames && System.nanoTime() < deadline) {
            if (track.getPlayState() != AudioTrack.PLAYSTATE_PLAYING) throw AudioSinkException("AudioTrack stopped playing before the announcement ended")
            sleeper(10)
        }
    }

    private fun errorName(code: Int) = when (code) {
        AudioTrack.ERROR -> "ERROR"
        AudioTrack.ERROR_BAD_VALUE -> "ERROR_BAD_VALUE"
        AudioTrack.ERROR_INVALID_OPERATION -> "ERROR_INVALID_OPERATION"
        AudioTrack.ERROR_DEAD_OBJECT -> "ERROR_DEAD_OBJECT"
        else -> code.toString()
    }
}

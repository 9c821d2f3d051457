// The Android sink: one AudioTrack in MODE_STREAM per announcement, written whole, played, released.
package dev.soundpack.player

import android.media.AudioAttributes
import android.media.AudioFormat
import android.media.AudioTrack

/** Plays joined PCM through `android.media.AudioTrack` (usage NOTIFICATION_EVENT). */
class AudioTrackSink : AudioSink {
    override fun play(pcm: ByteArray, format: PcmFormat) {
        val channelMask = if (format.channels == 1) AudioFormat.CHANNEL_OUT_MONO else AudioFormat.CHANNEL_OUT_STEREO
        val minimum = AudioTrack.getMinBufferSize(format.sampleRate, channelMask, AudioFormat.ENCODING_PCM_16BIT)
        if (minimum <= 0) throw IllegalStateException("AudioTrack.getMinBufferSize refused ${format}: $minimum")
        val track = AudioTrack.Builder()
            .setAudioAttributes(AudioAttributes.Builder().setUsage(AudioAttributes.USAGE_NOTIFICATION_EVENT).setContentType(AudioAttributes.CONTENT_TYPE_SPEECH).build())
            .setAudioFormat(AudioFormat.Builder().setSampleRate(format.sampleRate).setChannelMask(channelMask).setEncoding(AudioFormat.ENCODING_PCM_16BIT).build())
            .setTransferMode(AudioTrack.MODE_STREAM)
            .setBufferSizeInBytes(maxOf(minimum, 4 * format.bytesPerFrame * 1024))
            .build()
        try {
            if (track.state != AudioTrack.STATE_INITIALIZED) throw IllegalStateException("AudioTrack did not initialise")
            track.play()
            var at = 0
            while (at < pcm.size) {
                // MODE_STREAM: write blocks until written; a negative count is an error code.
                val written = track.write(pcm, at, pcm.size - at)
                if (written < 0) throw IllegalStateException("AudioTrack.write failed: $written")
                at += written
            }
            track.stop()  // plays out what was written, then stops
        } finally {
            track.release()
        }
    }
}

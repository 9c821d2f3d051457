// Behavioural stand-in for android.media.AudioTrack in MODE_STREAM, as strict as the platform on
// what the player does. Each rule is Android's documentation of the call (developer.android.com,
// android.media.AudioTrack), quoted in the doc comment. What a track "plays" is kept in
// `AudioTrack.played` so tests hear it; each track's play-to-stop span is recorded so a test can
// prove two announcements never overlap.
package android.media

class AudioTrack private constructor(
    private val attributes: AudioAttributes,
    val format: AudioFormat,
    private val bufferSizeInBytes: Int
) {
    /** STATE_INITIALIZED once built; STATE_UNINITIALIZED after release(). */
    var state: Int = STATE_INITIALIZED
        private set
    private var playState = PLAYSTATE_STOPPED
    private val written = java.io.ByteArrayOutputStream()
    private var startedAt = 0L

    private val frameSize: Int get() = format.channelCount * 2

    /** "Starts playing an AudioTrack. … Throws IllegalStateException if the track isn't properly initialized." */
    fun play() {
        if (state != STATE_INITIALIZED) throw IllegalStateException("play() called on uninitialized AudioTrack.")
        playState = PLAYSTATE_PLAYING
        startedAt = System.nanoTime()
    }

    /** "Writes the audio data to the audio sink for playback (streaming mode) … In streaming mode, the
     *  write will normally block until all the data has been enqueued for playback, and will return a
     *  full transfer count. … Returns zero or the positive number of bytes that were written, or one of
     *  the following error codes. The number of bytes will be a multiple of the frame size in bytes
     *  not to exceed sizeInBytes. ERROR_INVALID_OPERATION if the track isn't properly initialized;
     *  ERROR_BAD_VALUE if the parameters don't resolve to valid data and indexes; ERROR_DEAD_OBJECT if
     *  the AudioTrack is not valid anymore and needs to be recreated." */
    fun write(audioData: ByteArray?, offsetInBytes: Int, sizeInBytes: Int): Int {
        if (state == STATE_UNINITIALIZED || format.encoding == AudioFormat.ENCODING_PCM_FLOAT) return ERROR_INVALID_OPERATION
        if (audioData == null || offsetInBytes < 0 || sizeInBytes < 0 || offsetInBytes + sizeInBytes < 0 || offsetInBytes + sizeInBytes > audioData.size) return ERROR_BAD_VALUE
        val whole = sizeInBytes - sizeInBytes % frameSize
        written.write(audioData, offsetInBytes, whole)
        return whole
    }

    /** "Stops playing the audio data. … When used on an instance created in MODE_STREAM mode, audio will
     *  stop playing after the last buffer that was written has been played. … Throws
     *  IllegalStateException". */
    fun stop() {
        if (state != STATE_INITIALIZED) throw IllegalStateException("stop() called on uninitialized AudioTrack.")
        if (playState == PLAYSTATE_PLAYING) {
            synchronized(played) {
                played.add(Played(format.sampleRate, format.channelCount, written.toByteArray(), startedAt, System.nanoTime()))
            }
        }
        playState = PLAYSTATE_STOPPED
    }

    /** "Releases the native AudioTrack resources." Afterwards the track is uninitialized: play() and
     *  stop() throw IllegalStateException, write() returns ERROR_INVALID_OPERATION. */
    fun release() {
        state = STATE_UNINITIALIZED
        synchronized(played) { released++ }
    }

    class Builder {
        private var attributes: AudioAttributes? = null
        private var format: AudioFormat? = null
        private var mode = MODE_STREAM
        private var bufferSize = 0

        fun setAudioAttributes(value: AudioAttributes): Builder { attributes = value; return this }
        fun setAudioFormat(value: AudioFormat): Builder { format = value; return this }
        /** "IllegalArgumentException if mode is not MODE_STREAM or MODE_STATIC". */
        fun setTransferMode(value: Int): Builder {
            if (value != MODE_STREAM && value != MODE_STATIC) throw IllegalArgumentException("Invalid transfer mode $value")
            mode = value
            return this
        }
        /** "IllegalArgumentException: if bufferSizeInBytes <= 0". */
        fun setBufferSizeInBytes(value: Int): Builder {
            if (value <= 0) throw IllegalArgumentException("Invalid buffer size $value")
            bufferSize = value
            return this
        }
        /** "UnsupportedOperationException: if the parameters set on the Builder were incompatible, or if
         *  they are not supported by the device". A format without a sample rate, a static track (the
         *  player streams), or a buffer below the minimum is refused here. */
        fun build(): AudioTrack {
            val f = format ?: throw UnsupportedOperationException("no AudioFormat")
            if (f.sampleRate == 0 || mode != MODE_STREAM) throw UnsupportedOperationException("Cannot create AudioTrack")
            val minimum = getMinBufferSize(f.sampleRate, f.channelMask, f.encoding)
            if (minimum < 0 || bufferSize < minimum) throw UnsupportedOperationException("Invalid buffer size $bufferSize (minimum $minimum)")
            return AudioTrack(attributes ?: AudioAttributes.Builder().build(), f, bufferSize)
        }
    }

    /** One track's sound, as the stand-in "heard" it: its format, bytes, and when it played. */
    class Played(val sampleRate: Int, val channels: Int, val pcm: ByteArray, val startNanos: Long, val endNanos: Long)

    companion object {
        const val MODE_STATIC = 0
        const val MODE_STREAM = 1
        const val STATE_UNINITIALIZED = 0
        const val STATE_INITIALIZED = 1
        const val PLAYSTATE_STOPPED = 1
        const val PLAYSTATE_PLAYING = 3
        const val ERROR = -1
        const val ERROR_BAD_VALUE = -2
        const val ERROR_INVALID_OPERATION = -3
        const val ERROR_DEAD_OBJECT = -6

        /** What every track played, in order (tests read and clear it). */
        val played: MutableList<Played> = ArrayList()
        /** How many tracks were released. */
        var released = 0

        /** "Returns the estimated minimum buffer size required for an AudioTrack object to be created in
         *  the MODE_STREAM mode. … Returns ERROR_BAD_VALUE if an invalid parameter was passed, or ERROR if
         *  unable to query for output properties, or the minimum buffer size expressed in bytes." Here: a
         *  rate outside 4000–192000 Hz, a mask other than mono or stereo, or an encoding other than 8-, 16-bit
         *  or float is ERROR_BAD_VALUE; otherwise about 20 ms of frames. */
        fun getMinBufferSize(sampleRateInHz: Int, channelConfig: Int, audioFormat: Int): Int {
            if (sampleRateInHz < AudioFormat.SAMPLE_RATE_HZ_MIN || sampleRateInHz > AudioFormat.SAMPLE_RATE_HZ_MAX) return ERROR_BAD_VALUE
            val channels = when (channelConfig) { AudioFormat.CHANNEL_OUT_MONO -> 1; AudioFormat.CHANNEL_OUT_STEREO -> 2; else -> return ERROR_BAD_VALUE }
            val bytes = when (audioFormat) { AudioFormat.ENCODING_PCM_8BIT -> 1; AudioFormat.ENCODING_PCM_16BIT -> 2; AudioFormat.ENCODING_PCM_FLOAT -> 4; else -> return ERROR_BAD_VALUE }
            return sampleRateInHz / 50 * channels * bytes
        }
    }
}

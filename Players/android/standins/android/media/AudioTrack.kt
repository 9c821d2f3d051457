// Stand-in for android.media.AudioTrack (API 23+ Builder, MODE_STREAM, byte-array writes), for
// compiling and testing the player on the JVM. It follows the documented contract and refuses
// what the platform refuses; it is never kinder. Playback time is the one thing not simulated:
// once started, a playing track consumes what it is given at once, so the head position is the
// frames written while playing. Test control lives in `standin.StandinAudioDevice`, never here.
package android.media

import standin.StandinAudioDevice
import java.io.ByteArrayOutputStream

/**
 * "The AudioTrack class manages and plays a single audio resource for Java applications. It allows
 * streaming of PCM audio buffers to the audio sink for playback."
 */
class AudioTrack private constructor(
    private val attributes: AudioAttributes,
    private val format: AudioFormat,
    private val bufferSizeInBytes: Int,
    private val mode: Int
) {
    companion object {
        const val MODE_STATIC = 0
        const val MODE_STREAM = 1
        /** "State of an AudioTrack that was not successfully initialized upon creation." */
        const val STATE_UNINITIALIZED = 0
        const val STATE_INITIALIZED = 1
        const val STATE_NO_STATIC_DATA = 2
        const val PLAYSTATE_STOPPED = 1
        const val PLAYSTATE_PAUSED = 2
        const val PLAYSTATE_PLAYING = 3
        const val SUCCESS = 0
        /** "Denotes a generic operation failure." */
        const val ERROR = -1
        /** "Denotes a failure due to the use of an invalid value." */
        const val ERROR_BAD_VALUE = -2
        /** "Denotes a failure due to the improper use of a method." */
        const val ERROR_INVALID_OPERATION = -3
        /** "An error code indicating that the object reporting it is no longer valid and needs to be recreated." */
        const val ERROR_DEAD_OBJECT = -6
        const val WRITE_BLOCKING = 0
        const val WRITE_NON_BLOCKING = 1
        private const val DEVICE_SAMPLE_RATE = 48000

        /**
         * "Returns the estimated minimum buffer size required for an AudioTrack object to be created
         * in the MODE_STREAM mode." "Returns ERROR_BAD_VALUE if an invalid parameter was passed,
         * or ERROR if unable to query for output properties, or the minimum buffer size expressed
         * in bytes." Invalid: a sample rate outside 4000–192000 Hz, a channel mask that is not an
         * output mask, an encoding that is not linear PCM.
         */
        @JvmStatic
        fun getMinBufferSize(sampleRateInHz: Int, channelConfig: Int, audioFormat: Int): Int {
            val channels = when (channelConfig) {
                AudioFormat.CHANNEL_OUT_MONO -> 1
                AudioFormat.CHANNEL_OUT_STEREO -> 2
                else -> return ERROR_BAD_VALUE
            }
            if (audioFormat != AudioFormat.ENCODING_PCM_16BIT && audioFormat != AudioFormat.ENCODING_PCM_8BIT && audioFormat != AudioFormat.ENCODING_PCM_FLOAT) return ERROR_BAD_VALUE
            if (sampleRateInHz < AudioFormat.SAMPLE_RATE_HZ_MIN || sampleRateInHz > AudioFormat.SAMPLE_RATE_HZ_MAX) return ERROR_BAD_VALUE
            if (!StandinAudioDevice.available) return ERROR
            return StandinAudioDevice.minFrameCount * channels * AudioFormat.bytesPerSample(audioFormat)
        }
    }

    private var state = STATE_INITIALIZED
    private var playState = PLAYSTATE_STOPPED
    /** Bytes written and not yet played (priming before play(), or while paused). */
    private var pending = 0
    /** Whether the data path has filled since play(): a stream track plays nothing before. */
    private var started = false
    private var headFrames = 0L
    private var accepted = 0L
    private var dead = false
    private val playedBytes = ByteArrayOutputStream()
    private val frameSize = format.channelCount * AudioFormat.bytesPerSample(format.encoding)

    init {
        StandinAudioDevice.trackOpened()
    }

    /** "Returns the state of the AudioTrack instance": STATE_INITIALIZED, or STATE_UNINITIALIZED after release(). */
    fun getState(): Int = synchronized(this) { state }

    /** "Returns the playback state of the AudioTrack instance." */
    fun getPlayState(): Int = synchronized(this) { playState }

    fun getSampleRate(): Int = format.sampleRate

    fun getBufferSizeInFrames(): Int = bufferSizeInBytes / frameSize

    /**
     * "Returns the playback head position expressed in frames." "For MODE_STREAM, the position is
     * reset to zero by flush()." A stopped track reports 0, as AOSP's AudioTrack::getPosition does
     * for a stopped non-offloaded track ("IAudioTrack::stop() isn't synchronous; we don't know
     * when presentation completes"), so a player cannot wait for the drain after stop(). After
     * release() the native track is gone: IllegalStateException ("Unable to retrieve AudioTrack
     * pointer for getPosition()").
     */
    fun getPlaybackHeadPosition(): Int = synchronized(this) {
        checkNative("getPosition()")
        if (playState == PLAYSTATE_STOPPED) 0 else headFrames.toInt()
    }

    /**
     * "Starts playing an AudioTrack." "@throws IllegalStateException if the track isn't properly
     * initialized." In MODE_STREAM "you can optionally prime the data path prior to calling
     * play()"; "If you don't call write() first, or if you call write() but with an insufficient
     * amount of data, then the track will be in underrun state at play(). In this case, playback
     * will not actually start playing until the data path is filled to a device-specific minimum
     * level." The stand-in's minimum level is the whole buffer, the strictest a device may be.
     */
    fun play() = synchronized(this) {
        if (state != STATE_INITIALIZED) throw IllegalStateException("play() called on uninitialized AudioTrack.")
        playState = PLAYSTATE_PLAYING
        consumePending()
    }

    /** "Pauses the playback of the audio data." "@throws IllegalStateException" on an uninitialized track. */
    fun pause() = synchronized(this) {
        if (state != STATE_INITIALIZED) throw IllegalStateException("pause() called on uninitialized AudioTrack.")
        playState = PLAYSTATE_PAUSED
    }

    /**
     * "Stops playing the audio data. When used on an instance created in MODE_STREAM mode, audio
     * will stop playing after the last buffer that was written has been played."
     * "@throws IllegalStateException" on an uninitialized track.
     */
    fun stop() = synchronized(this) {
        if (state != STATE_INITIALIZED) throw IllegalStateException("stop() called on uninitialized AudioTrack.")
        // What was written still plays out (it is already in playedBytes); the position restarts.
        pending = 0
        headFrames = 0
        started = false
        playState = PLAYSTATE_STOPPED
    }

    /**
     * "Flushes the audio data currently queued for playback. Any data that has been written but
     * not yet presented will be discarded. No-op if not stopped or paused, or if the track's
     * creation mode is not MODE_STREAM."
     */
    fun flush() = synchronized(this) {
        if (state == STATE_INITIALIZED && mode == MODE_STREAM && playState != PLAYSTATE_PLAYING) {
            pending = 0
            headFrames = 0
        }
    }

    /**
     * "Releases the native AudioTrack resources." The track becomes STATE_UNINITIALIZED: later
     * play()/pause()/stop() throw IllegalStateException and write() returns ERROR_INVALID_OPERATION.
     */
    fun release() {
        val bytes = synchronized(this) {
            if (state == STATE_UNINITIALIZED) return
            state = STATE_UNINITIALIZED
            playState = PLAYSTATE_STOPPED
            playedBytes.toByteArray()
        }
        StandinAudioDevice.trackReleased(bytes)
    }

    /**
     * "Writes the audio data to the audio sink for playback (streaming mode)." In streaming mode
     * the write "will normally block until all the data has been enqueued for playback, and will
     * return a full transfer count. However, if the track is stopped or paused on entry [...] then
     * the write may return a short transfer count." Returns "zero or the positive number of bytes
     * that were written, or one of the following error codes. The number of bytes will be a
     * multiple of the frame size in bytes not to exceed sizeInBytes": ERROR_INVALID_OPERATION "if
     * the track isn't properly initialized", ERROR_BAD_VALUE "if the parameters don't resolve to
     * valid data and indexes", ERROR_DEAD_OBJECT "if the AudioTrack is not valid anymore and needs
     * to be recreated. The dead object error code is not returned if some data was successfully
     * transferred. In this case, the error is returned at the next write()".
     */
    fun write(audioData: ByteArray?, offsetInBytes: Int, sizeInBytes: Int): Int = write(audioData, offsetInBytes, sizeInBytes, WRITE_BLOCKING)

    /** As [write] with a write mode; "ERROR_BAD_VALUE" for a mode other than WRITE_BLOCKING or WRITE_NON_BLOCKING. */
    fun write(audioData: ByteArray?, offsetInBytes: Int, sizeInBytes: Int, writeMode: Int): Int {
        synchronized(this) { return writeLocked(audioData, offsetInBytes, sizeInBytes, writeMode) }
    }

    private fun writeLocked(audioData: ByteArray?, offsetInBytes: Int, sizeInBytes: Int, writeMode: Int): Int {
        if (state == STATE_UNINITIALIZED || format.encoding == AudioFormat.ENCODING_PCM_FLOAT) return ERROR_INVALID_OPERATION
        if (writeMode != WRITE_BLOCKING && writeMode != WRITE_NON_BLOCKING) return ERROR_BAD_VALUE
        if (audioData == null || offsetInBytes < 0 || sizeInBytes < 0 || offsetInBytes + sizeInBytes < 0 || offsetInBytes + sizeInBytes > audioData.size) return ERROR_BAD_VALUE
        if (dead) return ERROR_DEAD_OBJECT
        var count = sizeInBytes - sizeInBytes % frameSize
        if (playState != PLAYSTATE_PLAYING) {
            val room = bufferSizeInBytes - pending
            if (count > room) count = room - room % frameSize
        }
        val deadAfter = StandinAudioDevice.deadAfterBytes
        if (deadAfter != null && accepted + count >= deadAfter) {
            count = (deadAfter - accepted).toInt().coerceAtLeast(0)
            count -= count % frameSize
            dead = true
            if (count == 0) return ERROR_DEAD_OBJECT
        }
        playedBytes.write(audioData, offsetInBytes, count)
        accepted += count
        pending += count
        consumePending()
        return count
    }

    /** A playing track starts once the data path is full, then plays everything it is given. */
    private fun consumePending() {
        if (playState != PLAYSTATE_PLAYING) return
        if (!started && pending < bufferSizeInBytes) return
        started = true
        headFrames += pending / frameSize
        pending = 0
    }

    private fun checkNative(call: String) {
        if (state == STATE_UNINITIALIZED) throw IllegalStateException("Unable to retrieve AudioTrack pointer for $call")
    }

    /**
     * "Builder class for AudioTrack objects." "If the audio attributes are not set [...],
     * attributes comprising USAGE_MEDIA will be used. If the audio format is not specified or is
     * incomplete, its channel configuration will be CHANNEL_OUT_STEREO and the encoding will be
     * ENCODING_PCM_16BIT." "If the buffer size is not specified [...] and the mode is MODE_STREAM,
     * the minimum buffer size is used."
     */
    class Builder {
        private var attributes: AudioAttributes? = null
        private var format: AudioFormat? = null
        private var bufferSize = 0
        private var mode = MODE_STREAM

        /** "@throws IllegalArgumentException" when attributes is null. */
        fun setAudioAttributes(attributes: AudioAttributes?): Builder {
            this.attributes = attributes ?: throw IllegalArgumentException("Illegal null AudioAttributes argument")
            return this
        }

        /** "@throws IllegalArgumentException" when format is null. */
        fun setAudioFormat(format: AudioFormat?): Builder {
            this.format = format ?: throw IllegalArgumentException("Illegal null AudioFormat argument")
            return this
        }

        /** "@throws IllegalArgumentException" when the size is not positive. */
        fun setBufferSizeInBytes(bufferSizeInBytes: Int): Builder {
            if (bufferSizeInBytes <= 0) throw IllegalArgumentException("Invalid buffer size $bufferSizeInBytes")
            bufferSize = bufferSizeInBytes
            return this
        }

        /** "@throws IllegalArgumentException" for a mode other than MODE_STREAM or MODE_STATIC. */
        fun setTransferMode(mode: Int): Builder {
            if (mode != MODE_STREAM && mode != MODE_STATIC) throw IllegalArgumentException("Invalid transfer mode $mode")
            this.mode = mode
            return this
        }

        /**
         * "Builds an AudioTrack instance initialized with all the parameters set on this Builder."
         * "@throws UnsupportedOperationException if the parameters set on the Builder were
         * incompatible, or if they are not supported by the device, or if the device was not
         * available." A buffer that is not whole frames is incompatible ("Invalid audio buffer size").
         */
        fun build(): AudioTrack {
            if (!StandinAudioDevice.available) throw UnsupportedOperationException("Cannot create AudioTrack: no output device")
            // Not modelled here (the player streams): refused rather than half-imitated.
            if (mode == MODE_STATIC) throw UnsupportedOperationException("the stand-in models MODE_STREAM only")
            val given = format
            val builder = AudioFormat.Builder()
                .setEncoding(if (given == null || given.encoding == AudioFormat.ENCODING_INVALID) AudioFormat.ENCODING_PCM_16BIT else given.encoding)
                .setChannelMask(if (given == null || given.channelMask == 0) AudioFormat.CHANNEL_OUT_STEREO else given.channelMask)
                .setSampleRate(if (given == null || given.sampleRate == 0) DEVICE_SAMPLE_RATE else given.sampleRate)
            val complete = builder.build()
            val frameSize = complete.channelCount * AudioFormat.bytesPerSample(complete.encoding)
            val channelConfig = complete.channelMask
            val minimum = getMinBufferSize(complete.sampleRate, channelConfig, complete.encoding)
            if (minimum <= 0) throw UnsupportedOperationException("Cannot create AudioTrack: unsupported format")
            var size = if (bufferSize == 0) minimum else bufferSize
            if (size % frameSize != 0) throw UnsupportedOperationException("Invalid audio buffer size.")
            if (mode == MODE_STREAM && size < minimum) size = minimum
            return AudioTrack(attributes ?: AudioAttributes.Builder().setUsage(AudioAttributes.USAGE_MEDIA).build(), complete, size, mode)
        }
    }
}

// Stand-in for android.media.AudioFormat (API 21+ Builder), for compiling and testing the player on
// the JVM. It keeps only what the player uses, with the constants' real values, and refuses what
// the platform refuses.
package android.media

/**
 * "The AudioFormat class is used to access a number of audio format and channel configuration
 * constants." An immutable format built by [Builder].
 */
class AudioFormat private constructor(val encoding: Int, val sampleRate: Int, val channelMask: Int) {
    /** "Return the channel count": the number of bits set in the position mask. */
    val channelCount: Int get() = Integer.bitCount(channelMask)

    companion object {
        const val ENCODING_INVALID = 0
        const val ENCODING_DEFAULT = 1
        /** "Audio data format: PCM 16 bit per sample. Guaranteed to be supported by devices." */
        const val ENCODING_PCM_16BIT = 2
        const val ENCODING_PCM_8BIT = 3
        const val ENCODING_PCM_FLOAT = 4
        const val CHANNEL_INVALID = 0
        const val CHANNEL_OUT_FRONT_LEFT = 0x4
        const val CHANNEL_OUT_FRONT_RIGHT = 0x8
        const val CHANNEL_OUT_MONO = CHANNEL_OUT_FRONT_LEFT
        const val CHANNEL_OUT_STEREO = CHANNEL_OUT_FRONT_LEFT or CHANNEL_OUT_FRONT_RIGHT
        const val SAMPLE_RATE_UNSPECIFIED = 0
        /** The platform's limits for setSampleRate (AudioFormat.SAMPLE_RATE_HZ_MIN/MAX, hidden constants). */
        internal const val SAMPLE_RATE_HZ_MIN = 4000
        internal const val SAMPLE_RATE_HZ_MAX = 192000

        internal fun bytesPerSample(encoding: Int) = when (encoding) {
            ENCODING_PCM_8BIT -> 1
            ENCODING_PCM_16BIT, ENCODING_DEFAULT -> 2
            ENCODING_PCM_FLOAT -> 4
            else -> throw IllegalArgumentException("Bad audio format $encoding")
        }
    }

    /** "Builder class for AudioFormat objects." Unset values take the platform defaults in AudioTrack. */
    class Builder {
        private var encoding = ENCODING_INVALID
        private var sampleRate = SAMPLE_RATE_UNSPECIFIED
        private var channelMask = CHANNEL_INVALID

        /** "Combines all of the format characteristics that have been set and return a new AudioFormat object." */
        fun build(): AudioFormat = AudioFormat(encoding, sampleRate, channelMask)

        /** "@throws java.lang.IllegalArgumentException" for an encoding that is not one of the ENCODING_ constants. */
        fun setEncoding(encoding: Int): Builder {
            if (encoding != ENCODING_DEFAULT && encoding != ENCODING_PCM_8BIT && encoding != ENCODING_PCM_16BIT && encoding != ENCODING_PCM_FLOAT) {
                throw IllegalArgumentException("Invalid encoding $encoding")
            }
            this.encoding = if (encoding == ENCODING_DEFAULT) ENCODING_PCM_16BIT else encoding
            return this
        }

        /** "@throws java.lang.IllegalArgumentException" for an invalid sample rate (outside 4000–192000 Hz, 0 meaning unspecified). */
        fun setSampleRate(sampleRate: Int): Builder {
            if ((sampleRate < SAMPLE_RATE_HZ_MIN || sampleRate > SAMPLE_RATE_HZ_MAX) && sampleRate != SAMPLE_RATE_UNSPECIFIED) {
                throw IllegalArgumentException("Invalid sample rate $sampleRate")
            }
            this.sampleRate = sampleRate
            return this
        }

        /**
         * "Sets the channel position mask." "@throws java.lang.IllegalArgumentException if the
         * channel mask is invalid or if both channel index mask and channel position mask are
         * specified but do not have the same channel count." A zero mask is refused.
         */
        fun setChannelMask(channelMask: Int): Builder {
            if (channelMask == 0) throw IllegalArgumentException("Invalid zero channel mask")
            this.channelMask = channelMask
            return this
        }
    }
}

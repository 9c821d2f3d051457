// Behavioural stand-in for android.media.AudioFormat, for compiling and testing the player on the
// JVM. Only what the player uses; the values are Android's.
package android.media

class AudioFormat private constructor(val sampleRate: Int, val channelMask: Int, val encoding: Int) {
    /** "The number of channels [is] derived from the channel mask" (AudioFormat.getChannelCount). */
    val channelCount: Int get() = Integer.bitCount(channelMask)

    class Builder {
        private var sampleRate = 0
        private var channelMask = CHANNEL_OUT_MONO
        private var encoding = ENCODING_PCM_16BIT

        /** "IllegalArgumentException: if sampleRate is not in the range SAMPLE_RATE_HZ_MIN … SAMPLE_RATE_HZ_MAX". */
        fun setSampleRate(rate: Int): Builder {
            if (rate < SAMPLE_RATE_HZ_MIN || rate > SAMPLE_RATE_HZ_MAX) throw IllegalArgumentException("Invalid sample rate $rate")
            sampleRate = rate
            return this
        }

        fun setChannelMask(mask: Int): Builder {
            if (mask == 0) throw IllegalArgumentException("Invalid zero channel mask")
            channelMask = mask
            return this
        }

        /** "IllegalArgumentException: if the encoding is unknown". */
        fun setEncoding(value: Int): Builder {
            if (value != ENCODING_PCM_16BIT && value != ENCODING_PCM_8BIT && value != ENCODING_PCM_FLOAT) throw IllegalArgumentException("Invalid encoding $value")
            encoding = value
            return this
        }

        fun build(): AudioFormat = AudioFormat(sampleRate, channelMask, encoding)
    }

    companion object {
        const val ENCODING_PCM_16BIT = 2
        const val ENCODING_PCM_8BIT = 3
        const val ENCODING_PCM_FLOAT = 4
        const val CHANNEL_OUT_MONO = 4
        const val CHANNEL_OUT_STEREO = 12
        const val SAMPLE_RATE_HZ_MIN = 4000
        const val SAMPLE_RATE_HZ_MAX = 192000
    }
}

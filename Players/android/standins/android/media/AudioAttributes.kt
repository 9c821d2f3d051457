// Behavioural stand-in for android.media.AudioAttributes (what the player sets: usage, content type).
package android.media

class AudioAttributes private constructor(val usage: Int, val contentType: Int) {
    class Builder {
        private var usage = USAGE_UNKNOWN
        private var contentType = CONTENT_TYPE_UNKNOWN

        fun setUsage(value: Int): Builder { usage = value; return this }
        fun setContentType(value: Int): Builder { contentType = value; return this }
        fun build(): AudioAttributes = AudioAttributes(usage, contentType)
    }

    companion object {
        const val USAGE_UNKNOWN = 0
        const val USAGE_NOTIFICATION_EVENT = 10
        const val CONTENT_TYPE_UNKNOWN = 0
        const val CONTENT_TYPE_SPEECH = 1
    }
}

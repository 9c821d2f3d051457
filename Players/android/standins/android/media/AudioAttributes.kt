// Stand-in for android.media.AudioAttributes (API 21+), for compiling and testing on the JVM: the
// usage and content-type constants with their real values, and a builder that refuses unknown ones.
package android.media

/**
 * "A class to encapsulate a collection of attributes describing information about an audio
 * stream." Built by [Builder]; "attributes comprising USAGE_MEDIA" when an AudioTrack is given none.
 */
class AudioAttributes private constructor(val usage: Int, val contentType: Int) {
    companion object {
        const val USAGE_UNKNOWN = 0
        const val USAGE_MEDIA = 1
        const val USAGE_NOTIFICATION = 5
        /** "Usage value to use when the usage is to attract the user's attention, such as a reminder or low battery warning." */
        const val USAGE_NOTIFICATION_EVENT = 10
        const val USAGE_ASSISTANCE_SONIFICATION = 13
        const val CONTENT_TYPE_UNKNOWN = 0
        /** "Content type value to use when the content type is speech." */
        const val CONTENT_TYPE_SPEECH = 1
        const val CONTENT_TYPE_MUSIC = 2
        const val CONTENT_TYPE_MOVIE = 3
        const val CONTENT_TYPE_SONIFICATION = 4
        private val USAGES = setOf(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16)
    }

    class Builder {
        private var usage = USAGE_UNKNOWN
        private var contentType = CONTENT_TYPE_UNKNOWN

        fun build(): AudioAttributes = AudioAttributes(usage, contentType)

        /** "Sets the attribute describing what is the intended use of the audio signal"; an unknown usage is refused (IllegalArgumentException, API 31+). */
        fun setUsage(usage: Int): Builder {
            if (usage !in USAGES) throw IllegalArgumentException("Invalid usage $usage")
            this.usage = usage
            return this
        }

        /** "Sets the attribute describing the content type of the audio signal"; an unknown type is refused (IllegalArgumentException, API 31+). */
        fun setContentType(contentType: Int): Builder {
            if (contentType !in CONTENT_TYPE_UNKNOWN..CONTENT_TYPE_SONIFICATION) throw IllegalArgumentException("Invalid content type $contentType")
            this.contentType = contentType
            return this
        }
    }
}

// Not an Android class: the test-side control of the stand-in audio device (what was played, and
// failures to inject). Code under `android/` must never import this package; the build checks it.
package standin

/** What the stand-in audio device did and will do; reset between tests. */
object StandinAudioDevice {
    /** The device's fixed minimum buffer, in frames (a typical phone's 20 ms burst at 48 kHz, times two). */
    @Volatile var minFrameCount: Int = 1920
    /** When set, a track dies (ERROR_DEAD_OBJECT, as when the audio server restarts) after accepting this many bytes. */
    @Volatile var deadAfterBytes: Long? = null
    /** When false, building a track fails as on a device with no output available. */
    @Volatile var available: Boolean = true

    private val played = ArrayList<ByteArray>()
    private var open = 0
    private var maxOpen = 0

    /** The bytes each track played, in the order the tracks were released. */
    @Synchronized fun playedBuffers(): List<ByteArray> = ArrayList(played)
    /** The largest number of tracks that existed (built and not yet released) at the same time. */
    @Synchronized fun maxOpenTracks(): Int = maxOpen
    @Synchronized fun openTracks(): Int = open

    @Synchronized fun reset() {
        played.clear(); open = 0; maxOpen = 0
        minFrameCount = 1920; deadAfterBytes = null; available = true
    }

    @Synchronized internal fun trackOpened() { open++; if (open > maxOpen) maxOpen = open }
    @Synchronized internal fun trackReleased(bytes: ByteArray) { open--; played.add(bytes) }
}

// Where a joined announcement is played. The core never imports android.*; the Android app plays
// through `AudioTrackSink`, tests through recording sinks.
package soundpack.player

/** Plays one joined PCM buffer to the end, blocking the calling (player) thread until it is done. */
interface AudioSink {
    /** Plays `pcm` (whole frames of `format`); throws [AudioSinkException] when the device refuses. */
    fun play(pcm: ByteArray, format: PcmFormat)
}

/** The audio device refused or failed: what was asked and the platform's answer. */
class AudioSinkException(message: String) : java.io.IOException(message)

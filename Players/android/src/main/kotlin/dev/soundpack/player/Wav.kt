// 16-bit PCM WAV, as soundpack's Android export writes its clips: RIFF/WAVE with a `fmt ` chunk
// (format 1) and a `data` chunk; other chunks are skipped. Read from bytes already checked
// against the pack's SHA-256, so a bad header is a broken export, said as such.
package dev.soundpack.player

/** The PCM format every clip of a pack has, and every joined announcement. */
data class PcmFormat(val sampleRate: Int, val channels: Int, val bitsPerSample: Int = 16) {
    val bytesPerFrame: Int get() = channels * bitsPerSample / 8
}

object Wav {
    /** The format and the byte range of the samples in [bytes]; [name] is said in errors. */
    fun read(bytes: ByteArray, name: String): Pair<PcmFormat, IntRange> {
        if (bytes.size < 12 || ascii(bytes, 0) != "RIFF" || ascii(bytes, 8) != "WAVE") throw PackException("$name is not a RIFF/WAVE file")
        var offset = 12
        var format: PcmFormat? = null
        while (offset + 8 <= bytes.size) {
            val id = ascii(bytes, offset)
            val size = le32(bytes, offset + 4)
            val body = offset + 8
            if (size < 0 || body.toLong() + size > bytes.size) throw PackException("$name: chunk '$id' runs past the end of the file")
            when (id) {
                "fmt " -> {
                    if (size < 16) throw PackException("$name: the fmt chunk is $size bytes")
                    val tag = le16(bytes, body)
                    if (tag != 1) throw PackException("$name: format $tag is not PCM (1)")
                    format = PcmFormat(le32(bytes, body + 4), le16(bytes, body + 2), le16(bytes, body + 14))
                }
                "data" -> {
                    val found = format ?: throw PackException("$name: the data chunk comes before the fmt chunk")
                    if (size % found.bytesPerFrame != 0) throw PackException("$name: the data chunk holds a partial frame")
                    return Pair(found, body until body + size)
                }
            }
            offset = body + size + (size and 1)
        }
        throw PackException("$name has no data chunk")
    }

    /** [pcm] (16-bit little-endian samples) as a WAV file of [format]. */
    fun write(pcm: ByteArray, format: PcmFormat): ByteArray {
        val out = java.io.ByteArrayOutputStream(44 + pcm.size)
        fun u32(v: Int) { for (i in 0..3) out.write((v ushr (8 * i)) and 0xFF) }
        fun u16(v: Int) { for (i in 0..1) out.write((v ushr (8 * i)) and 0xFF) }
        out.write("RIFF".toByteArray()); u32(36 + pcm.size)
        out.write("WAVEfmt ".toByteArray()); u32(16)
        u16(1); u16(format.channels); u32(format.sampleRate)
        u32(format.sampleRate * format.bytesPerFrame); u16(format.bytesPerFrame); u16(format.bitsPerSample)
        out.write("data".toByteArray()); u32(pcm.size)
        out.write(pcm)
        return out.toByteArray()
    }

    private fun ascii(b: ByteArray, at: Int) = String(b, at, 4, Charsets.ISO_8859_1)
    private fun le16(b: ByteArray, at: Int) = (b[at].toInt() and 0xFF) or ((b[at + 1].toInt() and 0xFF) shl 8)
    private fun le32(b: ByteArray, at: Int) = le16(b, at) or (le16(b, at + 2) shl 16)
}

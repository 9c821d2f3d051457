// 16-bit PCM WAV: where a clip's samples are (read from hostile bytes, with every chunk bounded by
// the file) and how a joined announcement is written back out.
package soundpack.player

import java.io.File
import java.io.IOException
import java.io.OutputStream
import java.io.RandomAccessFile

/** The one PCM format of a pack: every clip has it and the joined buffer is in it. */
data class PcmFormat(val sampleRate: Int, val channels: Int, val bitsPerSample: Int) {
    /** Bytes per frame (one sample for each channel). */
    val frameBytes: Int get() = channels * bitsPerSample / 8
}

/** Where a WAV file's samples lie: `dataBytes` bytes from `dataOffset`. */
data class WavLayout(val format: PcmFormat, val dataOffset: Long, val dataBytes: Long) {
    val frames: Long get() = dataBytes / format.frameBytes
}

/** Reads WAV headers and writes 16-bit PCM WAV files. */
object Wav {
    private const val MAX_CHUNKS = 64

    /**
     * The layout of the WAV `file`: RIFF/WAVE, a `fmt ` chunk with format 1 (PCM) before the
     * `data` chunk, other chunks skipped. Throws IOException saying what is wrong.
     */
    fun inspect(file: File): WavLayout {
        RandomAccessFile(file, "r").use { input ->
            val length = input.length()
            if (length < 12) throw IOException("not a WAV file: $length bytes")
            val header = ByteArray(12)
            input.readFully(header)
            if (!header.matches(0, "RIFF") || !header.matches(8, "WAVE")) throw IOException("not a WAV file: no RIFF/WAVE header")
            val riffEnd = 8 + header.le32(4)
            if (riffEnd > length) throw IOException("the RIFF header claims ${riffEnd} bytes but the file has $length")
            var format: PcmFormat? = null
            var position = 12L
            val chunk = ByteArray(8)
            for (count in 0 until MAX_CHUNKS) {
                if (position + 8 > riffEnd) break
                input.seek(position)
                input.readFully(chunk)
                val size = chunk.le32(4)
                val body = position + 8
                if (body + size > riffEnd) throw IOException("chunk '${chunk.id()}' runs past the end of the file")
                when {
                    chunk.matches(0, "fmt ") -> {
                        if (size < 16 || size > 64) throw IOException("fmt chunk of $size bytes")
                        val fmt = ByteArray(16)
                        input.readFully(fmt)
                        format = readFormat(fmt)
                    }
                    chunk.matches(0, "data") -> {
                        val found = format ?: throw IOException("data chunk before the fmt chunk")
                        if (size % found.frameBytes != 0L) throw IOException("data chunk of $size bytes is not whole frames of ${found.frameBytes} bytes")
                        return WavLayout(found, body, size)
                    }
                }
                position = body + size + (size and 1L)
            }
            throw IOException("no data chunk")
        }
    }

    private fun readFormat(fmt: ByteArray): PcmFormat {
        val tag = fmt.le16(0)
        if (tag != 1) throw IOException("format tag $tag, not 1 (integer PCM)")
        val channels = fmt.le16(2)
        val rate = fmt.le32(4)
        val blockAlign = fmt.le16(12)
        val bits = fmt.le16(14)
        if (channels !in 1..8 || rate !in 1..768_000L || bits != 16) throw IOException("$channels channels, $rate Hz, $bits bits: not 16-bit PCM")
        val format = PcmFormat(rate.toInt(), channels, bits)
        if (blockAlign != format.frameBytes) throw IOException("block align $blockAlign, not ${format.frameBytes}")
        if (fmt.le32(8) != rate * blockAlign) throw IOException("byte rate ${fmt.le32(8)} does not match $rate Hz × $blockAlign bytes")
        return format
    }

    /** Writes `pcm` (whole frames of `format`) as a canonical 44-byte-header WAV. */
    fun write(out: OutputStream, format: PcmFormat, pcm: ByteArray) {
        require(format.bitsPerSample == 16 && pcm.size % format.frameBytes == 0) { "16-bit PCM in whole frames" }
        val header = ByteArray(44)
        "RIFF".toByteArray(Charsets.US_ASCII).copyInto(header, 0)
        putLe32(header, 4, 36L + pcm.size)
        "WAVEfmt ".toByteArray(Charsets.US_ASCII).copyInto(header, 8)
        putLe32(header, 16, 16)
        putLe16(header, 20, 1)
        putLe16(header, 22, format.channels)
        putLe32(header, 24, format.sampleRate.toLong())
        putLe32(header, 28, format.sampleRate.toLong() * format.frameBytes)
        putLe16(header, 32, format.frameBytes)
        putLe16(header, 34, 16)
        "data".toByteArray(Charsets.US_ASCII).copyInto(header, 36)
        putLe32(header, 40, pcm.size.toLong())
        out.write(header)
        out.write(pcm)
    }

    private fun putLe16(bytes: ByteArray, at: Int, value: Int) {
        bytes[at] = value.toByte(); bytes[at + 1] = (value shr 8).toByte()
    }

    private fun putLe32(bytes: ByteArray, at: Int, value: Long) {
        for (i in 0..3) bytes[at + i] = (value shr (8 * i)).toByte()
    }

    private fun ByteArray.matches(at: Int, id: String) = (0 until 4).all { (this[at + it].toInt() and 0xff) == id[it] - '\u0000' }
    private fun ByteArray.id() = String(CharArray(4) { i -> val c = this[i].toInt() and 0xff; if (c in 0x20..0x7e) c.toChar() else '?' })
    private fun ByteArray.le16(at: Int) = (this[at].toInt() and 0xff) or ((this[at + 1].toInt() and 0xff) shl 8)
    private fun ByteArray.le32(at: Int): Long = (0..3).fold(0L) { acc, i -> acc or ((this[at + i].toLong() and 0xff) shl (8 * i)) }
}

// Synthetic exports for the tests: small WAV clips with distinct samples, a hand-made reading table
// (digits, 点, 元) and a soundpack.json, written into a fresh temporary folder.
package soundpack.player

import java.io.ByteArrayOutputStream
import java.io.File
import java.nio.file.Files
import java.security.MessageDigest

object TestPacks {
    val PCM = PcmFormat(22050, 1, 16)
    val DIGIT_KEYS = (0..9).map { it.toString() }
    /** Reading tokens: "0"…"9" are indices 0–9, 点 is 10, 元 is 11. */
    val TOKENS = DIGIT_KEYS + listOf("点", "元")
    private val STEMS = mapOf("点" to "dian", "元" to "yuan")

    fun tempDir(): File = Files.createTempDirectory("soundpack-player-test").toFile()

    /** The PCM data of clip `key`: a few frames whose samples identify it. */
    fun pcmOf(key: String): ByteArray {
        val seed = (listOf("prefix", "suffix", "bye") + TOKENS).indexOf(key) + 1
        val frames = 3 + seed
        val out = ByteArray(frames * 2)
        for (i in 0 until frames) {
            val sample = seed * 100 + i
            out[2 * i] = sample.toByte(); out[2 * i + 1] = (sample shr 8).toByte()
        }
        return out
    }

    /** A WAV of `pcm` in `format`, optionally with a LIST chunk before `data` (players skip it). */
    fun wav(pcm: ByteArray, format: PcmFormat = PCM, extraChunk: Boolean = false): ByteArray {
        val body = ByteArrayOutputStream()
        Wav.write(body, format, pcm)
        val plain = body.toByteArray()
        if (!extraChunk) return plain
        val list = "LIST".toByteArray(Charsets.US_ASCII) + byteArrayOf(3, 0, 0, 0, 1, 2, 3, 0)
        val out = ByteArrayOutputStream()
        out.write(plain, 0, 36)
        out.write(list)
        out.write(plain, 36, plain.size - 36)
        val bytes = out.toByteArray()
        val riff = bytes.size - 8
        for (i in 0..3) bytes[4 + i] = (riff shr (8 * i)).toByte()
        return bytes
    }

    fun sha256(bytes: ByteArray): String = MessageDigest.getInstance("SHA-256").digest(bytes).joinToString("") { "%02x".format(it) }

    /** One step entry `[next, [tokens]]`. */
    private fun step(next: Int, vararg tokens: Int) = "[$next, [${tokens.joinToString(", ")}]]"

    /**
     * The hand-made table: integer digits without leading zeros ("0" for a zero integer part), then
     * 点 and the fraction digits with a trailing zero dropped, then 元. With `decoyStart`, state 5
     * is tried first: it says "9" for every digit and ends in state 6, accepting only when
     * `decoyAccepts`.
     */
    fun tableJson(format: Int = 1, decoyStart: Boolean = false, decoyAccepts: Boolean = false, mutate: (MutableList<MutableMap<Int, MutableList<String>>>) -> Unit = {}): String {
        val steps = MutableList(14) { LinkedHashMap<Int, MutableList<String>>() as MutableMap<Int, MutableList<String>> }
        for (p in 0..11) {
            steps[p][0] = (0..9).map { d -> if (d == 0) (if (p == 11) step(1, 0) else step(0)) else step(1, d) }.toMutableList()
            if (p > 0) steps[p][1] = (0..9).map { d -> step(1, d) }.toMutableList()
        }
        steps[12][1] = (0..9).map { d -> if (d == 0) step(4) else step(2, 10, d) }.toMutableList()
        steps[13][2] = (0..9).map { d -> if (d == 0) step(3, 11) else step(3, d, 11) }.toMutableList()
        steps[13][4] = (0..9).map { d -> if (d == 0) step(3, 11) else step(3, 10, 0, d, 11) }.toMutableList()
        if (decoyStart) for (p in 0..13) steps[p][5] = (0..9).map { step(if (p == 13) 6 else 5, 9) }.toMutableList()
        mutate(steps)
        val starts = if (decoyStart) "[5, 0]" else "[0]"
        val accepting = if (decoyAccepts) "[3, 6]" else "[3]"
        val stepText = steps.joinToString(",\n    ") { row -> "{" + row.entries.joinToString(", ") { "\"${it.key}\": [${it.value.joinToString(", ")}]" } + "}" }
        val tokens = TOKENS.joinToString(", ") { "\"$it\"" }
        return """{"format": $format, "grammar": "test", "options": {}, "digits": 14, "integerDigits": 12,
  "tokens": [$tokens], "starts": $starts, "accepting": $accepting,
  "steps": [
    $stepText
  ]}"""
    }

    /**
     * Writes an export into `dir` and returns it. `omit` leaves clips out of the export;
     * `pathOf` overrides a clip's manifest path; `manifestEdit` rewrites the finished manifest text.
     */
    fun write(
        dir: File = tempDir(),
        omit: Set<String> = emptySet(),
        minPlayerVersion: Int = 1,
        maxAmount: String = "999999999999.99",
        table: String = tableJson(),
        extraChunkIn: String? = null,
        pathOf: Map<String, String> = emptyMap(),
        manifestEdit: (String) -> String = { it }
    ): File {
        File(dir, "clips").mkdirs()
        val keys = (listOf("prefix", "suffix", "bye") + TOKENS).filter { it !in omit }
        val clipEntries = keys.map { key ->
            val name = "sp_test_${STEMS[key] ?: key}.wav"
            val bytes = wav(pcmOf(key), extraChunk = key == extraChunkIn)
            File(dir, "clips/$name").writeBytes(bytes)
            val path = pathOf[key] ?: "clips/$name"
            "\"$key\": {\"file\": \"$path\", \"frames\": ${pcmOf(key).size / 2}, \"bytes\": ${bytes.size}, \"sha256\": \"${sha256(bytes)}\"}"
        }
        val manifest = """{"format": 1, "minPlayerVersion": $minPlayerVersion, "id": "test", "version": "1.0.0",
 "digest": "${sha256(byteArrayOf(1))}", "maxAmount": "$maxAmount",
 "pcm": {"sampleRate": 22050, "channels": 1, "bitsPerSample": 16},
 "phrases": {"default": ["prefix", "{amount}", "suffix"], "short": ["{amount}"], "goodbye": ["bye"]},
 "defaultPhrase": "default",
 "texts": {"prefix": "测试到账", "suffix": "谢谢", "bye": "再见"},
 "clips": {${clipEntries.joinToString(",\n  ")}},
 "reading": ${table}}"""
        File(dir, "soundpack.json").writeText(manifestEdit(manifest), Charsets.UTF_8)
        return dir
    }

    fun load(dir: File = write()): ExportedPack = PackLoader().load(dir)
}

package dev.soundpack.player

import java.io.File
import java.nio.file.Files
import java.security.MessageDigest

/** A small export written from Kotlin: a two-digit "grammar" whose table reads 0–99 cents as
 *  the digit keys "d0"…"d9" (tens then units, a zero tens digit unsaid), a prefix, and a phrase. */
object Fixtures {
    val format = PcmFormat(8000, 1)

    fun sha256(bytes: ByteArray) = MessageDigest.getInstance("SHA-256").digest(bytes).joinToString("") { "%02x".format(it) }

    /** A clip whose every sample is [value], [frames] long. */
    fun clip(value: Short, frames: Int): ByteArray {
        val pcm = ByteArray(frames * 2)
        for (i in 0 until frames) { pcm[2 * i] = (value.toInt() and 0xFF).toByte(); pcm[2 * i + 1] = ((value.toInt() shr 8) and 0xFF).toByte() }
        return Wav.write(pcm, format)
    }

    /** The reading table: positions 0–11 say nothing in state 0; 12 (tens) says the digit unless 0;
     *  13 (units) says the digit. One start, accepting 0. */
    fun table(): String {
        val tokens = (0..9).joinToString(",") { "\"d$it\"" }
        val silent = (0..9).joinToString(",") { "[0,[]]" }
        val tens = (0..9).joinToString(",") { if (it == 0) "[0,[]]" else "[0,[$it]]" }
        val units = (0..9).joinToString(",") { "[0,[$it]]" }
        val steps = (0 until 12).map { "{\"0\":[$silent]}" } + "{\"0\":[$tens]}" + "{\"0\":[$units]}"
        return "{\"format\":1,\"grammar\":\"test\",\"options\":{},\"digits\":14,\"integerDigits\":12,\"tokens\":[$tokens],\"starts\":[0],\"accepting\":[0],\"steps\":[${steps.joinToString(",")}]}"
    }

    /** The export in a new temporary folder; [edit] may change soundpack.json's text first. */
    fun export(edit: (String) -> String = { it }, skipClip: String? = null): File {
        val folder = Files.createTempDirectory("soundpack-player-test").toFile()
        File(folder, "clips").mkdirs()
        val clips = StringBuilder()
        val keys = listOf("prefix", "order") + (0..9).map { "d$it" }
        keys.forEachIndexed { index, key ->
            val bytes = clip((index + 1).toShort(), 10 + index)
            val name = "clips/sp_test_$key.wav"
            if (key != skipClip) File(folder, name).writeBytes(bytes)
            if (clips.isNotEmpty()) clips.append(',')
            clips.append("\"$key\":{\"file\":\"$name\",\"frames\":${10 + index},\"bytes\":${bytes.size},\"sha256\":\"${sha256(bytes)}\"}")
        }
        val json = "{\"format\":1,\"minPlayerVersion\":1,\"id\":\"test\",\"version\":\"1.0.0\",\"digest\":\"${"0".repeat(64)}\",\"maxAmount\":\"0.99\"," +
            "\"pcm\":{\"sampleRate\":8000,\"channels\":1,\"bitsPerSample\":16}," +
            "\"phrases\":{\"default\":[\"prefix\",\"{amount}\"],\"order\":[\"order\"]},\"defaultPhrase\":\"default\",\"texts\":{\"prefix\":\"paid\"}," +
            "\"clips\":{$clips},\"reading\":${table()}}"
        File(folder, "soundpack.json").writeText(edit(json))
        return folder
    }
}

// An exported pack (`soundpack export ID --platform android -o DIR`): DIR/soundpack.json and the
// clips it lists, loaded loudly. Every check a phone needs before trusting a downloaded folder is
// made here, once: the format and minimum player version, every clip's size, SHA-256 and PCM
// format, paths that stay in the folder, and a reading table a walk cannot leave.
package dev.soundpack.player

import java.io.File
import java.security.MessageDigest

/** Why an export cannot be used, naming the file and what is wrong. */
class PackException(message: String) : Exception(message)

class ExportedPack private constructor(
    val folder: File,
    val id: String,
    val version: String,
    val digest: String,
    /** The largest amount the pack announces, in minor units. */
    val maxMinor: Long,
    val pcm: PcmFormat,
    /** Each phrase's pieces: clip keys, and `{amount}` where the reading goes. */
    val phrases: Map<String, List<String>>,
    val defaultPhrase: String,
    val texts: Map<String, String>,
    /** Each clip key's checked samples, as a byte range of its file. */
    private val clips: Map<String, Clip>,
    val reading: ReadingTable
) {
    class Clip(val file: File, val samples: IntRange)

    /** Whether the pack has a clip for [key]. */
    fun hasClip(key: String): Boolean = clips.containsKey(key)

    /** The clip keys of [phrase] (the default one when null) for [minor] minor units (null: a
     *  phrase that says no amount). Null when the phrase says an amount and none was given, or
     *  the table does not read it. */
    fun tokens(minor: Long?, phrase: String? = null): List<String>? {
        val pieces = phrases[phrase ?: defaultPhrase] ?: phrases.getValue(defaultPhrase)
        val result = ArrayList<String>()
        for (piece in pieces) {
            if (piece == AMOUNT_PIECE) {
                result.addAll(reading.tokensFor(minor ?: return null) ?: return null)
            } else {
                result.add(piece)
            }
        }
        return result
    }

    /** Whether [phrase] (the default one when null) says an amount. */
    fun saysAmount(phrase: String? = null): Boolean = (phrases[phrase ?: defaultPhrase] ?: phrases.getValue(defaultPhrase)).contains(AMOUNT_PIECE)

    /** The samples of the clips of [keys], in order, as one buffer of 16-bit little-endian PCM in
     *  the pack's format: each file's data chunk copied as it is, no gap, no conversion. Streams
     *  from the files: one clip's bytes at a time. */
    fun join(keys: List<String>): ByteArray {
        var total = 0L
        for (key in keys) total += (clips[key] ?: throw PackException("the pack has no clip for '$key'")).samples.count()
        if (total > MAX_JOINED_BYTES) throw PackException("the announcement would be $total bytes of PCM, over $MAX_JOINED_BYTES")
        val out = ByteArray(total.toInt())
        var at = 0
        for (key in keys) {
            val clip = clips.getValue(key)
            java.io.RandomAccessFile(clip.file, "r").use { file ->
                file.seek(clip.samples.first.toLong())
                file.readFully(out, at, clip.samples.count())
            }
            at += clip.samples.count()
        }
        return out
    }

    companion object {
        /** This player's version: exports that need a newer one are refused. */
        const val PLAYER_VERSION = 1L
        const val FORMAT = 1L
        const val AMOUNT_PIECE = "{amount}"
        private const val MAX_DOCUMENT_BYTES = 8L shl 20
        private const val MAX_CLIP_BYTES = 16L shl 20
        /** About 6 minutes of 48 kHz stereo: far past the 30 s an announcement may last. */
        private const val MAX_JOINED_BYTES = 64L shl 20

        /** The export in [folder], every clip checked; a PackException naming the problem otherwise. */
        fun load(folder: File): ExportedPack {
            val documentFile = File(folder, "soundpack.json")
            if (!documentFile.isFile) throw PackException("${documentFile.path} is missing")
            if (documentFile.length() > MAX_DOCUMENT_BYTES) throw PackException("${documentFile.path} is over $MAX_DOCUMENT_BYTES bytes")
            val parsed = try { Json.parse(documentFile.readText(Charsets.UTF_8)) } catch (e: JsonException) {
                throw PackException("${documentFile.path} is not JSON: ${e.message}")
            }
            @Suppress("UNCHECKED_CAST")
            val json = parsed as? Map<String, Any?> ?: throw PackException("${documentFile.path} is not a JSON object")
            val where = "soundpack.json"
            val format = json.long("format", where)
            if (format != FORMAT) throw PackException("$where has format $format; this player reads format $FORMAT (update the player or re-export)")
            val minPlayer = json.long("minPlayerVersion", where)
            if (minPlayer > PLAYER_VERSION) throw PackException("$where needs player version $minPlayer; this is player version $PLAYER_VERSION (update the player)")
            val pcmJson = json.obj("pcm", where)
            val pcm = PcmFormat(pcmJson.long("sampleRate", "pcm").toInt(), pcmJson.long("channels", "pcm").toInt(), pcmJson.long("bitsPerSample", "pcm").toInt())
            if (pcm.bitsPerSample != 16 || pcm.channels !in 1..2 || pcm.sampleRate !in 8000..48000) throw PackException("$where: pcm $pcm is not 16-bit, 1-2 channels, 8-48 kHz")
            val phrases = json.obj("phrases", where).mapValues { (id, pieces) ->
                (pieces as? List<*>)?.map { it as? String ?: throw PackException("$where: phrase '$id' has a piece that is not a string") }
                    ?: throw PackException("$where: phrase '$id' is not a list of pieces")
            }
            val defaultPhrase = json.string("defaultPhrase", where)
            if (phrases[defaultPhrase] == null) throw PackException("$where: the default phrase '$defaultPhrase' is not one of its phrases")
            val texts = json.obj("texts", where).mapValues { (key, text) -> text as? String ?: throw PackException("$where: the text of '$key' is not a string") }
            val clips = json.obj("clips", where).mapValues { (key, value) ->
                @Suppress("UNCHECKED_CAST")
                clip(folder, key, value as? Map<String, Any?> ?: throw PackException("$where: clip '$key' is not an object"), pcm)
            }
            for ((id, pieces) in phrases) for (piece in pieces) {
                if (piece != AMOUNT_PIECE && !clips.containsKey(piece)) throw PackException("$where: phrase '$id' says '$piece', which has no clip")
            }
            val maxMinor = try { Amounts.parse(json.string("maxAmount", where), Long.MAX_VALUE) } catch (e: AmountException) {
                throw PackException("$where: maxAmount: ${e.message}")
            }
            val reading = ReadingTable.from(json.obj("reading", where))
            return ExportedPack(folder, json.string("id", where), json.string("version", where), json.string("digest", where), maxMinor, pcm,
                phrases, defaultPhrase, texts, clips, reading)
        }

        private fun clip(folder: File, key: String, json: Map<String, Any?>, pcm: PcmFormat): Clip {
            val where = "clip '$key'"
            val path = json.string("file", where)
            if (path.startsWith("/") || path.split('/').any { it == ".." || it.isEmpty() } || path.contains('\\')) {
                throw PackException("$where: '$path' is not a path inside the export")
            }
            val file = File(folder, path)
            val bytes = json.long("bytes", where)
            if (!file.isFile) throw PackException("$where: ${file.path} is missing")
            if (file.length() != bytes || bytes > MAX_CLIP_BYTES) throw PackException("$where: ${file.path} is ${file.length()} bytes; soundpack.json says $bytes")
            val data = file.readBytes()
            val sha256 = MessageDigest.getInstance("SHA-256").digest(data).joinToString("") { "%02x".format(it) }
            if (sha256 != json.string("sha256", where)) throw PackException("$where: ${file.path} has SHA-256 $sha256; soundpack.json says ${json.string("sha256", where)}")
            val (format, samples) = Wav.read(data, file.path)
            if (format != pcm) throw PackException("$where: ${file.path} is $format; the pack's clips are $pcm")
            val frames = json.long("frames", where)
            if (samples.count().toLong() != frames * pcm.bytesPerFrame) throw PackException("$where: ${file.path} holds ${samples.count() / pcm.bytesPerFrame} frames; soundpack.json says $frames")
            return Clip(file, samples)
        }
    }
}

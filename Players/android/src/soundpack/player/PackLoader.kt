// Loads an Android export (`soundpack.json` + `clips/*.wav`) and checks everything a player relies
// on before it says a word: the format and player version, every clip's path, size, SHA-256, PCM
// format and frame count, the phrases, and the reading table. A pack that loads plays.
package soundpack.player

import java.io.File
import java.io.IOException
import java.nio.file.Files
import java.nio.file.LinkOption

/** Reads exported packs for a player of [playerVersion]. */
class PackLoader(private val playerVersion: Int = PLAYER_VERSION) {
    companion object {
        /** The export format this player reads. */
        const val FORMAT = 1
        /** This player's version, compared with a pack's `minPlayerVersion`. */
        const val PLAYER_VERSION = 1
        const val MANIFEST = "soundpack.json"
        const val MAX_MANIFEST_BYTES = 16L * 1024 * 1024
        const val MAX_CLIP_BYTES = 16L * 1024 * 1024
        const val MAX_CLIPS = 1024
        private val CLIP_PATH = Regex("clips/[a-z][a-z0-9_]*\\.wav")
        private val KEY = Regex("[^\\u0000-\\u001f/\\\\]{1,64}")
        private val HEX64 = Regex("[0-9a-f]{64}")
        private val PHRASE_ID = Regex("[a-z0-9][a-z0-9-]{0,31}")
    }

    /** The pack exported into `folder`, or a [PackException] naming the file and the problem. */
    fun load(folder: File): ExportedPack {
        val manifestFile = File(folder, MANIFEST)
        val root = readManifest(manifestFile)
        try {
            val format = root.integer("format", Long.MIN_VALUE..Long.MAX_VALUE)
            if (format != FORMAT.toLong()) throw PackException.TooNew(manifestFile, "export format $format; this player reads format $FORMAT")
            val minPlayer = root.integer("minPlayerVersion", Long.MIN_VALUE..Long.MAX_VALUE)
            if (minPlayer > playerVersion) throw PackException.TooNew(manifestFile, "the pack needs player version $minPlayer or later; this is version $playerVersion")
            val id = root.string("id", 63)
            val version = root.string("version", 64)
            val digest = root.string("digest", 64)
            if (!HEX64.matches(digest)) throw IllegalArgumentException("\"digest\" is not a lowercase hex SHA-256")
            val maxAmountText = root.string("maxAmount", 32)
            if (maxAmountText.contains(',')) throw IllegalArgumentException("\"maxAmount\" must be a plain decimal, not $maxAmountText")
            val maxAmount = try { Amount.parse(maxAmountText) } catch (e: AmountException) { throw IllegalArgumentException("\"maxAmount\": ${e.message}") }
            val pcmFields = root.obj("pcm")
            val pcm = PcmFormat(pcmFields.int("sampleRate", 4000..192_000), pcmFields.int("channels", 1..2), pcmFields.int("bitsPerSample", 16..16))
            val textFields = root.obj("texts")
            val texts = textFields.keys.associate { it to textFields.string(it, 256) }
            val clips = readClips(folder, root.obj("clips"), pcm)
            val phrases = readPhrases(root.obj("phrases"), clips)
            val defaultPhrase = root.string("defaultPhrase", 32)
            if (!phrases.containsKey(defaultPhrase)) throw IllegalArgumentException("\"defaultPhrase\" names \"$defaultPhrase\", which is not in \"phrases\"")
            val reading = try { ReadingTable.parse(root.raw("reading")) } catch (e: IllegalArgumentException) {
                throw PackException.BadReadingTable(manifestFile, e.message ?: "unreadable")
            }
            return ExportedPack(folder, id, version, digest, maxAmount, pcm, phrases, defaultPhrase, texts, clips, reading)
        } catch (e: IllegalArgumentException) {
            throw PackException.BadManifest(manifestFile, e.message ?: "unreadable")
        }
    }

    private fun readManifest(file: File): JsonFields {
        val bytes = try {
            if (Files.isSymbolicLink(file.toPath())) throw PackException.UnsafePath(file, "the manifest is a symbolic link")
            if (!file.isFile) throw PackException.BadManifest(file, "there is no manifest file")
            if (file.length() > MAX_MANIFEST_BYTES) throw PackException.BadManifest(file, "larger than $MAX_MANIFEST_BYTES bytes")
            file.readBytes()
        } catch (e: IOException) {
            throw PackException.BadManifest(file, "cannot be read: ${e.message}")
        }
        val text = try {
            Charsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString()
        } catch (e: java.nio.charset.CharacterCodingException) {
            throw PackException.BadManifest(file, "not UTF-8")
        }
        return try { JsonFields.of(JsonParser.parse(text), "") } catch (e: IllegalArgumentException) {
            throw PackException.BadManifest(file, e.message ?: "not JSON")
        }
    }

    private fun readClips(folder: File, fields: JsonFields, pcm: PcmFormat): Map<String, Clip> {
        if (fields.size > MAX_CLIPS) throw IllegalArgumentException("\"clips\" has more than $MAX_CLIPS clips")
        val base = folder.canonicalFile
        val clips = LinkedHashMap<String, Clip>()
        for (key in fields.keys) {
            if (!KEY.matches(key)) throw IllegalArgumentException("clip key \"${key.take(64)}\" is not a clip key")
            val entry = fields.obj(key)
            val path = entry.string("file", 256)
            val file = safeClipFile(base, path)
            val frames = entry.integer("frames", 0..MAX_CLIP_BYTES)
            val bytes = entry.integer("bytes", 0..MAX_CLIP_BYTES)
            val sha = entry.string("sha256", 64)
            if (!HEX64.matches(sha)) throw IllegalArgumentException("\"${entry.pathOf("sha256")}\" is not a lowercase hex SHA-256")
            clips[key] = Clip(key, file, frames, bytes, sha, checkClip(file, frames, bytes, sha, pcm))
        }
        return clips
    }

    /** `clips/NAME.wav` under the export folder, never a path that leaves it. */
    private fun safeClipFile(base: File, path: String): File {
        val shown = File(base, path.take(256))
        if (path.startsWith("/") || path.startsWith("\\") || (path.length > 1 && path[1] == ':')) throw PackException.UnsafePath(shown, "clip path \"$path\" is absolute")
        if (path.split('/', '\\').any { it == ".." }) throw PackException.UnsafePath(shown, "clip path \"$path\" contains ..")
        if (!CLIP_PATH.matches(path)) throw PackException.UnsafePath(shown, "clip path \"$path\" is not clips/NAME.wav with NAME [a-z][a-z0-9_]*")
        val file = File(base, path)
        if (Files.isSymbolicLink(file.toPath()) || Files.isSymbolicLink(file.parentFile.toPath())) throw PackException.UnsafePath(file, "is a symbolic link")
        if (!file.canonicalPath.startsWith(base.path + File.separator)) throw PackException.UnsafePath(file, "resolves outside ${base.path}")
        return file
    }

    private fun checkClip(file: File, frames: Long, bytes: Long, sha: String, pcm: PcmFormat): WavLayout {
        if (!Files.isRegularFile(file.toPath(), LinkOption.NOFOLLOW_LINKS)) throw PackException.BadClip(file, "missing")
        val size = file.length()
        if (size != bytes) throw PackException.BadClip(file, "$size bytes, the manifest says $bytes")
        val actual = try { Sha256.hex(file, MAX_CLIP_BYTES) } catch (e: IOException) { throw PackException.BadClip(file, "cannot be read: ${e.message}") }
        if (actual != sha) throw PackException.BadClip(file, "SHA-256 $actual, the manifest says $sha (the file changed)")
        val layout = try { Wav.inspect(file) } catch (e: IOException) { throw PackException.BadClip(file, e.message ?: "not a WAV file") }
        if (layout.format != pcm) throw PackException.BadClip(file, "${describe(layout.format)}, the pack is ${describe(pcm)}")
        if (layout.frames != frames) throw PackException.BadClip(file, "${layout.frames} frames, the manifest says $frames")
        return layout
    }

    private fun describe(f: PcmFormat) = "${f.sampleRate} Hz, ${f.channels} channel(s), ${f.bitsPerSample}-bit"

    private fun readPhrases(fields: JsonFields, clips: Map<String, Clip>): Map<String, List<Piece>> {
        if (fields.size !in 1..64) throw IllegalArgumentException("\"phrases\" must have 1 to 64 phrases")
        val phrases = LinkedHashMap<String, List<Piece>>()
        for (id in fields.keys) {
            if (!PHRASE_ID.matches(id)) throw IllegalArgumentException("phrase id \"${id.take(40)}\" is not [a-z0-9][a-z0-9-]{0,31}")
            val path = fields.pathOf(id)
            val pieces = fields.array(id, 32).mapIndexed { i, piece ->
                val text = JsonFields.string(piece, "$path[$i]", 64)
                if (text == "{amount}") Piece.AmountReading else {
                    if (!clips.containsKey(text)) throw IllegalArgumentException("\"$path[$i]\" names clip \"$text\", which is not in \"clips\"")
                    Piece.Clip(text)
                }
            }
            if (pieces.count { it == Piece.AmountReading } > 1) throw IllegalArgumentException("\"$path\" says {amount} more than once")
            phrases[id] = pieces
        }
        return phrases
    }
}

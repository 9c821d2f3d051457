package soundpack.player

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.File

class PackLoaderTest {
    private inline fun <reified T : PackException> assertRefused(dir: File, vararg fragments: String): T {
        val error = assertThrows(T::class.java) { PackLoader().load(dir) }
        for (fragment in fragments) assertTrue(error.message!!.contains(fragment), "message \"${error.message}\" lacks \"$fragment\"")
        return error
    }

    @Test
    fun `a well-formed export loads with its clips checked`() {
        val pack = TestPacks.load()
        assertEquals("test", pack.id)
        assertEquals(TestPacks.PCM, pack.pcm)
        assertEquals(Amount.parse("999999999999.99"), pack.maxAmount)
        assertEquals(listOf(Piece.Clip("prefix"), Piece.AmountReading, Piece.Clip("suffix")), pack.phrases["default"])
        assertEquals(TestPacks.pcmOf("元").size / 2L, pack.clips.getValue("元").frames)
        assertEquals("测试到账", pack.texts["prefix"])
    }

    @Test
    fun `a clip with one changed byte is refused, naming the file`() {
        val dir = TestPacks.write()
        val clip = File(dir, "clips/sp_test_5.wav")
        val bytes = clip.readBytes()
        bytes[bytes.size - 1] = (bytes[bytes.size - 1] + 1).toByte()
        clip.writeBytes(bytes)
        val error = assertRefused<PackException.BadClip>(dir, "sp_test_5.wav", "SHA-256")
        assertEquals(clip.canonicalFile, error.file.canonicalFile)
    }

    @Test
    fun `a clip of the wrong size or missing is refused`() {
        val dir = TestPacks.write()
        File(dir, "clips/sp_test_3.wav").appendBytes(byteArrayOf(0, 0))
        assertRefused<PackException.BadClip>(dir, "sp_test_3.wav", "bytes, the manifest says")
        File(dir, "clips/sp_test_3.wav").delete()
        assertRefused<PackException.BadClip>(dir, "sp_test_3.wav", "missing")
    }

    @Test
    fun `a pack needing a newer player is refused`() {
        assertRefused<PackException.TooNew>(TestPacks.write(minPlayerVersion = 2), "soundpack.json", "player version 2")
        assertRefused<PackException.TooNew>(TestPacks.write(manifestEdit = { it.replace("\"format\": 1, \"minPlayerVersion\"", "\"format\": 2, \"minPlayerVersion\"") }), "export format 2")
    }

    @Test
    fun `clip paths that leave the folder or are not plain clip names are refused`() {
        assertRefused<PackException.UnsafePath>(TestPacks.write(pathOf = mapOf("7" to "clips/../../etc/passwd")), "contains ..")
        assertRefused<PackException.UnsafePath>(TestPacks.write(pathOf = mapOf("7" to "/etc/passwd")), "absolute")
        assertRefused<PackException.UnsafePath>(TestPacks.write(pathOf = mapOf("7" to "clips/Seven.wav")), "not clips/NAME.wav")
        assertRefused<PackException.UnsafePath>(TestPacks.write(pathOf = mapOf("7" to "soundpack.json")), "not clips/NAME.wav")
    }

    @Test
    fun `a clip symlinked out of the folder is refused`() {
        val outside = TestPacks.tempDir()
        val dir = TestPacks.write()
        val clip = File(dir, "clips/sp_test_7.wav")
        val target = File(outside, "x.wav")
        clip.copyTo(target)
        clip.delete()
        java.nio.file.Files.createSymbolicLink(clip.toPath(), target.toPath())
        assertRefused<PackException.UnsafePath>(dir, "sp_test_7.wav", "symbolic link")
    }

    @Test
    fun `a clip in another PCM format or with another frame count is refused`() {
        val dir = TestPacks.write(manifestEdit = { it.replace("\"sampleRate\": 22050", "\"sampleRate\": 16000") })
        assertRefused<PackException.BadClip>(dir, "22050 Hz", "the pack is 16000 Hz")
        val frames = TestPacks.write(manifestEdit = { it.replace("\"frames\": 15,", "\"frames\": 16,") })
        assertRefused<PackException.BadClip>(frames, "15 frames, the manifest says 16")
    }

    @Test
    fun `chunks other than fmt and data are skipped`() {
        val pack = TestPacks.load(TestPacks.write(extraChunkIn = "8"))
        assertEquals(TestPacks.pcmOf("8").size.toLong(), pack.clips.getValue("8").layout.dataBytes)
    }

    @Test
    fun `garbage where a clip or the manifest should be is refused with a clear error`() {
        val dir = TestPacks.write()
        val clip = File(dir, "clips/sp_test_2.wav")
        val junk = ByteArray(clip.length().toInt()) { (it * 37).toByte() }
        clip.writeBytes(junk)
        val text = File(dir, "soundpack.json").readText().replace(Regex("\"sha256\": \"[0-9a-f]+\"}(?=,\\s*\"3\")"), "\"sha256\": \"${TestPacks.sha256(junk)}\"}")
        File(dir, "soundpack.json").writeText(text)
        assertRefused<PackException.BadClip>(dir, "sp_test_2.wav", "not a WAV file")
        File(dir, "soundpack.json").writeBytes(byteArrayOf(0x7b, 0xff.toByte(), 0x7d))
        assertRefused<PackException.BadManifest>(dir, "soundpack.json", "not UTF-8")
        File(dir, "soundpack.json").writeText("{\"format\": 1, \"minPlayerVersion\": 1}")
        assertRefused<PackException.BadManifest>(dir, "\"id\" must be a string")
        assertRefused<PackException.BadManifest>(TestPacks.write(maxAmount = "1,000.00"), "maxAmount")
    }

    @Test
    fun `a broken reading table or phrase is refused at load`() {
        assertRefused<PackException.BadReadingTable>(TestPacks.write(table = TestPacks.tableJson(format = 3)), "format 3")
        assertRefused<PackException.BadManifest>(TestPacks.write(manifestEdit = { it.replace("[\"bye\"]", "[\"hello\"]") }), "phrases.goodbye[0]", "\"hello\"")
        assertRefused<PackException.BadManifest>(TestPacks.write(manifestEdit = { it.replace("\"defaultPhrase\": \"default\"", "\"defaultPhrase\": \"nope\"") }), "defaultPhrase")
    }
}

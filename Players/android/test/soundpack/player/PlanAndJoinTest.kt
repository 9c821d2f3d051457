package soundpack.player

import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Test
import java.io.ByteArrayOutputStream
import java.io.File

class PlanAndJoinTest {
    private val pack = TestPacks.load(TestPacks.write(extraChunkIn = "5"))
    private val planner = AnnouncementPlanner(pack)

    @Test
    fun `the default phrase frames the reading with its clips`() {
        assertEquals(listOf("prefix", "1", "5", "点", "4", "元", "suffix"), planner.plan("15.40"))
        assertEquals(listOf("prefix", "1", "2", "3", "4", "元", "suffix"), planner.plan("1,234"))
    }

    @Test
    fun `a phrase is chosen by id, an unknown one falls back to the default`() {
        assertEquals(listOf("1", "5", "点", "4", "元"), planner.plan("15.4", "short"))
        assertEquals(listOf("bye"), planner.plan(null, "goodbye"))
        assertEquals(listOf("prefix", "7", "元", "suffix"), planner.plan("7", "not-in-this-version"))
    }

    @Test
    fun `an amount above maxAmount or missing is refused`() {
        val small = AnnouncementPlanner(TestPacks.load(TestPacks.write(maxAmount = "100.00")))
        assertEquals(listOf("prefix", "1", "0", "0", "元", "suffix"), small.plan("100"))
        assertThrows(AmountException::class.java) { small.plan("100.01") }
        assertThrows(AmountException::class.java) { small.plan(null) }
    }

    @Test
    fun `the joined buffer is the clips' data chunks back to back`() {
        val keys = planner.plan("15.40")
        val expected = ByteArrayOutputStream()
        for (key in keys) expected.write(TestPacks.pcmOf(key))
        assertArrayEquals(expected.toByteArray(), ClipJoiner(pack).join(keys))
    }

    @Test
    fun `the joined buffer skips each file's header and other chunks`() {
        // Clip "5" carries a LIST chunk before its data; only its samples are joined.
        assertArrayEquals(TestPacks.pcmOf("5") + TestPacks.pcmOf("5"), ClipJoiner(pack).join(listOf("5", "5")))
    }

    @Test
    fun `a clip not in the export or changed since loading is reported as missing`() {
        assertThrows(MissingClipException::class.java) { ClipJoiner(pack).join(listOf("prefix", "万")) }
        File(pack.folder, "clips/sp_test_6.wav").appendBytes(byteArrayOf(1, 2))
        val error = assertThrows(MissingClipException::class.java) { ClipJoiner(pack).join(listOf("6")) }
        assertEquals("6", error.key)
    }

    @Test
    fun `a rendered WAV reads back as the joined PCM`() {
        val pcm = ClipJoiner(pack).join(planner.plan("3.21"))
        val file = File(TestPacks.tempDir(), "out.wav")
        file.outputStream().use { Wav.write(it, pack.pcm, pcm) }
        val layout = Wav.inspect(file)
        assertEquals(pack.pcm, layout.format)
        assertArrayEquals(pcm, file.readBytes().copyOfRange(layout.dataOffset.toInt(), file.length().toInt()))
    }
}

package soundpack.player

import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import soundpack.player.harness.Harness
import java.io.ByteArrayOutputStream
import java.io.File
import java.io.PrintStream

class HarnessTest {
    private class Run(val status: Int, val out: String, val err: String)

    private fun harness(vararg args: String, stdin: String = ""): Run {
        val out = ByteArrayOutputStream()
        val err = ByteArrayOutputStream()
        val status = Harness(stdin.reader().buffered(), PrintStream(out, true, "UTF-8"), PrintStream(err, true, "UTF-8")).run(arrayOf(*args))
        return Run(status, out.toString("UTF-8"), err.toString("UTF-8"))
    }

    @Test
    fun `say prints one line of clip keys per amount, phrase pieces included`() {
        val dir = TestPacks.write().path
        assertEquals("prefix 1 5 点 4 元 suffix\nprefix 0 点 0 5 元 suffix\n", harness("say", dir, "15.4", "0.05").out)
        assertEquals("1 5 点 4 元\n", harness("say", dir, "15.4", "short").out)
        assertEquals("1 5 点 4 元\n", harness("say", dir, "--phrase", "short", "15.4").out)
        assertEquals("prefix 7 元 suffix\nprefix 8 元 suffix\n", harness("say", dir, "-", stdin = "7\n8\n").out)
    }

    @Test
    fun `a refused amount is an error line and exit 1, a broken pack exit 1, a usage error exit 2`() {
        val dir = TestPacks.write(maxAmount = "10.00")
        val refused = harness("say", dir.path, "1", "11")
        assertEquals(1, refused.status)
        assertTrue(refused.out.startsWith("prefix 1 元 suffix\nerror: \"11\""), refused.out)
        File(dir, "clips/sp_test_1.wav").appendBytes(byteArrayOf(0, 0))
        val broken = harness("say", dir.path, "1")
        assertEquals(1, broken.status)
        assertTrue(broken.err.contains("sp_test_1.wav"), broken.err)
        assertEquals(2, harness("say").status)
        assertEquals(2, harness("sing", dir.path, "1").status)
    }

    @Test
    fun `render writes the joined PCM as a WAV`() {
        val dir = TestPacks.write()
        val wav = File(TestPacks.tempDir(), "out.wav")
        assertEquals(0, harness("render", dir.path, "2.5", wav.path).status)
        val layout = Wav.inspect(wav)
        val expected = listOf("prefix", "2", "点", "5", "元", "suffix").map { TestPacks.pcmOf(it) }.reduce { a, b -> a + b }
        assertArrayEquals(expected, wav.readBytes().copyOfRange(layout.dataOffset.toInt(), wav.length().toInt()))
    }

    @Test
    fun `table-say reads with a bare table or a manifest's, one line per amount`() {
        val table = File(TestPacks.tempDir(), "table.json").apply { writeText(TestPacks.tableJson()) }
        val run = harness("table-say", table.path, "15.40", "1.234", "0")
        assertEquals(1, run.status)
        assertEquals(listOf("1 5 点 4 元", "error", "0 元"), run.out.lines().dropLast(1).map { if (it.startsWith("error: ")) "error" else it })
        assertEquals("4 2 元\n", harness("table-say", File(TestPacks.write(), "soundpack.json").path, "42").out)
    }
}

package soundpack.player

import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.File
import java.io.IOException
import java.util.Random

class WavFuzzTest {
    @Test
    fun `corrupted WAV headers give a layout inside the file or an IOException, nothing else`() {
        val good = TestPacks.wav(TestPacks.pcmOf("5"), extraChunk = true)
        val file = File(TestPacks.tempDir(), "fuzz.wav")
        val random = Random(11)
        repeat(500) {  // each round writes a file: kept small for the test run's time
            val bytes = good.copyOf(1 + random.nextInt(good.size))
            repeat(1 + random.nextInt(3)) { bytes[random.nextInt(minOf(bytes.size, 60))] = random.nextInt(256).toByte() }
            file.writeBytes(bytes)
            try {
                val layout = Wav.inspect(file)
                assertTrue(layout.dataOffset + layout.dataBytes <= bytes.size && layout.dataBytes % layout.format.frameBytes == 0L)
            } catch (e: IOException) {
                // expected for most corruptions
            }
        }
    }
}

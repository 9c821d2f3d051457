// SHA-256 of files and strings, as lowercase hex (java.security.MessageDigest).
package soundpack.player

import java.io.File
import java.io.FileInputStream
import java.security.MessageDigest

internal object Sha256 {
    fun hex(bytes: ByteArray): String = toHex(MessageDigest.getInstance("SHA-256").digest(bytes))

    /** The digest of at most `limit` bytes of `file`, or null when it is longer. */
    fun hex(file: File, limit: Long): String? {
        val digest = MessageDigest.getInstance("SHA-256")
        val buffer = ByteArray(64 * 1024)
        var total = 0L
        FileInputStream(file).use { input ->
            while (true) {
                val n = input.read(buffer)
                if (n < 0) break
                total += n
                if (total > limit) return null
                digest.update(buffer, 0, n)
            }
        }
        return toHex(digest.digest())
    }

    private fun toHex(bytes: ByteArray): String {
        val digits = "0123456789abcdef"
        val out = StringBuilder(bytes.size * 2)
        for (b in bytes) out.append(digits[(b.toInt() shr 4) and 0xf]).append(digits[b.toInt() and 0xf])
        return out.toString()
    }
}

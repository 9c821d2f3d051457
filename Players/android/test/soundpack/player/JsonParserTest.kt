package soundpack.player

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Test
import java.util.Random

class JsonParserTest {
    @Test
    fun `a nested document parses with its values and number texts kept`() {
        val value = JsonParser.parse("""{"a": [1, -2.5e3, true, null, "x\u00e9\n\ud83d\ude00"], "b": {}}""")
        val members = (value as JsonValue.Obj).members
        val items = (members["a"] as JsonValue.Arr).items
        assertEquals(JsonValue.Num("1"), items[0])
        assertEquals(JsonValue.Num("-2.5e3"), items[1])
        assertEquals(JsonValue.Bool(true), items[2])
        assertEquals(JsonValue.Null, items[3])
        assertEquals(JsonValue.Str("xé\n\uD83D\uDE00"), items[4])
        assertEquals(JsonValue.Obj(emptyMap()), members["b"])
    }

    @Test
    fun `hostile or sloppy JSON is refused with a syntax error, never a crash`() {
        val bad = listOf(
            "", " ", "{", "[1,]", "{\"a\":1,}", "{\"a\":1 \"b\":2}", "{\"a\":1, \"a\":2}", "// c\n{}", "/* */{}",
            "01", "1.", ".5", "-", "+1", "1e", "NaN", "Infinity", "'a'", "\"\\ud800\"", "\"\\udc00x\"", "\"\ud800\"",
            "\"a\u0001\"", "\"\\x41\"", "\"\\u12\"", "\"\\u００４１\"", "{}x", "[] []", "\ufeff{}", "tru", "nul", "{\"a\"}", "[\"a\":1]",
            "\"unterminated", "{\"a\":", "[" + "1".repeat(70) + "]"
        )
        for (text in bad) assertThrows(JsonSyntaxException::class.java, { JsonParser.parse(text) }, "accepted: $text")
    }

    @Test
    fun `nesting deeper than the limit is refused before the stack is at risk`() {
        val deep = "[".repeat(100_000) + "]".repeat(100_000)
        val error = assertThrows(JsonSyntaxException::class.java) { JsonParser.parse(deep) }
        assertEquals(true, error.message!!.contains("nesting deeper"))
    }

    @Test
    fun `a document over the size limit is refused unread`() {
        assertThrows(JsonSyntaxException::class.java) { JsonParser.parse("[" + "1,".repeat(100) + "1]", maxLength = 100) }
    }

    @Test
    fun `random corruptions of a manifest give a syntax error or a value, nothing else`() {
        val base = TestPacks.tableJson()
        val random = Random(7)
        val alphabet = "{}[]\",:\\u0123456789.eE-+ntfalsrx\u0000\ud800é"
        repeat(3000) {
            val chars = base.toCharArray()
            repeat(1 + random.nextInt(4)) { chars[random.nextInt(chars.size)] = alphabet[random.nextInt(alphabet.length)] }
            val text = String(chars).substring(0, random.nextInt(chars.size + 1))
            try {
                ReadingTable.parse(JsonParser.parse(text))
            } catch (e: IllegalArgumentException) {
                // JsonSyntaxException, a field error or ReadingTable.Invalid: all expected.
            }
        }
    }
}

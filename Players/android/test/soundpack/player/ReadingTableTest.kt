package soundpack.player

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

class ReadingTableTest {
    private fun table(json: String = TestPacks.tableJson()) = ReadingTable.parse(JsonParser.parse(json))
    private fun read(table: ReadingTable, amount: String) = table.read(Amount.parse(amount))?.joinToString(" ")

    @Test
    fun `the hand-made table reads amounts digit by digit`() {
        val t = table()
        assertEquals("1 5 点 4 元", read(t, "15.40"))
        assertEquals("1 5 点 4 5 元", read(t, "15.45"))
        assertEquals("1 5 点 0 5 元", read(t, "15.05"))
        assertEquals("1 5 元", read(t, "15"))
        assertEquals("0 元", read(t, "0"))
        assertEquals("0 点 0 5 元", read(t, "0.05"))
        assertEquals("1 0 0 元", read(t, "100"))
        assertEquals("9 9 9 9 9 9 9 9 9 9 9 9 点 9 9 元", read(t, "999999999999.99"))
    }

    @Test
    fun `starts are tried in order and the first walk ending in an accepting state wins`() {
        assertEquals("1 5 点 4 元", read(table(TestPacks.tableJson(decoyStart = true)), "15.40"))
        assertEquals(List(14) { "9" }.joinToString(" "), read(table(TestPacks.tableJson(decoyStart = true, decoyAccepts = true)), "15.40"))
    }

    @Test
    fun `an amount no walk accepts has no reading`() {
        val t = table(TestPacks.tableJson().replace("\"accepting\": [3]", "\"accepting\": [99]"))
        assertNull(t.read(Amount.parse("15.40")))
    }

    private fun assertRefused(json: String, fragment: String) {
        val error = assertThrows(IllegalArgumentException::class.java) { table(json) }
        assertTrue(error.message!!.contains(fragment), "message \"${error.message}\" lacks \"$fragment\"")
    }

    @Test
    fun `a table of another format or shape is refused`() {
        assertRefused(TestPacks.tableJson(format = 2), "format 2")
        assertRefused(TestPacks.tableJson().replace("\"digits\": 14", "\"digits\": 13"), "reads 13 digits")
        assertRefused(TestPacks.tableJson().replace("\"integerDigits\": 12", "\"integerDigits\": 11"), "11 integer places")
        assertRefused(TestPacks.tableJson { it.removeAt(13) }, "13 step objects")
        assertRefused(TestPacks.tableJson().replace("\"starts\": [0]", "\"starts\": [7]"), "starts in state 7")
    }

    @Test
    fun `a step pointing at a missing state, a missing token or short of digits is refused`() {
        assertRefused(TestPacks.tableJson { it[12].remove(1) }, "at position 11 leads to state 1")
        assertRefused(TestPacks.tableJson { it[3][1]!![4] = "[1, [12]]" }, "reading.steps[3].1[4][1][0]")
        assertRefused(TestPacks.tableJson { it[3][1]!!.removeAt(9) }, "9 entries")
        assertRefused(TestPacks.tableJson { it[3][1]!![2] = "[1, [1], 5]" }, "reading.steps[3].1[2]")
        assertRefused(TestPacks.tableJson { it[3][1]!![2] = "[-1, [1]]" }, "reading.steps[3].1[2][0]")
        assertRefused(TestPacks.tableJson { it[5][1]!![2] = "[1.5, [1]]" }, "whole number")
        assertRefused(TestPacks.tableJson().replace("\"steps\": [\n    {\"0\"", "\"steps\": [\n    {\"00\""), "not a decimal number")
    }

    @Test
    fun `unreachable states need not be complete`() {
        // State 8 at position 2 is reached from no start: its short row, pointing nowhere, is never walked.
        assertEquals("4 2 元", read(table(TestPacks.tableJson { it[2][8] = mutableListOf("[77, []]") }), "42"))
    }
}

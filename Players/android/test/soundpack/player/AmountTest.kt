package soundpack.player

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Test

class AmountTest {
    private fun units(text: String, grouping: DigitGrouping = DigitGrouping.THOUSANDS) = Amount.parse(text, grouping).minorUnits

    @Test
    fun `decimal strings become exact minor units`() {
        assertEquals(1540L, units("15.4"))
        assertEquals(1540L, units("15.40"))
        assertEquals(5L, units("0.05"))
        assertEquals(29L, units("0.29"))  // 0.29 * 100 is 28.999999999999996 in floating point
        assertEquals(0L, units("0"))
        assertEquals(100L, units("0001"))
        assertEquals(99_999_999_999_999L, units("999999999999.99"))
        assertEquals(1540L, units(" 15.40 "))
    }

    @Test
    fun `thousands commas are read, Indian grouping only for Indian grammars`() {
        assertEquals(123_450L, units("1,234.50"))
        assertEquals(123_456_789L, units("1,234,567.89"))
        assertThrows(AmountException::class.java) { units("12,34,567.89") }
        assertEquals(123_456_789L, units("12,34,567.89", DigitGrouping.INDIAN))
        assertEquals(12_345_678L, units("1,23,456.78", DigitGrouping.INDIAN))
        assertEquals(123_456_789L, units("1,234,567.89", DigitGrouping.INDIAN))
        assertEquals(DigitGrouping.INDIAN, DigitGrouping.forGrammar("hi-IN"))
        assertEquals(DigitGrouping.THOUSANDS, DigitGrouping.forGrammar("zh-Hans"))
    }

    @Test
    fun `anything that is not a plain decimal is refused`() {
        val bad = listOf("", " ", "-1", "+1", "1e3", "1.234", "1.", ".5", "１２", "1,23", "1,2345", ",123", "1,,234", "12,34,567", "NaN",
            "1 000", "0x10", "1.2.3", "٣", "1000000000000", "1,000,000,000,000", "9".repeat(65))
        for (text in bad) assertThrows(AmountException::class.java, { units(text) }, "accepted: $text")
        assertThrows(AmountException::class.java) { units("12,3,456.78", DigitGrouping.INDIAN) }
    }

    @Test
    fun `an amount above the pack's maximum is refused, the maximum itself is not`() {
        val maximum = Amount.parse("99999999.99")
        assertEquals(9_999_999_999L, Amount.parse("99999999.99", maximum, DigitGrouping.THOUSANDS).minorUnits)
        val error = assertThrows(AmountException::class.java) { Amount.parse("100000000", maximum, DigitGrouping.THOUSANDS) }
        assertEquals(true, error.message!!.contains("maxAmount 99999999.99"))
    }
}

// Amounts as a push writes them ("15.4", "1,234.50", "12,34,567.89"), read exactly into minor
// units (cents, fen, paise): no floating point anywhere.
package dev.soundpack.player

class AmountException(message: String) : Exception(message)

object Amounts {
    /** [text] as minor units: digits with at most 2 fraction digits, commas only as thousands
     *  (1,234,567) or Indian (12,34,567) grouping; refused above [maxMinor] or at 10^12 major units. */
    fun parse(text: String, maxMinor: Long): Long {
        if (text.isEmpty() || text.length > 32) throw AmountException("'$text' is not an amount")
        val point = text.indexOf('.')
        val whole = if (point < 0) text else text.substring(0, point)
        val fraction = if (point < 0) "" else text.substring(point + 1)
        if (whole.isEmpty() || fraction.length > 2 || (point >= 0 && fraction.isEmpty()) || !fraction.all { it in '0'..'9' }) {
            throw AmountException("'$text' is not an amount with at most 2 decimals")
        }
        val digits = if (whole.contains(',')) ungrouped(whole, text) else whole
        if (digits.isEmpty() || !digits.all { it in '0'..'9' }) throw AmountException("'$text' is not an amount")
        val significant = digits.trimStart('0')
        if (significant.length > 12) throw AmountException("$text is not below 10^12")
        val major = if (significant.isEmpty()) 0L else significant.toLong()
        val minor = major * 100 + (fraction + "00").substring(0, 2).toLong()
        if (minor > maxMinor) throw AmountException("$text is above the pack's maxAmount")
        return minor
    }

    private fun ungrouped(whole: String, text: String): String {
        val groups = whole.split(',')
        val last = groups.last()
        val first = groups.first()
        val thousands = groups.drop(1).all { it.length == 3 } && first.length in 1..3
        val indian = last.length == 3 && groups.dropLast(1).drop(1).all { it.length == 2 } && first.length in 1..2
        if (!thousands && !indian) throw AmountException("'$text' groups its digits neither by thousands nor as lakh and crore")
        return groups.joinToString("")
    }

    /** [minor] written as soundpack writes amounts: "15.40". */
    fun written(minor: Long): String = "${minor / 100}.${(minor % 100).toString().padStart(2, '0')}"
}

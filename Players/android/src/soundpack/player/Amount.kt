// Amounts as exact integer minor units (15.40 → 1540), parsed from the decimal string a push
// payload carries; never a floating-point value.
package soundpack.player

/** How an amount's integer part may be grouped by commas. */
enum class DigitGrouping {
    /** `1,234,567.89` */
    THOUSANDS,
    /** `1,234,567.89` or the lakh and crore groups `12,34,567.89` (en-IN, hi-IN). */
    INDIAN;

    companion object {
        /** The grouping payloads use for a reading grammar. */
        fun forGrammar(grammar: String) = if (grammar == "en-IN" || grammar == "hi-IN") INDIAN else THOUSANDS
    }
}

/** An amount refused: the input as given and why. */
class AmountException(val input: String, reason: String) : IllegalArgumentException("\"${shown(input)}\" is not an amount this player says — $reason") {
    private companion object {
        fun shown(input: String) = if (input.length > 40) input.take(40) + "…" else input
    }
}

/** A non-negative amount of at most 12 integer digits and 2 fraction digits, in minor units. */
data class Amount(val minorUnits: Long) : Comparable<Amount> {
    init {
        require(minorUnits in 0 until LIMIT_MINOR_UNITS) { "an amount is 0 to 999999999999.99, not $minorUnits minor units" }
    }

    override fun compareTo(other: Amount) = minorUnits.compareTo(other.minorUnits)

    /** The plain decimal form, always with two fraction digits (`15.40`). */
    override fun toString(): String = "${minorUnits / 100}.${(minorUnits % 100).toString().padStart(2, '0')}"

    companion object {
        /** 10^12 major units: the grammars' limit. */
        const val LIMIT_MINOR_UNITS = 100_000_000_000_000L
        private const val MAX_INPUT = 64

        /**
         * Parses `[0-9]+(\.[0-9]{1,2})?` with optional grouping commas; surrounding ASCII spaces
         * are ignored. Signs, exponents, non-ASCII digits, misplaced commas, more than two
         * fraction digits and 10^12 or more are refused with [AmountException].
         */
        fun parse(input: String, grouping: DigitGrouping = DigitGrouping.THOUSANDS): Amount {
            if (input.length > MAX_INPUT) throw AmountException(input, "longer than $MAX_INPUT characters")
            val text = input.trim(' ', '\t')
            if (text.length == 0) throw AmountException(input, "it is empty")
            if (text[0] == '-') throw AmountException(input, "it is negative")
            if (text[0] == '+') throw AmountException(input, "write it without a sign")
            val point = text.indexOf('.')
            val integerText = if (point < 0) text else text.substring(0, point)
            val fractionText = if (point < 0) "" else text.substring(point + 1)
            if (integerText.length == 0 || !integerText.all { it in '0'..'9' || it == ',' } || !fractionText.all { it in '0'..'9' }) {
                throw AmountException(input, "write digits with an optional point, like 15.40")
            }
            if (point >= 0 && fractionText.length == 0) throw AmountException(input, "a point needs digits after it")
            if (fractionText.length > 2) throw AmountException(input, "at most 2 digits after the point")
            val digits = if (integerText.contains(',')) ungroup(input, integerText, grouping) else integerText
            val significant = digits.trimStart('0')
            if (significant.length > 12) throw AmountException(input, "it is 10^12 or more")
            val integer = if (significant.length == 0) 0L else significant.toLong()
            val fraction = when (fractionText.length) {
                0 -> 0L
                1 -> (fractionText[0] - '0') * 10L
                else -> (fractionText[0] - '0') * 10L + (fractionText[1] - '0')
            }
            return Amount(integer * 100 + fraction)
        }

        /** Parses `input` and refuses it above `maximum` (a pack's `maxAmount`). */
        fun parse(input: String, maximum: Amount, grouping: DigitGrouping): Amount {
            val amount = parse(input, grouping)
            if (amount > maximum) throw AmountException(input, "it is above this pack's maxAmount $maximum")
            return amount
        }

        private fun ungroup(input: String, integerText: String, grouping: DigitGrouping): String {
            val groups = integerText.split(',')
            val thousands = groups.first().length in 1..3 && groups.drop(1).all { it.length == 3 }
            val indian = grouping == DigitGrouping.INDIAN && groups.size >= 2 && groups.last().length == 3 &&
                groups.first().length in 1..2 && groups.subList(1, groups.size - 1).all { it.length == 2 }
            if (!thousands && !indian) {
                throw AmountException(input, if (grouping == DigitGrouping.INDIAN) "commas must separate groups of 3 digits (1,234,567.89) or the lakh and crore groups (12,34,567.89)"
                else "commas must separate groups of 3 digits, like 1,234,567.89")
            }
            return groups.joinToString("")
        }
    }
}

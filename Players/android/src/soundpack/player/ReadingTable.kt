// The portable reading (DESIGN §3b): a grammar's transducer over an amount's 14 digits, written as
// data by `soundpack export`, so this player reads amounts with no grammar code of its own.
package soundpack.player

/**
 * A checked reading table. `steps[p][state]` holds ten entries, one per digit: the state the digit
 * leads to and the tokens (indices into [tokens], which are clip keys) it says. Only
 * [parse] makes one, and it checks that a walk from any start never leaves the table.
 */
class ReadingTable private constructor(
    val grammar: String,
    val options: Map<String, String>,
    val tokens: List<String>,
    val starts: List<Int>,
    val accepting: Set<Int>,
    private val steps: List<Map<Int, Array<Step>>>
) {
    /** One table entry: the next state and the tokens said. */
    class Step(val next: Int, val tokens: IntArray)

    /** How payload amounts for this grammar may group their digits. */
    val grouping: DigitGrouping get() = DigitGrouping.forGrammar(grammar)

    /**
     * The clip keys that read `amount` (no phrase around it), or null when no start reads it.
     * Written as 14 digits, most significant first; for each start in order the walk takes
     * `steps[p][state][digit]`; the first walk ending in an accepting state gives the reading.
     */
    fun read(amount: Amount): List<String>? {
        val digits = IntArray(DIGITS)
        var rest = amount.minorUnits
        for (p in DIGITS - 1 downTo 0) { digits[p] = (rest % 10).toInt(); rest /= 10 }
        for (start in starts) {
            val said = ArrayList<String>()
            var state = start
            var walked = true
            for (p in 0 until DIGITS) {
                val row = steps[p][state]
                if (row == null) { walked = false; break }
                val step = row[digits[p]]
                for (t in step.tokens) said.add(tokens[t])
                state = step.next
            }
            if (walked && state in accepting) return said
        }
        return null
    }

    /** A table that cannot be read with; the loader adds the file. */
    class Invalid(message: String) : IllegalArgumentException(message)

    companion object {
        const val FORMAT = 1
        const val DIGITS = 14
        const val INTEGER_DIGITS = 12
        private const val MAX_STATE = 10_000_000L
        private const val MAX_STATES_PER_POSITION = 100_000
        private const val MAX_TOKENS = 4096
        private const val MAX_TOKENS_PER_STEP = 64

        /** The table `value` describes, checked as DESIGN §3b implies; [Invalid] or IllegalArgumentException otherwise. */
        fun parse(value: JsonValue?): ReadingTable {
            val table = JsonFields.of(value, "reading")
            val format = table.integer("format", Long.MIN_VALUE..Long.MAX_VALUE)
            if (format != FORMAT.toLong()) throw Invalid("reading table format $format is not one this player reads (it reads $FORMAT)")
            val grammar = table.string("grammar", 64)
            val optionFields = table.obj("options")
            if (optionFields.size > 32) throw Invalid("\"reading.options\" has more than 32 members")
            val options = optionFields.keys.associate { it to optionFields.string(it, 64) }
            val digits = table.integer("digits", Long.MIN_VALUE..Long.MAX_VALUE)
            val integerDigits = table.integer("integerDigits", Long.MIN_VALUE..Long.MAX_VALUE)
            if (digits != DIGITS.toLong() || integerDigits != INTEGER_DIGITS.toLong()) {
                throw Invalid("the reading table reads $digits digits with $integerDigits integer places; this player reads $DIGITS with $INTEGER_DIGITS")
            }
            val tokens = table.array("tokens", MAX_TOKENS).mapIndexed { i, t -> JsonFields.string(t, "reading.tokens[$i]", 64) }
            val starts = table.array("starts", 64).mapIndexed { i, s -> JsonFields.integer(s, "reading.starts[$i]", 0..MAX_STATE).toInt() }
            if (starts.isEmpty()) throw Invalid("the reading table has no start state")
            val accepting = table.array("accepting", MAX_STATES_PER_POSITION)
                .mapIndexed { i, s -> JsonFields.integer(s, "reading.accepting[$i]", 0..MAX_STATE).toInt() }.toSet()
            val written = table.array("steps", DIGITS + 1)
            if (written.size != DIGITS) throw Invalid("the reading table has ${written.size} step objects, not one per digit ($DIGITS)")
            val steps = written.mapIndexed { p, row -> parseRow(row, p, tokens.size) }
            check(steps, starts)
            return ReadingTable(grammar, options, tokens, starts, accepting, steps)
        }

        private fun parseRow(value: JsonValue, position: Int, tokenCount: Int): Map<Int, Array<Step>> {
            val row = JsonFields.of(value, "reading.steps[$position]")
            if (row.size > MAX_STATES_PER_POSITION) throw Invalid("reading.steps[$position] has more than $MAX_STATES_PER_POSITION states")
            val states = HashMap<Int, Array<Step>>()
            for (key in row.keys) {
                val state = if (key.length in 1..8 && key.all { it in '0'..'9' } && (key == "0" || key[0] != '0')) key.toInt() else
                    throw Invalid("reading.steps[$position] has a state \"${key.take(20)}\" that is not a decimal number")
                val path = "reading.steps[$position].$key"
                // Row lengths are checked by check() for the states a walk can reach.
                val entries = JsonFields.array(row.raw(key), path, 10)
                states[state] = Array(entries.size) { digit ->
                    val pair = JsonFields.array(entries[digit], "$path[$digit]", 2)
                    if (pair.size != 2) throw Invalid("$path[$digit] is not [next state, [tokens]]")
                    val next = JsonFields.integer(pair[0], "$path[$digit][0]", 0..MAX_STATE).toInt()
                    val said = JsonFields.array(pair[1], "$path[$digit][1]", MAX_TOKENS_PER_STEP)
                    Step(next, IntArray(said.size) { i -> JsonFields.integer(said[i], "$path[$digit][1][$i]", 0L until tokenCount.toLong()).toInt() })
                }
            }
            return states
        }

        /** Every state reachable from the starts has ten steps pointing at states that exist one position on. */
        private fun check(steps: List<Map<Int, Array<Step>>>, starts: List<Int>) {
            var layer: Set<Int> = starts.toSet()
            for (start in starts) if (steps[0][start] == null) throw Invalid("the reading table starts in state $start, which has no steps")
            for (p in 0 until DIGITS) {
                val next = HashSet<Int>()
                for (state in layer) {
                    val row = steps[p][state] ?: throw Invalid("the reading table reaches state $state at position $p, which has no steps")
                    if (row.size != 10) throw Invalid("reading.steps[$p].$state has ${row.size} entries, not one per digit (10)")
                    for (digit in 0..9) {
                        val target = row[digit].next
                        if (p + 1 < DIGITS && steps[p + 1][target] == null) {
                            throw Invalid("the reading table's step for digit $digit in state $state at position $p leads to state $target, which has no steps at position ${p + 1}")
                        }
                        next.add(target)
                    }
                }
                layer = next
            }
        }
    }
}

// The portable reading (soundpack's DESIGN §3b), read as written there: an amount's minor units as
// 14 decimal digits; for each start in order, walk the digits through `steps[position][state][digit]`
// = [next state, [token indices]]; the first walk that ends in an accepting state gives the reading.
package dev.soundpack.player

/** A reading table, checked when it is built: a walk through it never leaves it. */
class ReadingTable private constructor(
    val grammar: String,
    /** The clip keys the steps say, by index. */
    val tokens: List<String>,
    private val starts: IntArray,
    private val accepting: Set<Int>,
    /** Per position: state → ten steps (next state, tokens). */
    private val steps: List<Map<Int, Array<Step>>>
) {
    class Step(val next: Int, val tokens: IntArray)

    /** The clip keys that read [minorUnits] (0 ≤ minorUnits < 10^14), or null when no start reads it. */
    fun tokensFor(minorUnits: Long): List<String>? {
        if (minorUnits < 0 || minorUnits >= LIMIT) return null
        val digits = IntArray(DIGITS)
        var rest = minorUnits
        for (position in DIGITS - 1 downTo 0) {
            digits[position] = (rest % 10).toInt()
            rest /= 10
        }
        for (start in starts) {
            val said = ArrayList<String>()
            var state = start
            var walked = true
            for (position in 0 until DIGITS) {
                val row = steps[position][state]
                if (row == null) { walked = false; break }
                val step = row[digits[position]]
                for (index in step.tokens) said.add(tokens[index])
                state = step.next
            }
            if (walked && state in accepting) return said
        }
        return null
    }

    companion object {
        const val FORMAT = 1L
        const val DIGITS = 14
        const val INTEGER_DIGITS = 12
        /** 10^14 minor units: the first amount no table reads. */
        const val LIMIT = 100_000_000_000_000L

        /** The table of a decoded `reading` object, refused (naming what is wrong) unless every step
         *  reachable from the starts exists and points at a token and a state that do. */
        fun from(json: Map<String, Any?>): ReadingTable {
            val where = "reading"
            val format = json.long("format", where)
            if (format != FORMAT) throw PackException("reading table format $format is not one this player reads (it reads $FORMAT)")
            if (json.long("digits", where) != DIGITS.toLong() || json.long("integerDigits", where) != INTEGER_DIGITS.toLong()) {
                throw PackException("the reading table does not read 14 digits with 12 integer places")
            }
            val tokens = json.list("tokens", where).map { it as? String ?: throw PackException("reading: a token is not a string") }
            val starts = json.list("starts", where).map { (it as? Long)?.toIntExact() ?: throw PackException("reading: a start is not a state") }
            val accepting = json.list("accepting", where).map { (it as? Long)?.toIntExact() ?: throw PackException("reading: an accepting state is not a state") }.toSet()
            val written = json.list("steps", where)
            if (written.size != DIGITS) throw PackException("the reading table has ${written.size} step lists, not one per digit ($DIGITS)")
            val steps = written.mapIndexed { position, row -> rowOf(row, position, tokens.size) }
            // Closure: from the starts, every state reached has its steps at the next position.
            var layer = starts.toSet()
            for (start in starts) if (steps[0][start] == null) throw PackException("the reading table starts in state $start, which has no steps")
            for (position in 0 until DIGITS) {
                val next = HashSet<Int>()
                for (state in layer) {
                    val row = steps[position][state] ?: throw PackException("the reading table has no steps for state $state at position $position")
                    for (step in row) {
                        if (position + 1 < DIGITS && steps[position + 1][step.next] == null) {
                            throw PackException("the reading table's step at position $position, state $state leads to state ${step.next}, which has no steps")
                        }
                        next.add(step.next)
                    }
                }
                layer = next
            }
            return ReadingTable(json.string("grammar", where), tokens, starts.toIntArray(), accepting, steps)
        }

        private fun rowOf(row: Any?, position: Int, tokenCount: Int): Map<Int, Array<Step>> {
            @Suppress("UNCHECKED_CAST")
            val states = row as? Map<String, Any?> ?: throw PackException("reading: steps[$position] is not an object")
            val result = HashMap<Int, Array<Step>>()
            for ((key, value) in states) {
                val state = key.toIntOrNull()
                if (state == null || state < 0 || state.toString() != key) throw PackException("reading: '$key' at position $position is not a state number")
                val entries = value as? List<*> ?: throw PackException("reading: state $state at position $position has no step list")
                if (entries.size != 10) throw PackException("reading: state $state at position $position has ${entries.size} steps, not 10")
                result[state] = Array(10) { digit ->
                    val pair = entries[digit] as? List<*>
                    val next = (pair?.getOrNull(0) as? Long)?.toIntExact()
                    val said = pair?.getOrNull(1) as? List<*>
                    if (pair == null || pair.size != 2 || next == null || next < 0 || said == null) {
                        throw PackException("reading: the step for digit $digit of state $state at position $position is not [next, [tokens]]")
                    }
                    Step(next, IntArray(said.size) { i ->
                        val index = (said[i] as? Long)?.toIntExact()
                        if (index == null || index < 0 || index >= tokenCount) throw PackException("reading: a step at position $position names token ${said[i]}, which the table does not have")
                        index
                    })
                }
            }
            return result
        }

        private fun Long.toIntExact(): Int? = if (this in 0..Int.MAX_VALUE.toLong()) this.toInt() else null
    }
}

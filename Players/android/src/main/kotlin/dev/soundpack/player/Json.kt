// A strict, bounded JSON reader: an exported pack's soundpack.json and a push's payload are read
// with it. Objects become Map<String, Any?>, arrays List<Any?>, numbers Long (integers) or Double,
// strings String, and true/false/null as themselves. Anything else, a duplicate key, nesting
// deeper than 64 or trailing bytes is refused with a JsonException naming the offset.
package dev.soundpack.player

class JsonException(message: String) : Exception(message)

object Json {
    private const val MAX_DEPTH = 64

    fun parse(text: String): Any? {
        val reader = Reader(text)
        reader.space()
        val value = reader.value(0)
        reader.space()
        if (reader.at < text.length) throw JsonException("unexpected '${text[reader.at]}' after the value at offset ${reader.at}")
        return value
    }

    private class Reader(val text: String) {
        var at = 0

        fun fail(what: String): Nothing = throw JsonException("$what at offset $at")

        fun space() {
            while (at < text.length && (text[at] == ' ' || text[at] == '\n' || text[at] == '\r' || text[at] == '\t')) at++
        }

        fun value(depth: Int): Any? {
            if (depth > MAX_DEPTH) fail("nesting deeper than $MAX_DEPTH")
            if (at >= text.length) fail("a value expected")
            return when (text[at]) {
                '{' -> obj(depth)
                '[' -> array(depth)
                '"' -> string()
                't' -> literal("true", true)
                'f' -> literal("false", false)
                'n' -> literal("null", null)
                else -> number()
            }
        }

        fun literal(word: String, value: Any?): Any? {
            if (!text.startsWith(word, at)) fail("a value expected")
            at += word.length
            return value
        }

        fun obj(depth: Int): Map<String, Any?> {
            at++
            val result = LinkedHashMap<String, Any?>()
            space()
            if (at < text.length && text[at] == '}') { at++; return result }
            while (true) {
                space()
                if (at >= text.length || text[at] != '"') fail("a key expected")
                val key = string()
                space()
                if (at >= text.length || text[at] != ':') fail("':' expected")
                at++
                space()
                if (result.containsKey(key)) fail("the key '$key' appears twice")
                result[key] = value(depth + 1)
                space()
                if (at >= text.length) fail("'}' expected")
                when (text[at]) {
                    ',' -> at++
                    '}' -> { at++; return result }
                    else -> fail("',' or '}' expected")
                }
            }
        }

        fun array(depth: Int): List<Any?> {
            at++
            val result = ArrayList<Any?>()
            space()
            if (at < text.length && text[at] == ']') { at++; return result }
            while (true) {
                space()
                result.add(value(depth + 1))
                space()
                if (at >= text.length) fail("']' expected")
                when (text[at]) {
                    ',' -> at++
                    ']' -> { at++; return result }
                    else -> fail("',' or ']' expected")
                }
            }
        }

        fun string(): String {
            at++
            val out = StringBuilder()
            while (true) {
                if (at >= text.length) fail("an unterminated string")
                val c = text[at++]
                when {
                    c == '"' -> return out.toString()
                    c == '\\' -> {
                        if (at >= text.length) fail("an unterminated escape")
                        when (val e = text[at++]) {
                            '"', '\\', '/' -> out.append(e)
                            'b' -> out.append('\b')
                            'f' -> out.append('\u000C')
                            'n' -> out.append('\n')
                            'r' -> out.append('\r')
                            't' -> out.append('\t')
                            'u' -> {
                                if (at + 4 > text.length) fail("a short \\u escape")
                                val code = text.substring(at, at + 4).toIntOrNull(16) ?: fail("a bad \\u escape")
                                out.append(code.toChar())
                                at += 4
                            }
                            else -> fail("a bad escape '\\$e'")
                        }
                    }
                    c < ' ' -> fail("a control character in a string")
                    else -> out.append(c)
                }
            }
        }

        fun number(): Any {
            val start = at
            if (at < text.length && text[at] == '-') at++
            if (at >= text.length || !text[at].isDigit()) fail("a value expected")
            if (text[at] == '0') at++ else while (at < text.length && text[at].isDigit()) at++
            var integral = true
            if (at < text.length && text[at] == '.') {
                integral = false
                at++
                if (at >= text.length || !text[at].isDigit()) fail("a digit expected")
                while (at < text.length && text[at].isDigit()) at++
            }
            if (at < text.length && (text[at] == 'e' || text[at] == 'E')) {
                integral = false
                at++
                if (at < text.length && (text[at] == '+' || text[at] == '-')) at++
                if (at >= text.length || !text[at].isDigit()) fail("a digit expected")
                while (at < text.length && text[at].isDigit()) at++
            }
            val written = text.substring(start, at)
            if (integral) return written.toLongOrNull() ?: fail("an integer out of range")
            return written.toDouble()
        }
    }
}

/** The typed reads a document needs: each names the field that is missing or of the wrong type. */
internal fun Map<String, Any?>.string(key: String, where: String): String =
    this[key] as? String ?: throw PackException("$where: '$key' is missing or not a string")

internal fun Map<String, Any?>.long(key: String, where: String): Long =
    this[key] as? Long ?: throw PackException("$where: '$key' is missing or not an integer")

@Suppress("UNCHECKED_CAST")
internal fun Map<String, Any?>.obj(key: String, where: String): Map<String, Any?> =
    this[key] as? Map<String, Any?> ?: throw PackException("$where: '$key' is missing or not an object")

@Suppress("UNCHECKED_CAST")
internal fun Map<String, Any?>.list(key: String, where: String): List<Any?> =
    this[key] as? List<Any?> ?: throw PackException("$where: '$key' is missing or not an array")

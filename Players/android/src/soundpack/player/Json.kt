// A strict, bounded JSON reader (RFC 8259) for what a pack export and a push payload carry. Every
// byte it reads may be hostile, so it refuses rather than guesses: no comments, no trailing commas,
// no duplicate keys, no lone surrogates, a depth limit and a size limit.
package soundpack.player

/** A parsed JSON value. Numbers keep their text so that integers are read exactly. */
sealed class JsonValue {
    data class Obj(val members: Map<String, JsonValue>) : JsonValue()
    data class Arr(val items: List<JsonValue>) : JsonValue()
    data class Str(val text: String) : JsonValue()
    data class Num(val text: String) : JsonValue()
    data class Bool(val value: Boolean) : JsonValue()
    object Null : JsonValue() {
        override fun toString() = "null"
    }

    /** What a message calls this kind of value. */
    val kind: String
        get() = when (this) {
            is Obj -> "an object"
            is Arr -> "an array"
            is Str -> "a string"
            is Num -> "a number"
            is Bool -> "a boolean"
            Null -> "null"
        }
}

/** Bad JSON: what is wrong and the character offset where it was found. */
class JsonSyntaxException(message: String, val offset: Int) : IllegalArgumentException("$message at offset $offset")

/** Parses JSON text within fixed limits; one instance per document. */
class JsonParser private constructor(private val text: String, private val maxDepth: Int) {
    private var index = 0

    companion object {
        /** Nesting deeper than any pack or payload needs; bounds the recursion. */
        const val DEFAULT_MAX_DEPTH = 32
        /** Longest document read by default (characters). */
        const val DEFAULT_MAX_LENGTH = 16 * 1024 * 1024

        /** The value `text` holds, or [JsonSyntaxException] for anything that is not strict JSON. */
        fun parse(text: String, maxLength: Int = DEFAULT_MAX_LENGTH, maxDepth: Int = DEFAULT_MAX_DEPTH): JsonValue {
            if (text.length > maxLength) throw JsonSyntaxException("document longer than $maxLength characters", maxLength)
            val parser = JsonParser(text, maxDepth)
            parser.skipWhitespace()
            val value = parser.readValue(0)
            parser.skipWhitespace()
            if (parser.index != text.length) throw JsonSyntaxException("unexpected text after the value", parser.index)
            return value
        }
    }

    private fun fail(message: String): Nothing = throw JsonSyntaxException(message, index)

    private fun skipWhitespace() {
        while (index < text.length) {
            val c = text[index]
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') index++ else return
        }
    }

    private fun readValue(depth: Int): JsonValue {
        if (index >= text.length) fail("unexpected end of input")
        return when (val c = text[index]) {
            '{' -> readObject(depth + 1)
            '[' -> readArray(depth + 1)
            '"' -> JsonValue.Str(readString())
            't' -> readLiteral("true", JsonValue.Bool(true))
            'f' -> readLiteral("false", JsonValue.Bool(false))
            'n' -> readLiteral("null", JsonValue.Null)
            else -> if (c == '-' || c in '0'..'9') readNumber() else fail("unexpected character '${printable(c)}'")
        }
    }

    private fun readLiteral(word: String, value: JsonValue): JsonValue {
        if (!text.startsWith(word, index)) fail("unexpected word")
        index += word.length
        return value
    }

    private fun readObject(depth: Int): JsonValue {
        if (depth > maxDepth) fail("nesting deeper than $maxDepth")
        index++ // {
        val members = LinkedHashMap<String, JsonValue>()
        skipWhitespace()
        if (index < text.length && text[index] == '}') { index++; return JsonValue.Obj(members) }
        while (true) {
            skipWhitespace()
            if (index >= text.length || text[index] != '"') fail("expected a member name")
            val keyOffset = index
            val key = readString()
            if (members.containsKey(key)) throw JsonSyntaxException("duplicate member \"$key\"", keyOffset)
            skipWhitespace()
            if (index >= text.length || text[index] != ':') fail("expected ':'")
            index++
            skipWhitespace()
            members[key] = readValue(depth)
            skipWhitespace()
            if (index >= text.length) fail("unterminated object")
            when (text[index]) {
                ',' -> index++
                '}' -> { index++; return JsonValue.Obj(members) }
                else -> fail("expected ',' or '}'")
            }
        }
    }

    private fun readArray(depth: Int): JsonValue {
        if (depth > maxDepth) fail("nesting deeper than $maxDepth")
        index++ // [
        val items = ArrayList<JsonValue>()
        skipWhitespace()
        if (index < text.length && text[index] == ']') { index++; return JsonValue.Arr(items) }
        while (true) {
            skipWhitespace()
            items.add(readValue(depth))
            skipWhitespace()
            if (index >= text.length) fail("unterminated array")
            when (text[index]) {
                ',' -> index++
                ']' -> { index++; return JsonValue.Arr(items) }
                else -> fail("expected ',' or ']'")
            }
        }
    }

    private fun readString(): String {
        index++ // opening quote
        val out = StringBuilder()
        while (true) {
            if (index >= text.length) fail("unterminated string")
            val c = text[index]
            when {
                c == '"' -> { index++; return out.toString() }
                c == '\\' -> readEscape(out)
                c < ' ' -> fail("control character in a string")
                Character.isHighSurrogate(c) -> {
                    if (index + 1 >= text.length || !Character.isLowSurrogate(text[index + 1])) fail("lone surrogate in a string")
                    out.append(c).append(text[index + 1])
                    index += 2
                }
                Character.isLowSurrogate(c) -> fail("lone surrogate in a string")
                else -> { out.append(c); index++ }
            }
        }
    }

    private fun readEscape(out: StringBuilder) {
        index++ // backslash
        if (index >= text.length) fail("unterminated escape")
        when (text[index]) {
            '"' -> out.append('"')
            '\\' -> out.append('\\')
            '/' -> out.append('/')
            'b' -> out.append('\b')
            'f' -> out.append('\u000C')
            'n' -> out.append('\n')
            'r' -> out.append('\r')
            't' -> out.append('\t')
            'u' -> {
                val unit = readHex4()
                if (Character.isHighSurrogate(unit)) {
                    if (!text.startsWith("\\u", index + 1)) fail("lone surrogate escape")
                    index += 2
                    val low = readHex4()
                    if (!Character.isLowSurrogate(low)) fail("lone surrogate escape")
                    out.append(unit).append(low)
                } else {
                    if (Character.isLowSurrogate(unit)) fail("lone surrogate escape")
                    out.append(unit)
                }
            }
            else -> fail("unknown escape")
        }
        index++
    }

    /** Reads the four hex digits after `u` at `index`; leaves `index` on the last digit. */
    private fun readHex4(): Char {
        if (index + 4 >= text.length) fail("short \\u escape")
        var value = 0
        for (i in 1..4) {
            val digit = Character.digit(text[index + i], 16)
            if (digit < 0 || text[index + i] > 'f') fail("bad \\u escape")
            value = value * 16 + digit
        }
        index += 4
        return value.toChar()
    }

    private fun readNumber(): JsonValue {
        val start = index
        if (text[index] == '-') index++
        if (index >= text.length) fail("bad number")
        if (text[index] == '0') {
            index++
        } else if (text[index] in '1'..'9') {
            while (index < text.length && text[index] in '0'..'9') index++
        } else fail("bad number")
        if (index < text.length && text[index] == '.') {
            index++
            val digits = index
            while (index < text.length && text[index] in '0'..'9') index++
            if (index == digits) fail("bad number")
        }
        if (index < text.length && (text[index] == 'e' || text[index] == 'E')) {
            index++
            if (index < text.length && (text[index] == '+' || text[index] == '-')) index++
            val digits = index
            while (index < text.length && text[index] in '0'..'9') index++
            if (index == digits) fail("bad number")
        }
        if (index - start > 64) throw JsonSyntaxException("number longer than 64 characters", start)
        return JsonValue.Num(text.substring(start, index))
    }

    // `c - '\u0000'` is the code unit in Kotlin 1.3 and today (Char.toInt() is deprecated, .code is 1.5+).
    private fun printable(c: Char): String = if (c < ' ' || c > '~') "\\u%04x".format(c - '\u0000') else c.toString()
}

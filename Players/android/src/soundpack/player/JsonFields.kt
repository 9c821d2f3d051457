// Typed access to a parsed JSON object, so that each loader says which field is wrong and why
// instead of casting. Failures are IllegalArgumentException; loaders add the file.
package soundpack.player

/** The members of one JSON object, read with the field's path in every message (`clips.prefix.bytes`). */
class JsonFields(private val value: JsonValue.Obj, private val path: String) {
    companion object {
        /** `value` as an object, or a failure naming `path`. */
        fun of(value: JsonValue?, path: String): JsonFields {
            if (value !is JsonValue.Obj) throw IllegalArgumentException("${name(path)} must be an object, not ${value?.kind ?: "missing"}")
            return JsonFields(value, path)
        }

        private fun name(path: String) = if (path.length == 0) "the document" else "\"$path\""

        /** `value` as a whole number in `range`, read exactly from its text. */
        fun integer(value: JsonValue?, path: String, range: LongRange): Long {
            val text = (value as? JsonValue.Num)?.text
                ?: throw IllegalArgumentException("${name(path)} must be a whole number, not ${value?.kind ?: "missing"}")
            val number = if (text.length <= 19 && text.all { it in '0'..'9' || it == '-' }) text.toLongOrNull() else null
            if (number == null || number !in range) throw IllegalArgumentException("${name(path)} must be a whole number from ${range.first} to ${range.last}, not $text")
            return number
        }

        /** `value` as an array of at most `maxItems` items. */
        fun array(value: JsonValue?, path: String, maxItems: Int): List<JsonValue> {
            val items = (value as? JsonValue.Arr)?.items
                ?: throw IllegalArgumentException("${name(path)} must be an array, not ${value?.kind ?: "missing"}")
            if (items.size > maxItems) throw IllegalArgumentException("${name(path)} has ${items.size} items, more than $maxItems")
            return items
        }

        /** `value` as a string of at most `maxLength` characters. */
        fun string(value: JsonValue?, path: String, maxLength: Int): String {
            val text = (value as? JsonValue.Str)?.text
                ?: throw IllegalArgumentException("${name(path)} must be a string, not ${value?.kind ?: "missing"}")
            if (text.length > maxLength) throw IllegalArgumentException("${name(path)} is longer than $maxLength characters")
            return text
        }
    }

    val keys: Set<String> get() = value.members.keys
    val size: Int get() = value.members.size

    private fun child(key: String) = if (path.length == 0) key else "$path.$key"

    fun has(key: String) = value.members.containsKey(key)
    fun raw(key: String): JsonValue? = value.members[key]
    fun obj(key: String) = of(value.members[key], child(key))
    fun integer(key: String, range: LongRange) = integer(value.members[key], child(key), range)
    fun int(key: String, range: IntRange) = integer(value.members[key], child(key), range.first.toLong()..range.last.toLong()).toInt()
    fun string(key: String, maxLength: Int = 1024) = string(value.members[key], child(key), maxLength)
    fun array(key: String, maxItems: Int) = array(value.members[key], child(key), maxItems)
    fun pathOf(key: String) = child(key)
}

// A command-line harness, so any check can compare the player with soundpack:
//   say EXPORT_DIR [--phrase ID] AMOUNT...      one line of clip keys per amount (soundpack say --format tokens)
//   render EXPORT_DIR AMOUNT OUT.wav [--phrase ID]   the joined PCM as a 16-bit WAV (soundpack render)
//   table-say TABLE_JSON AMOUNT...             one line per amount, read with a bare reading table
// Exit 0; 1 when an amount is refused (its line is "error: …"); 2 on a usage error; 3 when the
// export or table cannot be used.
@file:JvmName("Main")
package dev.soundpack.player

import java.io.File
import kotlin.system.exitProcess

fun main(arguments: Array<String>) {
    val code = try {
        run(arguments.toList())
    } catch (e: PackException) {
        System.err.println("error: ${e.message}")
        3
    }
    System.out.flush()
    exitProcess(code)
}

private fun run(arguments: List<String>): Int {
    val usage = "usage: say EXPORT_DIR [--phrase ID] AMOUNT... | render EXPORT_DIR AMOUNT OUT.wav [--phrase ID] | table-say TABLE_JSON AMOUNT..."
    if (arguments.size < 2) { System.err.println(usage); return 2 }
    val rest = arguments.drop(2).toMutableList()
    val phraseAt = rest.indexOf("--phrase")
    val phrase = if (phraseAt >= 0 && phraseAt + 1 < rest.size) rest[phraseAt + 1].also { rest.subList(phraseAt, phraseAt + 2).clear() } else null
    return when (arguments[0]) {
        "say" -> say(ExportedPack.load(File(arguments[1])), phrase, rest)
        "render" -> if (rest.size != 2) { System.err.println(usage); 2 } else render(ExportedPack.load(File(arguments[1])), phrase, rest[0], File(rest[1]))
        "table-say" -> tableSay(File(arguments[1]), rest)
        else -> { System.err.println(usage); 2 }
    }
}

private fun say(pack: ExportedPack, phrase: String?, amounts: List<String>): Int {
    var failed = false
    val out = StringBuilder()
    for (text in amounts) {
        val tokens = try {
            pack.tokens(if (pack.saysAmount(phrase)) Amounts.parse(text, pack.maxMinor) else null, phrase)
        } catch (e: AmountException) { null.also { out.append("error: ${e.message}\n"); failed = true } } ?: continue
        out.append(tokens.joinToString(" ")).append('\n')
    }
    print(out)
    return if (failed) 1 else 0
}

private fun render(pack: ExportedPack, phrase: String?, amount: String, output: File): Int {
    val minor = try { if (pack.saysAmount(phrase)) Amounts.parse(amount, pack.maxMinor) else null } catch (e: AmountException) {
        System.err.println("error: ${e.message}")
        return 1
    }
    val tokens = pack.tokens(minor, phrase) ?: run { System.err.println("error: the table does not read $amount"); return 1 }
    output.writeBytes(Wav.write(pack.join(tokens), pack.pcm))
    return 0
}

private fun tableSay(file: File, amounts: List<String>): Int {
    @Suppress("UNCHECKED_CAST")
    val json = try { Json.parse(file.readText(Charsets.UTF_8)) as? Map<String, Any?> } catch (e: JsonException) {
        throw PackException("${file.path} is not JSON: ${e.message}")
    } ?: throw PackException("${file.path} is not a JSON object")
    val table = ReadingTable.from(json)
    var failed = false
    val out = StringBuilder()
    for (text in amounts) {
        val tokens = try { table.tokensFor(Amounts.parse(text, ReadingTable.LIMIT - 1)) } catch (e: AmountException) { null }
        if (tokens == null) { out.append("error: $text is not read\n"); failed = true } else out.append(tokens.joinToString(" ")).append('\n')
    }
    print(out)
    return if (failed) 1 else 0
}

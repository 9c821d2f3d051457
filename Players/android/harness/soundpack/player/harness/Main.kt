// Command-line harness over the player core: say and render with an export, and read amounts with
// a bare reading table, so the Kotlin reader can be compared with `soundpack say` for every grammar.
package soundpack.player.harness

import soundpack.player.Amount
import soundpack.player.AnnouncementPlanner
import soundpack.player.ClipJoiner
import soundpack.player.JsonFields
import soundpack.player.JsonParser
import soundpack.player.JsonValue
import soundpack.player.PackException
import soundpack.player.PackLoader
import soundpack.player.ReadingTable
import soundpack.player.Wav
import java.io.File
import java.io.FileOutputStream
import java.io.IOException
import kotlin.system.exitProcess

private const val USAGE = """usage: soundpack-player say EXPORT_DIR AMOUNT [PHRASE]
       soundpack-player render EXPORT_DIR AMOUNT OUT.wav [PHRASE]
       soundpack-player table-say TABLE_JSON AMOUNT...   (AMOUNT '-' reads amounts from stdin, one a line)"""

/** A usage error (exit 2). */
private class Usage(message: String) : Exception(message)

fun main(args: Array<String>) {
    val status = try {
        run(args)
    } catch (e: Usage) {
        System.err.println("error: ${e.message}\n$USAGE"); 2
    } catch (e: PackException) {
        System.err.println("error: ${e.message}"); 1
    } catch (e: IllegalArgumentException) {
        System.err.println("error: ${e.message}"); 1
    } catch (e: IOException) {
        System.err.println("error: ${e.message}"); 3
    }
    System.out.flush()
    exitProcess(status)
}

private fun run(args: Array<String>): Int {
    val command = args.firstOrNull() ?: throw Usage("no command")
    return when (command) {
        "say" -> {
            if (args.size !in 3..4) throw Usage("say takes EXPORT_DIR AMOUNT [PHRASE]")
            val pack = PackLoader().load(File(args[1]))
            println(AnnouncementPlanner(pack).plan(args[2], args.getOrNull(3)).joinToString(" "))
            0
        }
        "render" -> {
            if (args.size !in 4..5) throw Usage("render takes EXPORT_DIR AMOUNT OUT.wav [PHRASE]")
            val pack = PackLoader().load(File(args[1]))
            val pcm = ClipJoiner(pack).join(AnnouncementPlanner(pack).plan(args[2], args.getOrNull(4)))
            FileOutputStream(args[3]).use { Wav.write(it, pack.pcm, pcm) }
            0
        }
        "table-say" -> {
            if (args.size < 3) throw Usage("table-say takes TABLE_JSON AMOUNT...")
            tableSay(File(args[1]), args.drop(2))
        }
        "-h", "--help", "help" -> { println(USAGE); 0 }
        else -> throw Usage("unknown command '$command'")
    }
}

/** One line per amount: its tokens, or `error: …`; exit 1 when any amount was refused. */
private fun tableSay(file: File, amounts: List<String>): Int {
    if (file.length() > PackLoader.MAX_MANIFEST_BYTES) throw IOException("$file is larger than ${PackLoader.MAX_MANIFEST_BYTES} bytes")
    val root = JsonParser.parse(file.readText(Charsets.UTF_8))
    // A bare table, or a whole soundpack.json holding one under "reading".
    val tableValue = (root as? JsonValue.Obj)?.members?.get("reading") ?: root
    val table = try { ReadingTable.parse(tableValue) } catch (e: IllegalArgumentException) {
        throw IllegalArgumentException("$file: ${e.message}")
    }
    var refused = false
    val out = StringBuilder()
    fun say(text: String) {
        try {
            val tokens = table.read(Amount.parse(text, table.grouping))
            if (tokens == null) { refused = true; out.append("error: the table does not read ").append(text).append('\n') }
            else out.append(tokens.joinToString(" ")).append('\n')
        } catch (e: IllegalArgumentException) {
            refused = true
            out.append("error: ").append(e.message).append('\n')
        }
        if (out.length > 64 * 1024) { print(out); out.setLength(0) }
    }
    for (amount in amounts) {
        if (amount == "-") generateSequence { readLine() }.forEach { say(it) } else say(amount)
    }
    print(out)
    return if (refused) 1 else 0
}

// Command-line harness over the player core: say and render with an export, and read amounts with
// a bare reading table, so the Kotlin reader can be compared with `soundpack say` for every grammar.
package soundpack.player.harness

import soundpack.player.Amount
import soundpack.player.AnnouncementPlanner
import soundpack.player.ClipJoiner
import soundpack.player.DigitGrouping
import soundpack.player.JsonParser
import soundpack.player.JsonValue
import soundpack.player.PackException
import soundpack.player.PackLoader
import soundpack.player.ReadingTable
import soundpack.player.Wav
import java.io.BufferedReader
import java.io.File
import java.io.FileDescriptor
import java.io.FileOutputStream
import java.io.IOException
import java.io.PrintStream
import kotlin.system.exitProcess

private const val USAGE = """usage: soundpack-player say EXPORT_DIR [--phrase ID] AMOUNT... [PHRASE]
       soundpack-player render EXPORT_DIR [--phrase ID] AMOUNT OUT.wav [PHRASE]
       soundpack-player table-say TABLE_JSON AMOUNT...
PHRASE: a last argument that names one of the pack's phrases and is not an amount (or --phrase ID).
An AMOUNT of '-' reads amounts from standard input, one a line. say and table-say print one line per
amount: its clip keys, or "error: …" (exit 1 when any amount is refused)."""

/** A usage error (exit 2). */
private class Usage(message: String) : Exception(message)

fun main(args: Array<String>) {
    val out = PrintStream(FileOutputStream(FileDescriptor.out), false, "UTF-8")
    val status = Harness(System.`in`.bufferedReader(Charsets.UTF_8), out, System.err).run(args)
    out.flush()
    exitProcess(status)
}

/** The harness with its streams passed in, so tests run it in-process and read what it printed. */
class Harness(private val input: BufferedReader, private val out: PrintStream, private val err: PrintStream) {
    /** Runs one command line; the exit status: 0 done, 1 refused, 2 usage error, 3 I/O failure. */
    fun run(args: Array<String>): Int = try {
        dispatch(args)
    } catch (e: Usage) {
        err.println("error: ${e.message}\n$USAGE"); 2
    } catch (e: PackException) {
        err.println("error: ${e.message}"); 1
    } catch (e: IllegalArgumentException) {
        err.println("error: ${e.message}"); 1
    } catch (e: IOException) {
        err.println("error: ${e.message}"); 3
    }

    private fun dispatch(args: Array<String>): Int {
        val command = args.firstOrNull() ?: throw Usage("no command")
        if (command == "-h" || command == "--help" || command == "help") { out.println(USAGE); return 0 }
        if (command !in setOf("say", "render", "table-say")) throw Usage("unknown command '$command'")
        if (args.size < 3) throw Usage("$command needs a folder or file and an amount")
        val source = File(args[1])
        if (command == "table-say") return tableSay(source, args.drop(2))
        val pack = PackLoader().load(source)
        val (phrase, rest) = phraseAndRest(args.drop(2), pack.phrases.keys)
        return if (command == "say") {
            val planner = AnnouncementPlanner(pack)
            eachAmount(rest) { planner.plan(it, phrase).joinToString(" ") }
        } else {
            if (rest.size != 2) throw Usage("render takes EXPORT_DIR AMOUNT OUT.wav [PHRASE]")
            val pcm = ClipJoiner(pack).join(AnnouncementPlanner(pack).plan(rest[0], phrase))
            FileOutputStream(rest[1]).use { Wav.write(it, pack.pcm, pcm) }
            0
        }
    }

    /**
     * The phrase (`--phrase ID`, or a last argument that names one of the pack's phrases and is not
     * an amount) and the other arguments.
     */
    private fun phraseAndRest(arguments: List<String>, phrases: Set<String>): Pair<String?, List<String>> {
        val flag = arguments.indexOf("--phrase")
        if (flag >= 0) {
            val id = arguments.getOrNull(flag + 1) ?: throw Usage("--phrase needs a phrase id")
            return Pair(id, arguments.filterIndexed { i, _ -> i != flag && i != flag + 1 })
        }
        val last = arguments.last()
        val isAmount = try { Amount.parse(last, DigitGrouping.INDIAN); true } catch (e: IllegalArgumentException) { false }
        return if (arguments.size >= 2 && last in phrases && !isAmount) Pair(last, arguments.dropLast(1)) else Pair(null, arguments)
    }

    /** Prints `line(amount)` for each amount (`-`: standard input), or an `error:` line; exit 1 when any was refused. */
    private fun eachAmount(amounts: List<String>, line: (String) -> String): Int {
        var refused = false
        val lines = StringBuilder()
        fun say(text: String) {
            try {
                lines.append(line(text)).append('\n')
            } catch (e: IllegalArgumentException) {
                refused = true
                lines.append("error: ").append(e.message).append('\n')
            }
            if (lines.length > 64 * 1024) { out.print(lines); lines.setLength(0) }
        }
        for (amount in amounts) {
            if (amount == "-") generateSequence { input.readLine() }.forEach { say(it) } else say(amount)
        }
        out.print(lines)
        return if (refused) 1 else 0
    }

    /** Reads amounts with a bare reading table (or a soundpack.json holding one under "reading"). */
    private fun tableSay(file: File, amounts: List<String>): Int {
        if (file.length() > PackLoader.MAX_MANIFEST_BYTES) throw IOException("$file is larger than ${PackLoader.MAX_MANIFEST_BYTES} bytes")
        val root = JsonParser.parse(file.readText(Charsets.UTF_8))
        val tableValue = (root as? JsonValue.Obj)?.members?.get("reading") ?: root
        val table = try { ReadingTable.parse(tableValue) } catch (e: IllegalArgumentException) {
            throw IllegalArgumentException("$file: ${e.message}")
        }
        return eachAmount(amounts) { text ->
            val tokens = table.read(Amount.parse(text, table.grouping)) ?: throw IllegalArgumentException("the table does not read $text")
            tokens.joinToString(" ")
        }
    }
}

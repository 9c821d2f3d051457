// What an announcement says: the phrase's pieces with `{amount}` replaced by the reading table's
// tokens. The one place that frames a reading, as soundpack's `say --format tokens` does.
package soundpack.player

/** Plans the clip keys of announcements of one pack. */
class AnnouncementPlanner(private val pack: ExportedPack) {
    /**
     * The clip keys for `amountText` said with `phraseId` (the default phrase when null or unknown
     * to this pack version, as the iOS extension does). The amount is parsed exactly and refused
     * above the pack's maxAmount ([AmountException]); a phrase without `{amount}` ignores it.
     */
    fun plan(amountText: String?, phraseId: String? = null): List<String> {
        val pieces = pack.phrases[phraseId ?: pack.defaultPhrase] ?: pack.phrases.getValue(pack.defaultPhrase)
        val saysAmount = pieces.contains(Piece.AmountReading)
        val reading = if (saysAmount) {
            val text = amountText ?: throw AmountException("", "the phrase says an amount and none was given")
            read(Amount.parse(text, pack.maxAmount, pack.reading.grouping), text)
        } else emptyList()
        val keys = ArrayList<String>()
        for (piece in pieces) {
            when (piece) {
                is Piece.Clip -> keys.add(piece.key)
                Piece.AmountReading -> keys.addAll(reading)
            }
        }
        return keys
    }

    private fun read(amount: Amount, text: String): List<String> =
        pack.reading.read(amount) ?: throw AmountException(text, "the pack's reading table does not read it")
}

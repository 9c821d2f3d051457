// The fields of a push payload this player reads: `amount` (an exact decimal string), `phrase`,
// `pack` ("id@version") and `paymentId`. Anything else in the payload is not its business.
package soundpack.player

/** A payment push as the player needs it. */
data class PaymentPayload(val amount: String?, val phrase: String?, val pack: String?, val paymentId: String?) {
    companion object {
        /** Push payloads are small (FCM data: 4 KB); anything much larger is refused unread. */
        const val MAX_LENGTH = 16 * 1024
        private val PAYMENT_ID = Regex("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")

        /** Whether `text` is a payment id: 1–128 of `[A-Za-z0-9._:-]`, starting with a letter or digit. */
        fun isValidPaymentId(text: String) = PAYMENT_ID.matches(text)

        /**
         * The payload in `json`, or IllegalArgumentException when it is not a JSON object or a
         * field has the wrong type. An invalid `paymentId` is dropped (null), not an error: the
         * caller then uses the message's own id.
         */
        fun parse(json: String): PaymentPayload {
            val root = JsonFields.of(JsonParser.parse(json, MAX_LENGTH, 16), "")
            fun optional(key: String, max: Int) = if (root.has(key)) root.string(key, max) else null
            val id = if (root.raw("paymentId") is JsonValue.Str) root.string("paymentId", 4096) else null
            return PaymentPayload(optional("amount", 64), optional("phrase", 64), optional("pack", 256), id?.takeIf(::isValidPaymentId))
        }
    }
}

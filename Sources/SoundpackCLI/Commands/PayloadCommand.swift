// `soundpack payload AMOUNT --pack ID[@VER]` and `soundpack payload lint FILE|-`.

import Foundation
import SoundpackCore
import SoundpackKit

enum PayloadCommand: Command {
    static let usesCatalogOrStore = true
    static let spec = CommandSpec(
        name: "payload",
        synopsis: "payload [AMOUNT] --pack ID[@VER] [--phrase ID] [--title TEXT] [--body TEXT] [--base-url URL] [--payment-id ID]  |  payload lint FILE|- [--format text|json|junit|github|sarif]",
        summary: "Write an APNs payload for a payment that makes the extension run, or lint one.",
        discussion: """
            The payload has aps.alert with a body (default: the announcement in writing, as the clips frame it: prefix text, the amount in figures with 元, suffix text), mutable-content 1,
            interruption-level time-sensitive, sound "default" as the fallback, and type "payment", amount (an exact
            string; left out for a phrase that says none), phrase (--phrase, default the pack's defaultPhrase; written
            for packs that declare phrases), pack (id@version, a published version from the catalog), manifest (--base-url + the store path
            of the version's manifest.json) and paymentId (--payment-id, default a fresh UUID), by which the phone
            announces each payment once. A payload is written only when it passes its own lint. `payload lint`
            reports payload.invalid, payload.no-body, payload.not-mutable (mutable-content must be the number 1),
            payload.too-large (over 4096 bytes), payload.interruption-level (not passive, active, time-sensitive or
            critical), payload.amount-unreadable (also above the pack's maxAmount), and, against the store's index.json,
            payload.unknown-pack, payload.yanked-pack, payload.unknown-phrase (not a phrase of that version) and
            payload.missing-clip, payload.payment-id (not 1–128 characters
            of [A-Za-z0-9._:-]) (errors); payload.no-interruption-level, payload.critical (it needs Apple's entitlement)
            and payload.no-payment-id are warnings. Exit 1 on errors.
            """,
        options: Options.specs)

    struct Options: ParsableArguments {
        /// The amount, or `lint` (then `file` is what to lint).
        var amount: String?
        var file: String?
        var pack: PackRef?
        var phrase: String?
        var title: String?
        var body: String?
        var baseURL: BaseURL?
        var paymentID: PaymentID?
        var format = ReportFormat.text

        static let declarations: [Declaration<Self>] = [
            .argument(to: \.amount),
            .argument(to: \.file),
            .option("--pack", to: \.pack, value: "ID[@VER]", help: "a published pack; the newest version when @VER is left out") {
                text throws(SoundpackError) in try parseReference(text, requireVersion: false)
            },
            .option("--phrase", to: \.phrase, value: "ID", help: "the pack's phrase to say (default: its defaultPhrase)"),
            .option("--title", to: \.title, value: "TEXT", help: "alert title"),
            .option("--body", to: \.body, value: "TEXT", help: "alert body"),
            .baseURL(to: \.baseURL, help: "where the store is served (default: paths relative to the store)"),
            .option("--payment-id", to: \.paymentID, value: "ID", help: "the payment's id, announced once by the phone (default: a fresh UUID)") { text throws(SoundpackError) in
                guard let id = PaymentID(text) else {
                    throw .usage("--payment-id '\(text.visible)' is not a payment id", hint: "1–128 characters of [A-Za-z0-9._:-], starting with a letter or digit")
                }
                return id
            },
            .choice("--format", to: \.format, value: "FORMAT", help: "lint's output"),
        ]
    }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        if arguments.amount == "lint" { return try lint(arguments, context) }
        guard arguments.file == nil, arguments.amount != nil || arguments.phrase != nil else {
            throw .usage("payload needs one amount", hint: "soundpack payload 15.40 --pack wechat")
        }
        guard let ref = arguments.pack else { throw .usage("payload needs --pack ID[@VER]") }
        var request = PaymentPushRequest(amount: arguments.amount, packID: ref.id, version: ref.version)
        request.phrase = arguments.phrase
        (request.title, request.body) = (arguments.title, arguments.body)
        (request.baseURL, request.paymentID) = (arguments.baseURL, arguments.paymentID)
        let catalog = try context.openCatalog(readOnly: true)
        let payload: Data
        do { payload = try PushPayload.build(request, store: try context.store(), catalog: catalog) } catch where error.input == "amount" {
            // The amount given (or not) does not fit the phrase: a command line to change.
            let phrase = arguments.phrase.map { " --phrase \($0)" } ?? ""
            throw .usage(error.what, hint: arguments.amount == nil ? "soundpack payload 15.40 --pack \(ref.id)\(phrase)" : "soundpack payload --pack \(ref.id)\(phrase)")
        }
        context.stdout.write(String(decoding: payload, as: UTF8.self))
        return .success
    }

    static func lint(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let format = arguments.format
        guard let source = arguments.file else { throw .usage("payload lint needs one FILE, or - for standard input") }
        let data = try PushPayload.read(context.absolute(source), shown: source, standardInput: context.stdin)
        let store = try context.store()
        let (findings, packsChecked) = try PushPayload.lint(data, against: store)
        let failed = findings.contains { $0.severity == .error }
        try context.emit(PayloadLint(file: source, passed: !failed, findings: findings), format)
        let unchecked = "the store \(store.location.visible) has no index.json"
        if failed {
            if !packsChecked { context.stderr.write("\(Style.warning(context.colours(context.stderr))) \(unchecked), so the pack was not checked\n") }
            return .failure
        }
        guard packsChecked else {
            throw .environment("\(unchecked): nothing is published there, so the pack was not checked",
                               hint: "--store (or SOUNDPACK_STORE) names the store soundpack publish wrote; the default is dist/")
        }
        return .success
    }
}

// `soundpack payload AMOUNT --pack ID[@VER]` and `soundpack payload lint FILE|-`.

import Foundation
import SoundpackCore
import SoundpackKit

enum PayloadCommand: Command {
    static let usesCatalogOrStore = true
    static let spec = CommandSpec(
        name: "payload",
        synopsis: "payload AMOUNT --pack ID[@VER] [--title TEXT] [--body TEXT] [--base-url URL] [--payment-id ID]  |  payload lint FILE|- [--format text|json]",
        summary: "Write an APNs payload for a payment that makes the extension run, or lint one.",
        discussion: """
            The payload has aps.alert with a body (default: the pack's prefix text and the amount), mutable-content 1,
            interruption-level time-sensitive, sound "default" as the fallback, and type "payment", amount (an exact
            string), pack (id@version, a published version from the catalog), manifest (--base-url + the store path
            of the version's manifest.json) and paymentId (--payment-id, default a fresh UUID), by which the phone
            announces each payment once. A payload is written only when it passes its own lint. `payload lint`
            reports payload.invalid, payload.no-body, payload.not-mutable (mutable-content must be the number 1),
            payload.too-large (over 4096 bytes), payload.interruption-level (not passive, active, time-sensitive or
            critical), payload.amount-unreadable (also above the pack's maxAmount), and, against the store's index.json,
            payload.unknown-pack, payload.yanked-pack and payload.missing-clip, payload.payment-id (not 1–128 characters
            of [A-Za-z0-9._:-]) (errors); payload.no-interruption-level, payload.critical (it needs Apple's entitlement)
            and payload.no-payment-id are warnings. Exit 1 on errors.
            """,
        options: [
            .option("--pack", value: "ID[@VER]", help: "a published pack; the newest version when @VER is left out"),
            .option("--title", value: "TEXT", help: "alert title"),
            .option("--body", value: "TEXT", help: "alert body"),
            .option("--base-url", value: "URL", help: "where the store is served (default: paths relative to the store)"),
            .option("--payment-id", value: "ID", help: "the payment's id, announced once by the phone (default: a fresh UUID)"),
            .choice("--format", value: "FORMAT", default: OutputFormat.text, help: "lint's output"),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        if arguments.positionals.first == "lint" { return try lint(arguments, context) }
        guard arguments.positionals.count == 1, let amountText = arguments.positionals.first else {
            throw .usage("payload needs one amount", hint: "soundpack payload 15.40 --pack wechat")
        }
        guard let packText = arguments.value("--pack") else { throw .usage("payload needs --pack ID[@VER]") }
        let ref = try parseReference(packText, requireVersion: false)
        let catalog = try context.openCatalog(arguments, readOnly: true)
        let found: (version: PublishedVersion, manifest: StoreManifest)?
        let store = try context.store(arguments)
        do { found = try store.published(ref.id, ref.version, in: catalog) } catch {
            throw error.context("cannot read \(packText) from the store")
        }
        guard let (version, manifest) = found else {
            throw .refused("\(packText) is not a published pack in the catalog", hint: "soundpack publish, then soundpack list")
        }
        let manifestPath = StoreLayout.manifest(version.id, version.version)
        let maximum = manifest.maxAmount
        let amount: Amount
        do { amount = try Amount(parsing: amountText, maximum: maximum) } catch { throw .refused(error.description) }
        if let base = arguments.value("--base-url") {
            do { try SharedContainerExport.checkBaseURL(base) } catch { throw error.with(hint: "check --base-url") }
        }
        if let id = arguments.value("--payment-id"), !PaymentID.isValid(id) {
            throw .usage("--payment-id '\(id.visible)' is not a payment id", hint: "1–128 characters of [A-Za-z0-9._:-], starting with a letter or digit")
        }
                let base = arguments.value("--base-url").map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        let body = arguments.value("--body") ?? "\(manifest.texts["prefix"] ?? "")\(amount)元"
        let payload = PushPayload.make(amount: amount, packID: version.id, version: version.version.description, title: arguments.value("--title") ?? manifest.name,
                                       body: body, manifestURL: base.map { "\($0)/\(manifestPath)" } ?? manifestPath,
                                       paymentID: arguments.value("--payment-id") ?? UUID().uuidString.lowercased())
        // Never emit what the lint would reject: the same checks, with this pack's facts.
        let errors = PushPayload.lint(payload, packs: ["\(version.id)@\(version.version)": PushPayload.PackFacts(manifest, yanked: version.yanked)])
            .filter { $0.severity == .error }
        guard errors.isEmpty else {
            throw .refused("no payload written", errors.map { "[\($0.rule)] \($0.message)" }.joined(separator: "; "),
                           hint: "fix --title or --body, or name a version that is not yanked")
        }
        context.stdout.write(String(decoding: payload, as: UTF8.self))
        return .success
    }

    static func lint(_ arguments: ParsedArguments, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let format: OutputFormat = try arguments.choice("--format")
        guard arguments.positionals.count == 2 else { throw .usage("payload lint needs one FILE, or - for standard input") }
        let source = arguments.positionals[1]
        // A payload APNs accepts is 4 KiB; more than 1 MiB is not read at all.
        let cap = 1 << 20
        let data: Data
        if source == "-" {
            guard let bytes = context.stdin.readAll(maxBytes: cap) else {
                throw .refused("standard input is not a payload", "more than 1 MiB; APNs refuses payloads above \(PushPayload.maxBytes) bytes")
            }
            data = Data(bytes)
        } else {
            do { data = Data(try CappedFile.read(context.absolute(source), cap: cap, what: "a payload")) } catch {
                throw .refused("cannot read \(source)", error.message)
            }
        }
        // What the store says of each published version (the store is the source of truth: its
        // index.json and manifests), so the lint can tell whether the named pack exists, is not
        // yanked, and can say the amount.
        var packs: [String: PushPayload.PackFacts] = [:]
        let store = try context.store(arguments)
        let index: StoreIndex?
        do { index = try store.readIndex() } catch { throw error.context("cannot read the store") }
        for (id, pack) in index?.packs ?? [:] {
            for (text, listed) in pack.versions {
                guard let version = SemanticVersion(text), let manifest = try? store.manifest(id, version) else { continue }
                packs["\(id)@\(version)"] = PushPayload.PackFacts(manifest, yanked: listed.yanked)
            }
        }
        // Without a store the payload's own shape is still checked; its pack cannot be.
        let findings = PushPayload.lint(data, packs: index == nil ? nil : packs)
        if format == .json {
            struct Document: Encodable { var file: String; var passed: Bool; var findings: [PushPayload.Finding] }
            context.stdout.write(try context.json(Document(file: source, passed: !findings.contains { $0.severity == .error }, findings: findings)))
        } else {
            let colour = context.colours(context.stdout)
            for finding in findings {
                let label = finding.severity == .error ? Style.error(colour) : Style.warning(colour)
                context.stdout.write("\(source.visible): \(label) [\(finding.rule)] \(finding.message.visible)\n")
            }
            let errors = findings.filter { $0.severity == .error }.count
            context.stdout.write("\(source.visible): \(errors == 0 ? "passed" : "failed") — \(errors) error\(errors == 1 ? "" : "s"), \(findings.count - errors) warning\(findings.count - errors == 1 ? "" : "s")\n")
        }
        if findings.contains(where: { $0.severity == .error }) {
            if index == nil { context.stderr.write("\(Style.warning(context.colours(context.stderr))) the store \(store.location.visible) has no index.json, so the pack was not checked\n") }
            return .failure
        }
        if index == nil {
            throw .environment("the store \(store.location.visible) has no index.json: nothing is published there, so the pack was not checked",
                               hint: "--store (or SOUNDPACK_STORE) names the store soundpack publish wrote; the default is dist/")
        }
        return .success
    }
}

// `soundpack payload`: a payment push for a published version, and the lint of any push against
// what the store publishes. The command parses and prints; this reads the catalog and the store.

import Foundation
import SoundpackCatalog
import SoundpackCore
import SoundpackExport
import SoundpackPack
import SoundpackStore
import SoundpackSupport
import SoundpackValidation

/// What a payment push says, as the command line gives it.
public struct PaymentPushRequest: Sendable {
    /// nil for a phrase that says no amount.
    public var amount: String?
    /// nil: the pack's default phrase.
    public var phrase: String?
    /// The published pack to announce with.
    public var packID: String
    /// nil: the newest version that is not yanked.
    public var version: SemanticVersion?
    /// The notification's title; nil: the pack's name.
    public var title: String?
    /// nil: the announcement as text (微信到账15.40元).
    public var body: String?
    /// Where the store is served; nil: the manifest's path relative to the store.
    public var baseURL: BaseURL?
    /// nil: a fresh UUID.
    public var paymentID: PaymentID?

    /// A push for `amount` (nil: a phrase without one) announced with `packID` at `version`; the other
    /// fields keep their defaults.
    public init(amount: String?, packID: String, version: SemanticVersion?) {
        self.amount = amount
        self.packID = packID
        self.version = version
    }
}

extension PushPayload {
    /// The payload for `request`, for the published version the catalog names and the store holds.
    /// Never one the lint would reject: the same checks run with this version's facts first.
    public static func build(_ request: PaymentPushRequest, store: Store, catalog: any Catalog) throws(SoundpackError) -> Data {
        let name = PackRef(id: request.packID, version: request.version).description
        let found: (version: PublishedVersion, manifest: StoreManifest)?
        do { found = try store.published(request.packID, request.version, in: catalog) } catch {
            throw error.context("cannot read \(name) from the store")
        }
        guard let (version, manifest) = found else {
            throw .refused("\(name.visible) is not a published pack in the catalog", hint: "soundpack publish, then soundpack list")
        }
        let facts = PackFacts(manifest, yanked: version.yanked)
        let phrase = try request.phrase.map { id throws(SoundpackError) in try facts.phrasebook.phrase(named: id, of: PackRef.name(version.id, version.version)) }
            ?? facts.phrasebook.defaultPhrase
        var amount: Amount?
        switch (phrase.saysAmount, request.amount) {
        case (true, let text?):
            do { amount = try Amount(parsing: text, maximum: manifest.maxAmount, grouping: manifest.readingGrammar.grouping) } catch { throw .refused(error.description) }
        case (true, nil):
            throw SoundpackError.refused("phrase '\(phrase.id)' says an amount, and none was given").about(input: "amount")
        case (false, _?):
            throw SoundpackError.refused("phrase '\(phrase.id)' says no amount; leave the amount out").about(input: "amount")
        case (false, nil):
            break
        }
        let manifestPath = StoreLayout.manifest(version.id, version.version)
        let base = request.baseURL?.trimmed
        let payload = try make(amount: amount, phrase: facts.phrasebook.isDeclared ? phrase.id : nil, packID: version.id,
                           version: version.version.description, title: request.title ?? manifest.name,
                           body: request.body ?? facts.phrasebook.announcement(phrase).alertText(for: amount, texts: manifest.texts),
                           manifestURL: base.map { "\($0)/\(manifestPath)" } ?? manifestPath,
                           paymentID: (request.paymentID ?? .random()).text)
        let errors = lint(payload, packs: [PackRef.name(version.id, version.version): facts]).filter { $0.severity == .error }
        guard errors.isEmpty else {
            throw .refused("no payload written", errors.map { "[\($0.rule.rawValue)] \($0.message)" }.joined(separator: "; "),
                           hint: "change the title or body, or name a version that is not yanked")
        }
        return payload
    }

    /// A payload to lint: the file at `path` (absolute; `shown` as named), or all of `standardInput`
    /// for `-`. A payload APNs accepts is 4 KiB; more than 1 MiB is not read at all.
    public static func read(_ path: String, shown: String, standardInput: LineSource) throws(SoundpackError) -> Data {
        let cap = 1 << 20
        guard shown != "-" else {
            guard let bytes = standardInput.readAll(maxBytes: cap) else {
                throw .refused("standard input is not a payload", "more than 1 MiB; APNs refuses payloads above \(maxBytes) bytes")
            }
            return Data(bytes)
        }
        do { return Data(try CappedFile.read(path, cap: cap, what: "a payload")) } catch { throw error.cause(of: .refused, "cannot read \(shown)") }
    }

    /// The findings on `data` against the versions the store publishes (its index.json and the
    /// manifest of the version the payload names: the store is the source of truth), so the lint
    /// can tell whether the named pack exists, is not yanked, and can say the amount.
    /// `packsChecked` is false when the store has no index.json: then only the payload's own shape
    /// is checked. A named version index.json lists whose manifest cannot be read is an error: it
    /// is published, so calling it unknown would send the team looking in the wrong place.
    public static func lint(_ data: Data, against store: Store) throws(SoundpackError) -> (findings: [Finding], packsChecked: Bool) {
        let index: StoreIndex?
        do { index = try store.readIndex() } catch { throw error.context("cannot read the store") }
        guard let index else { return (lint(data, packs: nil), false) }
        var packs: [String: PackFacts] = [:]
        if let named = namedPack(data) {
            for (id, pack) in index.packs {
                // A listed name that is no semantic version is no version a payload can name.
                for (text, listed) in pack.versions {
                    guard let version = SemanticVersion(text), PackRef.name(id, version) == named else { continue }
                    do { packs[named] = PackFacts(try store.manifest(id, version), yanked: listed.yanked) } catch {
                        throw error.context("cannot check the payload against \(named), which the store's index.json lists")
                    }
                }
            }
        }
        return (lint(data, packs: packs), true)
    }

    /// The payload's `pack` (`wechat@1.0.0`), when it is a JSON object that has one. Nil otherwise,
    /// and nothing is lost: `lint(_:packs:)` parses it again and reports what is wrong with it.
    static func namedPack(_ data: Data) -> String? {
        guard data.count <= 1 << 20, let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        return root["pack"] as? String
    }
}

// The one list of soundpack's rules. Each rule declares itself in its own file (its id, severity,
// summary and check); this list says which exist and in what order reports list them. Everything
// else is read from it: the ids that parse (`RuleID(rawValue:)`, `RuleID.allCases`), validate's
// `--ignore` choices and pack.json's `checks.ignore`, SARIF's and JUnit's rule lists, the rules
// validate and publish run, and (through tests) the README's table.

import SoundpackSupport

enum RuleBook {
    /// Every rule, in the order reports list them: a pack's (the order validate runs them),
    /// publish's (the order publish asks them), the payload's, and the store's (the order verify
    /// runs them). `payload lint` runs its rules in the order its findings read (`PushPayload.rules`).
    static let rules: [any Rule] = [
        ManifestInvalid(), ManifestUnsafePath(), CoverageMissingToken(), CoverageUnknownToken(), CoverageOrphanFile(), CoverageUnspokenText(),
        FileUnreadable(), FileUnsafeName(), FormatUnsupported(), FormatMismatch(), AudioEmpty(), AudioNonFinite(), AudioTooLong(),
        AudioLeadingSilence(), AudioTrailingSilence(), AudioClipping(), AudioDCOffset(), AudioLoudnessOutlier(),
        ComposeBannerCut(), ComposeTooLong(), ComposeDownloadSize(),

        CatalogVersionConflict(), CatalogVersionYanked(), CatalogVersionNotNewer(), CatalogVersionBump(),

        PayloadInvalid(), PayloadNoBody(), PayloadNotMutable(), PayloadTooLarge(), PayloadInterruptionLevel(), PayloadNoInterruptionLevel(),
        PayloadCritical(), PayloadAmountUnreadable(), PayloadUnknownPack(), PayloadUnknownPhrase(), PayloadYankedPack(), PayloadMissingClip(),
        PayloadPaymentID(), PayloadNoPaymentID(),

        StoreMissing(), StoreChanged(), StoreUnexpected(), StoreIndexMismatch(), StoreSignature(), StoreLeftover(),

        // Added since: ids only grow, at the end, so SARIF's rule indices of the others stay.
        AudioDuplicate(), AudioVoiceOutlier(), AudioSwapped(), AudioWrongWord(),
    ]

    /// Each rule's declaration by its id.
    static let byID: [String: any Rule.Type] = Dictionary(uniqueKeysWithValues: rules.map { (type(of: $0).id.rawValue, type(of: $0)) })

    /// Every id, in order.
    static let ids: [RuleID] = rules.map { type(of: $0).id }
}

// Each pack and payload rule declares itself in its own file; the registries are the lists validate and
// payload lint run.

@testable import SoundpackKit
@testable import SoundpackValidation
import Testing

@Suite struct RuleDeclarationTests {
    @Test func everyPackRuleIdIsDeclaredOnceInTheRegistryInOrder() {
        let declared = Validator.rules.map { type(of: $0).id }
        #expect(declared == RuleID.rules(of: .pack), "Validator.rules runs the pack rules in RuleID order, each once")
        #expect(Set(declared).count == declared.count)
    }

    @Test func everyPayloadRuleIdIsDeclaredOnce() {
        let declared = [PayloadTooLarge.id, PayloadInvalid.id] + PushPayload.rules.map { type(of: $0).id }
        #expect(Set(declared) == Set(RuleID.rules(of: .payload)))
        #expect(Set(declared).count == declared.count)
    }

    @Test func aRulesSeverityAndSummaryComeFromItsDeclaration() {
        #expect(RuleID.declared.count == RuleID.rules(of: .pack).count + RuleID.rules(of: .payload).count)
        for type in RuleID.declared.values {
            #expect(type.id.summary == type.summary)
            #expect(type.id.defaultSeverity == type.severity)
            #expect(!type.summary.isEmpty && type.summary.hasSuffix("."), "\(type.id.rawValue): one sentence")
        }
        #expect(RuleID.coverageOrphanFile.defaultSeverity == .warning && RuleID.fileUnreadable.defaultSeverity == .error)
        #expect(RuleID.payloadCritical.defaultSeverity == .warning && RuleID.storeLeftover.defaultSeverity == .note)
    }
}

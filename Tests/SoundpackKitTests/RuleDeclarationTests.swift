// Each pack rule declares itself in its own file; the registry is the list the validator runs.

@testable import SoundpackKit
@testable import SoundpackValidation
import Testing

@Suite struct RuleDeclarationTests {
    @Test func everyPackRuleIdIsDeclaredOnceInTheRegistryInOrder() {
        let declared = Validator.rules.map { type(of: $0).id }
        #expect(declared == RuleID.rules(of: .pack), "Validator.rules runs the pack rules in RuleID order, each once")
        #expect(Set(declared).count == declared.count)
    }

    @Test func aRulesSeverityAndSummaryComeFromItsDeclaration() {
        for rule in Validator.rules {
            let type = type(of: rule)
            #expect(type.id.summary == type.summary)
            #expect(type.id.defaultSeverity == type.severity)
            #expect(!type.summary.isEmpty && type.summary.hasSuffix("."), "\(type.id.rawValue): one sentence")
        }
        #expect(RuleID.coverageOrphanFile.defaultSeverity == .warning && RuleID.fileUnreadable.defaultSeverity == .error)
        #expect(RuleID.payloadCritical.defaultSeverity == .warning && RuleID.storeLeftover.defaultSeverity == .note)
    }
}

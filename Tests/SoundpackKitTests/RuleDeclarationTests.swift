// Each pack, publication and payload rule declares itself in its own file; the registries are the lists validate and
// payload lint run.

import Foundation
@testable import SoundpackKit
import SoundpackTestSupport
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

    @Test func everyPublicationRuleIdIsDeclaredOnceInOrder() {
        #expect(PublicationCandidate.rules.map { type(of: $0).id } == RuleID.rules(of: .publication))
    }

    @Test func aRulesSeverityAndSummaryComeFromItsDeclaration() {
        #expect(RuleID.declared.count == RuleID.rules(of: .pack).count + RuleID.rules(of: .publication).count + RuleID.rules(of: .payload).count)
        for type in RuleID.declared.values {
            #expect(type.id.summary == type.summary)
            #expect(type.id.defaultSeverity == type.severity)
            #expect(!type.summary.isEmpty && type.summary.hasSuffix("."), "\(type.id.rawValue): one sentence")
        }
        #expect(RuleID.coverageOrphanFile.defaultSeverity == .warning && RuleID.fileUnreadable.defaultSeverity == .error)
        #expect(RuleID.payloadCritical.defaultSeverity == .warning && RuleID.storeLeftover.defaultSeverity == .note)
    }

    /// README's "Rules and what they mean to a listener" lists every rule a pack or a publish can
    /// break, each at the severity its declaration fires at (compose.too-long at both).
    @Test func theReadmeTableListsEveryPackAndPublicationRuleAtItsSeverity() throws {
        let readme = try String(contentsOfFile: Fixtures.repositoryRoot + "/README.md", encoding: .utf8)
        let after = try #require(readme.components(separatedBy: "## Rules and what they mean to a listener").dropFirst().first)
        let section = after.components(separatedBy: "\n## ")[0]
        var table: [RuleID: String] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let id = try #require(RuleID(rawValue: String(cells[0].dropFirst().dropLast())), "\(cells[0]) is not a rule id")
            table[id] = cells[1]
        }
        #expect(Set(table.keys) == Set(RuleID.rules(of: .pack) + RuleID.rules(of: .publication)))
        for (id, severity) in table {
            let expected = id == .composeTooLong ? "error / warning" : id.defaultSeverity.rawValue
            #expect(severity == expected, "\(id.rawValue): README says \(severity), its declaration \(expected)")
        }
    }
}

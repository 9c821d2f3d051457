// Each rule declares itself in its own file; RuleBook.rules is the one list everything else reads:
// the ids that parse, their order and scope, the rules validate, publish and verify run.

import Foundation
@testable import SoundpackKit
import SoundpackTestSupport
@testable import SoundpackValidation
import Testing

@Suite struct RuleDeclarationTests {
    /// The ids are a contract (users suppress rules by them, CI lines name them): the list read
    /// from RuleBook is the one every earlier release listed, in the same order, and may only grow.
    @Test func theRuleIdsAreTheContractsInItsOrder() {
        #expect(RuleID.allCases.map(\.rawValue) == [
            "manifest.invalid", "manifest.unsafe-path", "coverage.missing-token", "coverage.unknown-token", "coverage.orphan-file",
            "coverage.unspoken-text", "file.unreadable", "file.unsafe-name", "format.unsupported", "format.mismatch", "audio.empty",
            "audio.non-finite", "audio.too-long", "audio.leading-silence", "audio.trailing-silence", "audio.clipping", "audio.dc-offset",
            "audio.loudness-outlier", "compose.banner-cut", "compose.too-long", "compose.download-size",
            "catalog.version-conflict", "catalog.version-yanked", "catalog.version-not-newer", "catalog.version-bump",
            "payload.invalid", "payload.no-body", "payload.not-mutable", "payload.too-large", "payload.interruption-level",
            "payload.no-interruption-level", "payload.critical", "payload.amount-unreadable", "payload.unknown-pack",
            "payload.unknown-phrase", "payload.yanked-pack", "payload.missing-clip", "payload.payment-id", "payload.no-payment-id",
            "store.missing", "store.changed", "store.unexpected", "store.index", "store.signature", "store.leftover",
            "audio.duplicate", "audio.voice-outlier", "audio.swapped", "audio.wrong-word",
        ])
        #expect(Set(RuleID.allCases).count == RuleID.allCases.count)
        #expect(RuleID(rawValue: "audio.clippping") == nil && RuleID(rawValue: "") == nil)
        #expect(RuleID(rawValue: "store.leftover") == .storeLeftover)
        #expect(RuleID.allCases.filter { $0.scope == .publication } == [.catalogVersionConflict, .catalogVersionYanked, .catalogVersionNotNewer, .catalogVersionBump])
        #expect(RuleID.reportable == RuleID.allCases.filter { $0.scope == .pack || $0 == .catalogVersionConflict })
    }

    /// Every file under a rules folder declares one rule (its struct, and its id beside it), and
    /// RuleBook lists each once: a rule written but not listed, or listed from elsewhere, fails.
    @Test func everyRuleFileDeclaresOneRuleThatRuleBookLists() throws {
        let sources = Fixtures.repositoryRoot + "/Sources/SoundpackValidation"
        var declared: [String: String] = [:]  // struct → the id its file declares
        for folder in ["Rules", "PayloadRules", "PublicationRules", "StoreRules"] {
            for file in try FileManager.default.contentsOfDirectory(atPath: "\(sources)/\(folder)") where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: "\(sources)/\(folder)/\(file)", encoding: .utf8)
                let structs = text.matches(of: /\n(?:package )?struct (\w+): (?:Pack|Payload|Publication|Store)?Rule \{/).map { String($0.output.1) }
                let ids = text.matches(of: /RuleID\(declaring: "([^"]+)"\)/).map { String($0.output.1) }
                guard !structs.isEmpty || !ids.isEmpty else { continue }  // the folder's protocol and its facts
                #expect(structs.count == 1 && ids.count == 1, "\(folder)/\(file) declares \(structs) and ids \(ids): one rule per file")
                #expect(structs.first.map { "\($0).swift" } == file, "\(folder)/\(file) is named after its rule")
                if let name = structs.first, let id = ids.first { declared[name] = id }
            }
        }
        let listed = RuleBook.rules.map { (String(describing: type(of: $0)), type(of: $0).id.rawValue) }
        #expect(Dictionary(uniqueKeysWithValues: listed) == declared)
        #expect(listed.count == declared.count)
    }

    @Test func validatePublishAndVerifyRunTheirRulesInRuleBookOrderAndPayloadLintEachOnce() {
        #expect(Validator.rules.map { type(of: $0).id } == RuleID.rules(of: .pack))
        #expect(PublicationCandidate.rules.map { type(of: $0).id } == RuleID.rules(of: .publication))
        let linted = [PayloadTooLarge.id, PayloadInvalid.id] + PushPayload.rules.map { type(of: $0).id }
        #expect(Set(linted) == Set(RuleID.rules(of: .payload)) && Set(linted).count == linted.count)
    }

    @Test func aRulesSeverityAndSummaryComeFromItsDeclaration() {
        for rule in RuleBook.rules {
            let type = type(of: rule)
            #expect(type.id.summary == type.summary && type.id.defaultSeverity == type.severity && type.id.scope == type.scope)
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

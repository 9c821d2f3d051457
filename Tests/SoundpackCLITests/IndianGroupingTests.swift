// maxAmount is grouped as the pack's grammar groups every other amount: en-IN and hi-IN write
// 10,00,000 in pack.json and on the command line, as they do in say, render and payloads.

import Foundation
import Testing
import SoundpackTestSupport

@Suite struct IndianGroupingTests {
    @Test(arguments: [("en-IN", "1,00,000", "100000"), ("hi-IN", "10,00,000.50", "1000000.50")])
    func initTakesTheGrammarsGrouping(grammar: String, given: String, written: String) throws {
        let folder = TemporaryFolder()
        let made = try Executable.run(["init", "p", "--id", "p", "--grammar", grammar, "--max-amount", given], in: folder.path)
        #expect(made.status == 0, "\(made.stderr)")
        let pack = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("p/pack.json")))) as? [String: Any]
        #expect(pack?["maxAmount"] as? String == written)
    }

    @Test func packJSONTakesTheGrammarsGroupingAndOnlyIts() throws {
        let folder = TemporaryFolder()
        let hindi = try Fixtures.copyDemoPack(into: folder, as: "hi", from: Fixtures.repositoryRoot + "/packs/hi-in")
        try Fixtures.editManifest(hindi) { $0["maxAmount"] = "10,00,000" }
        let said = try Executable.run(["say", "10,00,000", "--pack", "hi", "--format", "tokens"], in: folder.path)
        #expect(said.status == 0, "a pack.json maxAmount in lakh grouping is read: \(said.stderr)")
        #expect(try Executable.run(["say", "10,00,001", "--pack", "hi"], in: folder.path).status == 1, "and it is the limit")

        let chinese = try Fixtures.copyDemoPack(into: folder)
        try Fixtures.editManifest(chinese) { $0["maxAmount"] = "10,00,000" }
        let refused = try Executable.run(["validate", "wechat", "--no-record"], in: folder.path)
        #expect(refused.status == 1 && refused.stdout.contains("[manifest.invalid] field 'maxAmount'"), "zh groups by thousands: \(refused.stdout)")
        #expect(try Executable.run(["init", "z", "--id", "z", "--max-amount", "1,00,000"], in: folder.path).status == 2)
    }
}

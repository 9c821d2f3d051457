// en-US, en-IN and hi-IN (DESIGN §4b) through the tool: say, init, validate of the demo packs,
// publish and its manifest, export and the phone's plan, render, and the payload's alert.

import Foundation
import Testing
import SoundpackCore
import SoundpackTestSupport

@Suite struct LocaleGrammarsEndToEndTests {
    @Test func saysTheContractsExamples() throws {
        let root = Fixtures.repositoryRoot
        func say(_ arguments: [String]) throws -> ExecutionResult { try Executable.run(["say"] + arguments, in: root) }
        #expect(try say(["--grammar", "en-US", "15.40", "1.01", "0.05"]).stdout == "fifteen dollars and forty cents\none dollar and one cent\nfive cents\n")
        #expect(try say(["--grammar", "en-IN", "12345678"]).stdout == "rupees one crore twenty-three lakh forty-five thousand six hundred seventy-eight\n")
        #expect(try say(["--grammar", "hi-IN", "21"]).stdout == "इक्कीस रुपये\n")
        #expect(try say(["--grammar", "en-IN", "12,34,567.89"]).status == 0)
        let western = try say(["--grammar", "en-US", "12,34,567.89"])
        #expect(western.status == 1 && western.stderr.contains("groups of 3 digits"), "\(western.stderr)")
        #expect(try say(["--grammar", "en-US", "--format", "tokens", "21.01"]).stdout == "twenty one units and one subunit\n")
        let option = try say(["--grammar", "en-US", "--two", "liang", "2"])
        #expect(option.status == 2 && option.stderr.contains("takes none"), "\(option.stderr)")
        #expect(try say(["--pack", "packs/en-us", "15.40"]).stdout == "Payment received fifteen dollars and forty cents\n")
        #expect(try say(["--pack", "packs/hi-in", "--format", "files", "21"]).stdout == "clips/prefix.caf clips/21.caf clips/units.caf\n")
    }

    @Test func theDemoPacksValidate() throws {
        let result = try Executable.run(["validate", "packs/en-us", "packs/hi-in", "--no-record"], in: Fixtures.repositoryRoot)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func initListsTheGrammarsClipsAndNoOptions() throws {
        let folder = TemporaryFolder()
        let made = try Executable.run(["init", "shop", "--id", "shop", "--grammar", "hi-IN", "--max-amount", "999.99"], in: folder.path)
        #expect(made.status == 0, "\(made.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("shop/pack.json")))) as? [String: Any]
        #expect(object?["grammarOptions"] == nil)
        let clips = object?["clips"] as? [String: String] ?? [:]
        #expect(clips["99"] == "clips/99.caf" && clips["hundred"] == "clips/hundred.caf" && clips["subunits"] == "clips/subunits.caf")
        #expect(clips["thousand"] == nil, "999.99 needs no हज़ार")
        #expect(try Executable.run(["init", "x", "--id", "x", "--grammar", "en-US", "--money", "jiao-fen"], in: folder.path).status == 2)
        // A pack.json giving an en grammar zh options is refused.
        try Fixtures.editManifest(folder.file("shop")) { $0["grammarOptions"] = ["two": "er"] }
        let refused = try Executable.run(["validate", "shop", "--no-record"], in: folder.path)
        #expect(refused.status == 1 && refused.stdout.contains("[manifest.invalid]") && refused.stdout.contains("takes no reading options"), "\(refused.stdout)")
    }

    /// Published, exported and planned on the phone as `say` reads it; rendered; announced in an alert.
    @Test func anEnglishPackPublishesExportsAndPlans() throws {
        let folder = TemporaryFolder()
        try Fixtures.copyDemoPack(into: folder, as: "packs/en-us", from: Fixtures.repositoryRoot + "/packs/en-us")
        let publish = try Executable.run(["publish"], in: folder.path)
        #expect(publish.status == 0, "\(publish.stdout)\(publish.stderr)")
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("dist/en-us/1.0.0/manifest.json")))) as? [String: Any]
        #expect(manifest?["grammar"] as? String == "en-US" && manifest?["two"] == nil)
        let export = try Executable.run(["export", "en-us", "--format", "json", "--base-url", "https://cdn.example.com/voice"], in: folder.path)
        #expect(export.status == 0, "\(export.stderr)")
        let planner = try ClipPlanner(manifest: try SharedManifest(data: Data(export.stdout.utf8)), packID: "en-us")
        let plan = try planner.plan(amount: "21.01")
        let files = try Executable.run(["say", "--pack", "packs/en-us", "--format", "files", "21.01"], in: folder.path).stdout
        #expect(plan.clips.map { "clips/\($0.file)" }.joined(separator: " ") + "\n" == files)
        let render = try Executable.run(["render", "--pack", "packs/en-us", "21.01", "-o", "a.wav"], in: folder.path)
        #expect(render.status == 0 && render.stdout.contains("as Payment received twenty-one dollars and one cent"), "\(render.stdout)\(render.stderr)")
        let payload = try Executable.run(["payload", "15.40", "--pack", "en-us"], in: folder.path)
        let body = ((try JSONSerialization.jsonObject(with: Data(payload.stdout.utf8)) as? [String: Any])?["aps"] as? [String: Any])
            .flatMap { ($0["alert"] as? [String: Any])?["body"] as? String }
        #expect(body == "Payment received $15.40", "\(payload.stdout)\(payload.stderr)")
    }
}

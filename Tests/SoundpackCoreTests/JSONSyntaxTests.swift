// pack.json syntax errors are placed where an editor jumps (line and column, as compilers print
// them), and a mistyped field names the one that was meant.

import Foundation
import Testing
@testable import SoundpackCore

@Suite struct JSONSyntaxTests {
    @Test(arguments: [
        ("{\n \"id\": \"x\",\n \"name\": \"y\"\n \"version\": \"1.0.0\"\n}\n", 4, 2, "expected ',' or '}' after a value, found '\"' (a comma missing?)"),
        ("{\n \"id\": \"x\",\n \"name\": \"y,\n}\n", 3, 10, "the string opened here is not closed on its line"),
        ("", 1, 1, "the file is empty; it must hold a JSON object"),
        ("  \n ", 2, 2, "the file holds only white space; it must hold a JSON object"),
        ("[1,2", 1, 5, "the file ends inside the array opened at line 1, column 1: it is never closed"),
        ("{\"a\": [1,\n 2,]}", 2, 3, "a trailing comma before ']'; JSON allows none: remove it"),
        ("{\"a\": 1,}", 1, 8, "a trailing comma before '}'; JSON allows none: remove it"),
        ("{'id': 1}", 1, 2, "expected a key in double quotes, found '''"),
        ("{\"id\" 1}", 1, 7, "expected ':' after the key, found '1'"),
        ("{\"id\": 01}", 1, 8, "not a JSON number (digits, an optional fraction and exponent, no leading zeros or '+')"),
        ("{\"id\": tru}", 1, 8, "expected a value (a string in double quotes, a number, an object, an array, true, false or null), found 't'"),
        ("{\"a\": \"\\q\"}", 1, 7, "the string opened here has the escape '\\q', which JSON does not have (write '\\\\' for a backslash)"),
        ("{\"a\": \"\\u12\"}", 1, 7, "the string opened here has a \\u escape without four hex digits"),
        ("{\"a\": 1} x", 1, 10, "'x' after the end of the JSON value; remove it"),
        ("{\"名前\": \"微信\" \"b\": 1}", 1, 13, "expected ',' or '}' after a value, found '\"' (a comma missing?)"),
        ("{\"😀\": 1 2}", 1, 10, "expected ',' or '}' after a value, found '2'"),
        ("\u{FEFF}{\"a\": 1\n \"b\": 2}", 2, 2, "expected ',' or '}' after a value, found '\"' (a comma missing?)"),
        ("[1,}", 1, 4, "expected a value (a string in double quotes, a number, an object, an array, true, false or null), found '}'"),
    ] as [(String, Int, Int, String)])
    func anErrorIsPlacedByLineAndColumn(text: String, line: Int, column: Int, message: String) {
        let error = JSONSyntax.firstError(in: Array(text.utf8))
        #expect(error == JSONSyntaxError(line: line, column: column, message: message), "\(text.debugDescription)")
    }

    @Test func validJSONHasNoError() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var checked = 0
        for folder in ["schemas", "packs/wechat", "packs/merchant", "packs/en-us"] {
            let url = root.appendingPathComponent(folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] where name.hasSuffix(".json") {
                let bytes = Array(try Data(contentsOf: url.appendingPathComponent(name)))
                #expect(JSONSyntax.firstError(in: bytes) == nil, "\(folder)/\(name)")
                checked += 1
            }
        }
        #expect(checked > 5)
        for text in ["0", "-0.5e+3", "\"\\u00e9\\n\"", "[]", "{}", " [ {\"a\" : [ true , false , null ] } ] ", "1E9", "[\"\\/\"]"] {
            #expect(JSONSyntax.firstError(in: Array(text.utf8)) == nil, "\(text)")
            #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil, "Foundation agrees: \(text)")
        }
    }

    @Test func packJSONSyntaxErrorsCarryTheirPlace() {
        #expect(throws: PackFileError(field: nil, message: "not valid JSON at line 4, column 2: expected ',' or '}' after a value, found '\"' (a comma missing?)", line: 4, column: 2)) {
            try PackFile(json: Data("{\n \"id\": \"x\",\n \"name\": \"y\"\n \"version\": \"1.0.0\"\n}\n".utf8))
        }
        #expect(throws: PackFileError(field: nil, message: "not valid JSON at line 1, column 1: the file is empty; it must hold a JSON object", line: 1, column: 1)) {
            try PackFile(json: Data())
        }
    }

    @Test(arguments: [("maxAmout", "maxAmount"), ("grammer", "grammar"), ("clip", "clips"), ("text", "texts")])
    func aMistypedFieldNamesTheOneMeant(typo: String, meant: String) {
        let json = "{\"id\":\"a\",\"version\":\"1.0.0\",\"grammar\":\"zh-Hans\",\"maxAmount\":\"1\",\"clips\":{},\"\(typo)\":1}"
        do {
            _ = try PackFile(json: Data(json.utf8))
            Issue.record("accepted \(typo)")
        } catch {
            #expect(error.field == typo && error.message.hasPrefix("unknown field; did you mean '\(meant)'? (known: "), "\(error)")
        }
    }

    @Test func mistypedChecksAndOptionsNameTheOneMeant() {
        for (json, meant) in [(#"{"id":"a","version":"1.0.0","grammar":"zh-Hans","maxAmount":"1","clips":{},"checks":{"maxLeadingSilenceMS":50}}"#, "maxLeadingSilenceMs"),
                              (#"{"id":"a","version":"1.0.0","grammar":"zh-Hans","maxAmount":"1","clips":{},"grammarOptions":{"tenstart":"shi"}}"#, "tenStart")] {
            do {
                _ = try PackFile(json: Data(json.utf8))
                Issue.record("accepted \(json)")
            } catch {
                #expect(error.message.contains("did you mean '\(meant)'?"), "\(error)")
            }
        }
    }
}

// Command-line parsing: each command declares its options; anything else is a usage error.

import SoundpackCore
import SoundpackKit

/// A value an option takes from a fixed list, parsed from its raw value (`--format json`), as
/// swift-argument-parser's `ExpressibleByArgument` enums are.
protocol ArgumentChoice: RawRepresentable<String>, CaseIterable, Sendable {}

/// An option a command accepts.
struct OptionSpec: Sendable {
    var names: [String]
    /// Placeholder for the value (`FILE`), nil for a flag.
    var value: String?
    var help: String
    var repeatable = false
    /// The values a choice option accepts, in the order help and completions list them; empty for a free value.
    var choices: [String] = []
    /// The value a choice option has when it is not given.
    var defaultChoice: String?

    static func flag(_ names: String..., help: String) -> OptionSpec { OptionSpec(names: names, value: nil, help: help) }
    static func option(_ names: String..., value: String, help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(names: names, value: value, help: help, repeatable: repeatable)
    }

    /// An option whose value is one of `choices` (by default every case), `fallback` when it is not given
    /// (nil: absent); `help` says what it chooses, and the list of values is added to it.
    static func choice<Value: ArgumentChoice>(_ names: String..., value: String, _ choices: [Value] = Array(Value.allCases),
                                              default fallback: Value?, help: String = "", repeatable: Bool = false) -> OptionSpec {
        let raw = choices.map(\.rawValue)
        let listed = raw.map { $0 == fallback?.rawValue ? "\($0) (default)" : $0 }
        let list = listed.count > 1 ? listed.dropLast().joined(separator: ", ") + " or " + listed[listed.count - 1] : listed.joined()
        // A long list (every rule id) is left to completions and the parse error.
        let shown = raw.count > 8 ? help : (help.isEmpty ? list : "\(help): \(list)")
        return OptionSpec(names: names, value: value, help: shown, repeatable: repeatable,
                          choices: raw, defaultChoice: fallback?.rawValue)
    }
}

/// `--format` of the commands that print either text or JSON.
enum OutputFormat: String, ArgumentChoice { case text, json }

extension ColourChoice: ArgumentChoice {}
extension GrammarID: ArgumentChoice {}
extension TwoStyle: ArgumentChoice {}
extension MoneyStyle: ArgumentChoice {}
extension TenStart: ArgumentChoice {}
extension SharedManifest.Encoding: ArgumentChoice {}
extension AnnouncementWriter.Format: ArgumentChoice {}
extension AudioFileWriter.Encoding: ArgumentChoice {}
extension Container: ArgumentChoice {}
extension RuleID: ArgumentChoice {}

/// A command's name, synopsis, description and options; enough to parse and to print `--help`.
struct CommandSpec: Sendable {
    var name: String
    var synopsis: String
    var summary: String
    var discussion: String = ""
    var options: [OptionSpec]

    static let globalOptions: [OptionSpec] = [
        .option("--catalog", value: "FILE|URL", help: "catalog: a SQLite file or a postgresql:// URL (env SOUNDPACK_CATALOG; default .soundpack/catalog.sqlite in the project root)"),
        .option("--store", value: "DIR|s3://BUCKET/PREFIX", help: "store: a folder or S3-compatible object storage (env SOUNDPACK_STORE; default dist/ in the project root)"),
        .option("--s3-endpoint", value: "URL", help: "S3 endpoint for an s3:// store (env AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL; credentials from AWS_*)"),
        .choice("--color", value: "WHEN", default: ColourChoice.auto,
                help: "colour (auto: on a terminal, unless NO_COLOR is set or TERM is dumb)"),
        .flag("-h", "--help", help: "show this help"),
    ]

    var help: String {
        var text = "USAGE: soundpack \(synopsis)\n\n\(summary)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        text += "\nOPTIONS:\n"
        for option in options + Self.globalOptions {
            var left = option.names.joined(separator: ", ")
            if let value = option.value { left += " \(value)" }
            let pad = left.count < 28 ? String(repeating: " ", count: 28 - left.count) : "\n" + String(repeating: " ", count: 30)
            text += "  \(left)\(pad)\(option.help)\n"
        }
        return text
    }

    /// Parses `arguments` (after the command name).
    func parse(_ arguments: [String]) throws(SoundpackError) -> ParsedArguments {
        let all = options + Self.globalOptions
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") || Self.looksNumeric(argument) && !all.contains(where: { $0.names.contains(argument) }) {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let spec = all.first(where: { $0.names.contains(name) }) else {
                let hint = Suggestions.nearest(name, among: all.flatMap(\.names).filter { $0.hasPrefix("--") }).map { "did you mean '\($0)'?" }
                throw .usage("unknown option '\(name)' for '\(self.name)'", hint: hint ?? "see soundpack \(self.name) --help")
            }
            let key = spec.names.last ?? name
            if spec.value == nil {
                guard inline == nil else { throw .usage("option '\(name)' takes no value") }
                parsed.flags.insert(key)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard index < arguments.count else { throw .usage("option '\(name)' needs a value (\(spec.value ?? ""))") }
                value = arguments[index]
                index += 1
            }
            if !spec.repeatable && parsed.options[key] != nil {
                throw .usage("option '\(name)' given more than once")
            }
            if !spec.choices.isEmpty && !spec.choices.contains(value) {
                let hint = Suggestions.nearest(value, among: spec.choices).map { "did you mean '\($0)'? " } ?? ""
                throw .usage("'\(value.visible)' is not a valid \(key)", hint: "\(hint)use one of: \(spec.choices.joined(separator: ", "))")
            }
            parsed.options[key, default: []].append(value)
        }
        for spec in all { if let fallback = spec.defaultChoice, let key = spec.names.last { parsed.defaults[key] = fallback } }
        return parsed
    }

    /// `-1` and `-0.5` are amounts (to be refused as negative), not options.
    private static func looksNumeric(_ argument: String) -> Bool {
        argument.count > 1 && argument.dropFirst().first.map { $0.isNumber || $0 == "." } == true
    }
}

/// The result of parsing: positionals in order, options by their long name.
struct ParsedArguments: Sendable {
    var positionals: [String] = []
    var options: [String: [String]] = [:]
    var flags: Set<String> = []
    /// The default of every choice option the command declares, by long name.
    var defaults: [String: String] = [:]

    func value(_ name: String) -> String? { options[name]?.last }
    func values(_ name: String) -> [String] { options[name] ?? [] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// Every value of a repeatable choice option, in the order given, already checked by `parse`.
    func choices<Value: ArgumentChoice>(_ name: String, as type: Value.Type = Value.self) -> [Value] {
        values(name).compactMap(Value.init(rawValue:))
    }

    /// The value of a choice option (`OptionSpec.choice`), given or default, already checked by `parse`.
    func choice<Value: ArgumentChoice>(_ name: String, as type: Value.Type = Value.self) throws(SoundpackError) -> Value {
        guard let raw = value(name) ?? defaults[name], let chosen = Value(rawValue: raw) else {
            throw .usage("'\((value(name) ?? "").visible)' is not a valid \(name)",
                         hint: "use one of: \(Value.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return chosen
    }
}

/// The reading options of DESIGN §4a as flags (`say --grammar`, `init`): one spec and one parse.
/// What `init` and `synth` both take to start a pack: DIR, `--id`, `--grammar` with its options,
/// and `--max-amount`.
struct NewPackArguments {
    var directory: String
    var id: String
    var grammar: Grammar
    var maximum: Amount

    static let specs: [OptionSpec] = [
        .option("--id", value: "ID", help: "pack id: 1-63 of a-z 0-9 -"),
        .choice("--grammar", value: "G", default: GrammarID.zhHans),
    ] + GrammarOptionFlags.specs + [
        .option("--max-amount", value: "AMOUNT", help: "largest amount the pack must say (default 99999999.99)"),
    ]

    init(_ arguments: ParsedArguments, command: String, example: String) throws(SoundpackError) {
        guard arguments.positionals.count == 1, let directory = arguments.positionals.first else {
            throw .usage("\(command) needs one folder", hint: example)
        }
        guard let id = arguments.value("--id") else { throw .usage("\(command) needs --id ID") }
        guard PackFile.isValidID(id) else {
            throw .usage("'\(id)' is not a pack id", hint: "use 1-63 of a-z, 0-9 and '-', starting with a letter or digit")
        }
        let grammarID: GrammarID = try arguments.choice("--grammar")
        let options = try GrammarOptionFlags.parse(arguments, for: grammarID)
        // Grouped as the grammar groups amounts everywhere else: 1,00,000 for en-IN and hi-IN.
        do { maximum = try Amount(parsing: arguments.value("--max-amount") ?? "99999999.99", grouping: Grammar(grammarID, options: options).grouping) } catch {
            throw .usage("--max-amount: \(error.description)")
        }
        (self.directory, self.id, self.grammar) = (directory, id, Grammar(grammarID, options: options))
    }
}

/// Options whose values are `KEY=VALUE` pairs: `--phrase-text ID=TEXT` (init, synth) and
/// `init --map TOKEN=NAME`. One spec and one parse for each.
enum PairArguments {
    static let phraseText = OptionSpec.option("--phrase-text", value: "ID=TEXT", help: "the words of a phrase, {amount} where the amount goes", repeatable: true)

    /// `--phrase-text` values in the order given, split at the first `=`.
    static func phraseTexts(_ arguments: ParsedArguments) throws(SoundpackError) -> [(id: String, text: String)] {
        try pairs(arguments, "--phrase-text", form: "ID=TEXT", example: "--phrase-text wechat='微信到账{amount}'").map { (id: $0.key, text: $0.value) }
    }

    /// Every value of `option`, split at its first `=`; a value without one is not `form`: a usage error.
    static func pairs(_ arguments: ParsedArguments, _ option: String, form: String, example: String) throws(SoundpackError) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        for given in arguments.values(option) {
            guard let equals = given.firstIndex(of: "=") else {
                throw .usage("\(option) '\(given.quoted(limit: 60))' is not \(form)", hint: "e.g. \(example)")
            }
            pairs.append((String(given[..<equals]), String(given[given.index(after: equals)...])))
        }
        return pairs
    }
}

enum GrammarOptionFlags {
    static let names = ["--two", "--money", "--ten-start"]

    static let specs: [OptionSpec] = [
        .choice("--two", value: "STYLE", default: TwoStyle.default, help: "how 2 is said"),
        .choice("--money", value: "STYLE", default: MoneyStyle.default, help: "how the currency and fraction are said"),
        .choice("--ten-start", value: "STYLE", default: TenStart.default, help: "10 as 十 or 一十"),
    ]

    /// The options the arguments choose for `grammar` (the defaults for those not given); refused
    /// for a grammar that takes none.
    static func parse(_ arguments: ParsedArguments, for grammar: GrammarID) throws(SoundpackError) -> GrammarOptions {
        if !grammar.hasOptions, let flag = names.first(where: { arguments.value($0) != nil }) {
            throw .usage("\(flag) is a zh reading option; grammar \(grammar.rawValue) takes none", hint: "leave \(flag) out, or use --grammar zh-Hans")
        }
        return GrammarOptions(two: try arguments.choice("--two"), money: try arguments.choice("--money"), tenStart: try arguments.choice("--ten-start"))
    }

    /// Whether any of the flags is given.
    static func anyGiven(_ arguments: ParsedArguments) -> Bool { names.contains { arguments.value($0) != nil } }
}

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

    /// The name the parser files its values under: the long one.
    var key: String { names.last ?? "" }

    /// An option whose value is one of `choices`, `fallback` when it is not given (nil: absent);
    /// `help` says what it chooses, and the list of values is added to it.
    static func choice<Value: ArgumentChoice>(_ names: [String], value: String, _ choices: [Value],
                                              default fallback: Value?, help: String = "", repeatable: Bool = false) -> OptionSpec {
        let raw = choices.map(\.rawValue)
        let listed = raw.map { $0 == fallback?.rawValue ? "\($0) (default)" : $0 }
        let list = listed.count > 1 ? listed.dropLast().joined(separator: ", ") + " or " + listed[listed.count - 1] : listed.joined()
        // A long list (every rule id) is left to completions and the parse error.
        let shown = raw.count > 8 ? help : (help.isEmpty ? list : "\(help): \(list)")
        return OptionSpec(names: names, value: value, help: shown, repeatable: repeatable, choices: raw)
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

    static let globalOptions: [OptionSpec] = GlobalOptions.specs

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
            let key = spec.key
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
        return parsed
    }

    /// `-1` and `-0.5` are amounts (to be refused as negative), not options.
    private static func looksNumeric(_ argument: String) -> Bool {
        argument.count > 1 && argument.dropFirst().first.map { $0.isNumber || $0 == "." } == true
    }
}

/// What the command line said, before any value is converted: the positionals in order and each
/// option's values by its long name. Only the generic decoder reads it.
struct ParsedArguments: Sendable {
    var positionals: [String] = []
    var options: [String: [String]] = [:]
    var flags: Set<String> = []
}

/// A command's options as a typed value, decoded from the command line by `decode(_:command:)`
/// (the way swift-argument-parser's `ParsableArguments` are): each declaration says which flag
/// sets which property; help, the man page and completions are generated from the same list.
protocol ParsableArguments: Sendable {
    /// The options with their defaults (nothing given).
    init()
    /// What each option and positional sets, in the order `--help` lists them.
    static var declarations: [Declaration<Self>] { get }
}

extension ParsableArguments {
    /// The options as `--help`, completions and the man page list them.
    static var specs: [OptionSpec] { declarations.compactMap(\.spec) }

    /// The options a command line gives: every value converted to its property's type (the first
    /// value that does not convert is a usage error naming its option), the positionals into the
    /// declared slots in order; a positional no slot takes is a usage error.
    /// `command` nil: the positionals are another declaration's (the global options).
    static func decode(_ parsed: ParsedArguments, command: String?) throws(SoundpackError) -> Self {
        var options = Self()
        var positionals = parsed.positionals[...]
        for declaration in declarations {
            switch declaration.takes {
            case .option(let key):
                for value in parsed.options[key] ?? [] { try declaration.assign(&options, value) }
            case .flag(let key):
                if parsed.flags.contains(key) { try declaration.assign(&options, "") }
            case .positional:
                if let value = positionals.popFirst() { try declaration.assign(&options, value) }
            case .positionals:
                while let value = positionals.popFirst() { try declaration.assign(&options, value) }
            }
        }
        if let command, let surplus = positionals.first {
            let slots = declarations.filter { if case .positional = $0.takes { true } else { false } }.count
            let takes = slots == 0 ? "takes no arguments" : slots == 1 ? "takes one argument" : "takes \(slots) arguments"
            throw .usage("\(command) \(takes); '\(surplus.visible)' is one too many", hint: "see soundpack \(command) --help")
        }
        return options
    }
}

/// A value an option or positional converts its string to. A conversion that fails is a usage error
/// the option's declaration phrases.
protocol ArgumentValue: Sendable {
    /// The value `argument` stands for; nil when it stands for none.
    init?(argument: String)
}

extension String: ArgumentValue {
    init?(argument: String) { self = argument }
}

extension Int: ArgumentValue {
    init?(argument: String) { self.init(argument) }
}

extension Double: ArgumentValue {
    init?(argument: String) { self.init(argument) }
}

/// The conversion of a whole-number option whose refusal `message` phrases.
enum WholeNumber {
    static func converting(_ message: String) -> @Sendable (String) throws(SoundpackError) -> Int {
        { text throws(SoundpackError) in
            guard let value = Int(text) else { throw .usage(message) }
            return value
        }
    }
}

extension Amount: ArgumentValue {
    init?(argument: String) { try? self.init(parsing: argument) }
}

extension ArgumentChoice {
    init?(argument: String) { self.init(rawValue: argument) }
}

/// What a declaration takes from the command line: an option's values or a flag (by long name),
/// the next positional, or every positional left.
enum ArgumentSlot: Sendable {
    case option(String), flag(String), positional, positionals
}

extension Array {
    /// The declarations of a group of options that `path` holds (`.group(\.reading)`), in an
    /// array of declarations.
    static func group<Options, Group: ParsableArguments>(_ path: WritableKeyPath<Options, Group> & Sendable) -> Self where Element == Declaration<Options> {
        Declaration<Options>.group(path)
    }
}

/// One option, flag or positional slot of `Options`: its spec (nil for a positional) and how its
/// string sets the property.
struct Declaration<Options: ParsableArguments>: Sendable {
    var spec: OptionSpec?
    var takes: ArgumentSlot
    var assign: @Sendable (inout Options, String) throws(SoundpackError) -> Void

    /// A flag that sets `path` to true.
    static func flag(_ names: String..., to path: WritableKeyPath<Options, Bool> & Sendable, help: String) -> Self {
        let spec = OptionSpec(names: names, value: nil, help: help)
        return Self(spec: spec, takes: .flag(spec.key)) { options, _ in options[keyPath: path] = true }
    }

    /// An option with a value converted by `convert` (the type's own conversion by default; a
    /// value it refuses is a usage error naming the option and the placeholder).
    static func option<Value: ArgumentValue>(
        _ names: String..., to path: WritableKeyPath<Options, Value?> & Sendable, value: String, help: String,
        convert: (@Sendable (String) throws(SoundpackError) -> Value)? = nil
    ) -> Self {
        let spec = OptionSpec(names: names, value: value, help: help)
        let convert = convert ?? Self.converting(spec)
        return Self(spec: spec, takes: .option(spec.key)) { options, text throws(SoundpackError) in options[keyPath: path] = try convert(text) }
    }

    /// An option with a value that replaces the property's default (`Options()`'s).
    static func option<Value: ArgumentValue>(
        _ names: String..., to path: WritableKeyPath<Options, Value> & Sendable, value: String, help: String,
        convert: (@Sendable (String) throws(SoundpackError) -> Value)? = nil
    ) -> Self {
        let spec = OptionSpec(names: names, value: value, help: help)
        let convert = convert ?? Self.converting(spec)
        return Self(spec: spec, takes: .option(spec.key)) { options, text throws(SoundpackError) in options[keyPath: path] = try convert(text) }
    }

    /// A repeatable option: every value, in the order given.
    static func option<Value: ArgumentValue>(
        _ names: String..., to path: WritableKeyPath<Options, [Value]> & Sendable, value: String, help: String,
        convert: (@Sendable (String) throws(SoundpackError) -> Value)? = nil
    ) -> Self {
        let spec = OptionSpec(names: names, value: value, help: help, repeatable: true)
        let convert = convert ?? Self.converting(spec)
        return Self(spec: spec, takes: .option(spec.key)) { options, text throws(SoundpackError) in options[keyPath: path].append(try convert(text)) }
    }

    /// An option whose value is one of `choices` (every case by default); its default is the
    /// property's value in `Options()`, and `--help` lists the choices with it.
    static func choice<Value: ArgumentChoice>(
        _ names: String..., to path: WritableKeyPath<Options, Value> & Sendable, value: String, _ choices: [Value] = Array(Value.allCases), help: String = ""
    ) -> Self {
        let spec = OptionSpec.choice(names, value: value, choices, default: Options()[keyPath: path], help: help)
        return Self(spec: spec, takes: .option(spec.key)) { options, text in if let chosen = Value(rawValue: text) { options[keyPath: path] = chosen } }
    }

    /// A choice that is nil when not given; `shown` is the default `--help` names (what the command
    /// uses when it is absent), if any.
    static func choice<Value: ArgumentChoice>(
        _ names: String..., to path: WritableKeyPath<Options, Value?> & Sendable, value: String, _ choices: [Value] = Array(Value.allCases),
        shown: Value? = nil, help: String = ""
    ) -> Self {
        let spec = OptionSpec.choice(names, value: value, choices, default: shown, help: help)
        return Self(spec: spec, takes: .option(spec.key)) { options, text in options[keyPath: path] = Value(rawValue: text) }
    }

    /// A repeatable choice: every value, in the order given.
    static func choices<Value: ArgumentChoice>(
        _ names: String..., to path: WritableKeyPath<Options, [Value]> & Sendable, value: String, _ choices: [Value] = Array(Value.allCases), help: String
    ) -> Self {
        let spec = OptionSpec.choice(names, value: value, choices, default: nil, help: help, repeatable: true)
        return Self(spec: spec, takes: .option(spec.key)) { options, text in if let chosen = Value(rawValue: text) { options[keyPath: path].append(chosen) } }
    }

    /// The next positional, if there is one.
    static func argument<Value: ArgumentValue>(to path: WritableKeyPath<Options, Value?> & Sendable, convert: (@Sendable (String) throws(SoundpackError) -> Value)? = nil) -> Self {
        Self(spec: nil, takes: .positional) { options, text throws(SoundpackError) in
            guard let convert else {
                guard let value = Value(argument: text) else { throw .usage("'\(text.visible)' is not a valid argument") }
                options[keyPath: path] = value
                return
            }
            options[keyPath: path] = try convert(text)
        }
    }

    /// Every positional left, in order.
    static func arguments(to path: WritableKeyPath<Options, [String]> & Sendable) -> Self {
        Self(spec: nil, takes: .positionals) { options, text in options[keyPath: path].append(text) }
    }

    /// The declarations of a group of options (`ReadingFlags`) that `path` holds, for commands that share them.
    static func group<Group: ParsableArguments>(_ path: WritableKeyPath<Options, Group> & Sendable) -> [Self] {
        Group.declarations.map { inner in
            Self(spec: inner.spec, takes: inner.takes) { options, text throws(SoundpackError) in try inner.assign(&options[keyPath: path], text) }
        }
    }

    private static func converting<Value: ArgumentValue>(_ spec: OptionSpec) -> @Sendable (String) throws(SoundpackError) -> Value {
        { text throws(SoundpackError) in
            guard let value = Value(argument: text) else { throw .usage("\(spec.key) '\(text.visible)' is not a valid \(spec.value ?? "value")") }
            return value
        }
    }
}

/// The options every command takes: where the catalog and store are, and how to print.
struct GlobalOptions: ParsableArguments {
    var catalog: String?
    var store: String?
    var s3Endpoint: String?
    var colour = ColourChoice.auto
    var help = false

    static let declarations: [Declaration<Self>] = [
        .option("--catalog", to: \.catalog, value: "FILE|URL", help: "catalog: a SQLite file or a postgresql:// URL (env SOUNDPACK_CATALOG; default .soundpack/catalog.sqlite in the project root)"),
        .option("--store", to: \.store, value: "DIR|s3://BUCKET/PREFIX", help: "store: a folder or S3-compatible object storage (env SOUNDPACK_STORE; default dist/ in the project root)"),
        .option("--s3-endpoint", to: \.s3Endpoint, value: "URL", help: "S3 endpoint for an s3:// store (env AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL; credentials from AWS_*)"),
        .choice("--color", to: \.colour, value: "WHEN", help: "colour (auto: on a terminal, unless NO_COLOR is set or TERM is dumb)"),
        .flag("-h", "--help", to: \.help, help: "show this help"),
    ]
}

/// The reading options of DESIGN §4a as flags (`say --grammar`, `init`, `synth`), nil when not
/// given: one declaration and one resolution for the three commands.
struct ReadingFlags: ParsableArguments {
    var two: TwoStyle?
    var money: MoneyStyle?
    var tenStart: TenStart?

    static let declarations: [Declaration<Self>] = [
        .choice("--two", to: \.two, value: "STYLE", shown: TwoStyle.default, help: "how 2 is said"),
        .choice("--money", to: \.money, value: "STYLE", shown: MoneyStyle.default, help: "how the currency and fraction are said"),
        .choice("--ten-start", to: \.tenStart, value: "STYLE", shown: TenStart.default, help: "10 as 十 or 一十"),
    ]

    /// The first of the flags given, in the order help lists them; nil when none is.
    var firstGiven: String? { two != nil ? "--two" : money != nil ? "--money" : tenStart != nil ? "--ten-start" : nil }

    /// The options chosen for `grammar` (the defaults for those not given); refused for a grammar
    /// that takes none.
    func options(for grammar: GrammarID) throws(SoundpackError) -> GrammarOptions {
        if !grammar.hasOptions, let flag = firstGiven {
            throw .usage("\(flag) is a zh reading option; grammar \(grammar.rawValue) takes none", hint: "leave \(flag) out, or use --grammar zh-Hans")
        }
        return GrammarOptions(two: two ?? .default, money: money ?? .default, tenStart: tenStart ?? .default)
    }
}

/// What `init` and `synth` both take to start a pack: DIR, `--id`, `--grammar` with its options,
/// and `--max-amount`.
struct NewPackOptions: ParsableArguments {
    var directory: String?
    var id: String?
    var grammar = GrammarID.zhHans
    var reading = ReadingFlags()
    var maxAmount: String?

    static let declarations: [Declaration<Self>] = [
        .argument(to: \.directory),
        .option("--id", to: \.id, value: "ID", help: "pack id: 1-63 of a-z 0-9 -") { text throws(SoundpackError) in
            guard PackFile.isValidID(text) else {
                throw .usage("'\(text)' is not a pack id", hint: "use 1-63 of a-z, 0-9 and '-', starting with a letter or digit")
            }
            return text
        },
        .choice("--grammar", to: \.grammar, value: "G"),
    ] + .group(\.reading) + [
        .option("--max-amount", to: \.maxAmount, value: "AMOUNT", help: "largest amount the pack must say (default 99999999.99)"),
    ]

    /// The new pack's folder, id, grammar and largest amount; `command` and `example` phrase what is missing.
    func resolved(command: String, example: String) throws(SoundpackError) -> NewPack {
        guard let directory else { throw .usage("\(command) needs one folder", hint: example) }
        guard let id else { throw .usage("\(command) needs --id ID") }
        let grammar = Grammar(self.grammar, options: try reading.options(for: self.grammar))
        // Grouped as the grammar groups amounts everywhere else: 1,00,000 for en-IN and hi-IN.
        let maximum: Amount
        do { maximum = try Amount(parsing: maxAmount ?? "99999999.99", grouping: grammar.grouping) } catch {
            throw .usage("--max-amount: \(error.description)")
        }
        return NewPack(directory: directory, id: id, grammar: grammar, maximum: maximum)
    }
}

/// A new pack's folder, id, grammar and largest amount, as `init` and `synth` are given them.
struct NewPack {
    var directory: String
    var id: String
    var grammar: Grammar
    var maximum: Amount
}

/// A `KEY=VALUE` option value (`--phrase-text ID=TEXT`, `init --map TOKEN=NAME`), split at its first `=`.
struct KeyValuePair: Sendable, Equatable {
    var key: String
    var value: String

    /// The conversion of `option`'s values: one without `=` is not `form`, a usage error showing `example`.
    static func converting(_ option: String, form: String, example: String) -> @Sendable (String) throws(SoundpackError) -> KeyValuePair {
        { given throws(SoundpackError) in
            guard let equals = given.firstIndex(of: "=") else {
                throw .usage("\(option) '\(given.quoted(limit: 60))' is not \(form)", hint: "e.g. \(example)")
            }
            return KeyValuePair(key: String(given[..<equals]), value: String(given[given.index(after: equals)...]))
        }
    }
}

extension KeyValuePair: ArgumentValue {
    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "=") else { return nil }
        (key, value) = (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}

extension PhraseTexts {
    /// `--phrase-text` values (init, synth) as checked texts, their problems phrased with the flag.
    static func reading(_ given: [KeyValuePair]) throws(SoundpackError) -> PhraseTexts {
        do throws(PhraseTexts.Problem) { return try PhraseTexts(given.map { (id: $0.key, text: $0.value) }) } catch {
            switch error {
            case .givenTwice(let id):
                throw .usage("--phrase-text \(id.quoted(limit: 40))=… is given twice", hint: "give each id once")
            case .sharedClip(let key, let owner, let id):
                throw .usage("--phrase-text \(owner)=… and \(id)=… both need the clip '\(key)'",
                             hint: "the words after {amount} of phrase ID are clip ID-after; rename one of the phrases")
            case .aroundAmountWithPhrases(let id):
                throw .usage("--phrase-text \(id)=… cannot be given with phrases",
                             hint: "prefix and suffix belong to a pack without phrases; write the words into each phrase, like wechat='微信到账{amount}'")
            case .notAPhraseID(let id):
                throw .usage("--phrase-text: '\(id.quoted(limit: 40))' is not a phrase id", hint: "use 1-32 of a-z, 0-9 and '-', starting with a letter or digit")
            case .amountTwice(let id):
                throw .usage("--phrase-text \(id): '{amount}' may appear once")
            case .noWords(let id):
                throw .usage("--phrase-text \(id) has no words", hint: "e.g. \(id)='微信到账{amount}'")
            }
        }
    }
}

extension Declaration {
    /// `--phrase-text ID=TEXT` (init, synth): the words of a phrase, repeatable, in the order given.
    static func phraseTexts(to path: WritableKeyPath<Options, [KeyValuePair]> & Sendable) -> Self {
        .option("--phrase-text", to: path, value: "ID=TEXT", help: "the words of a phrase, {amount} where the amount goes",
                convert: KeyValuePair.converting("--phrase-text", form: "ID=TEXT", example: "--phrase-text wechat='微信到账{amount}'"))
    }
}

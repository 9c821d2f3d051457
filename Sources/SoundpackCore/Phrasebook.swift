// What a pack can announce: its phrases (DESIGN §3 `phrases`). A phrase is clips of the pack's own
// (微信到账, 退款, 您有一笔新订单) around at most one amount. A pack.json without `phrases` has the one
// phrase `default`: prefix, the amount, and the suffix when the pack has one, as packs always read.

/// One announcement a pack can make: its clips before the amount, whether it says one, its clips after.
public struct Phrase: Sendable, Hashable {
    /// The phrase id (`wechat`, `refund`; `default` for a pack that declares none).
    public let id: String
    /// The clips said before the amount; every clip of a phrase that says no amount.
    public let before: [Token]
    /// Whether the phrase says an amount (`{amount}` among its pieces).
    public let saysAmount: Bool
    /// The clips said after the amount.
    public let after: [Token]

    public init(id: String, before: [Token], saysAmount: Bool, after: [Token]) {
        self.id = id
        self.before = before
        self.saysAmount = saysAmount
        self.after = saysAmount ? after : []
    }

    /// The pieces as pack.json writes them: clip keys, and `{amount}` where the amount is said.
    public var pieces: [String] {
        before.map(\.rawValue) + (saysAmount ? [Phrasebook.amountPiece] : []) + after.map(\.rawValue)
    }

    /// The phrase's own clips, in the order it says them.
    public var clips: [Token] { before + after }
}

/// A pack's phrases, in its grammar: which phrase is said by default, and the tokens every phrase
/// and reading can play.
public struct Phrasebook: Sendable, Hashable {
    /// The piece that stands for the amount's reading.
    public static let amountPiece = "{amount}"
    /// The id of the one phrase of a pack that declares none.
    public static let implicitID = "default"
    /// Bounds on what pack.json may declare: a few phrases of a few clips each.
    public static let maxPhrases = 64
    public static let maxPieces = 16

    public let grammar: Grammar
    /// Every phrase, by id.
    public let phrases: [Phrase]
    /// The phrase said when none is named (`defaultPhrase`).
    public let defaultID: String
    /// Whether pack.json declares `phrases` (false: the one implicit phrase `default`).
    public let isDeclared: Bool
    /// The phrases' clips that are not in the grammar's inventory, ordinals following it.
    public let clips: [Token]

    /// Whether `name` may be a phrase id or a phrase's clip key: `[a-z0-9][a-z0-9-]{0,31}`.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...32).contains(bytes.count) else { return false }
        func ok(_ b: UInt8) -> Bool { (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) }
        return ok(bytes[0]) && bytes.dropFirst().allSatisfy { ok($0) || $0 == 0x2D }
    }

    /// The book of a pack without `phrases`: `default` = prefix, the amount, and the suffix if `hasSuffix`.
    public init(grammar: Grammar, hasSuffix: Bool) {
        self.grammar = grammar
        phrases = [Phrase(id: Self.implicitID, before: [.prefix], saysAmount: true, after: hasSuffix ? [.suffix] : [])]
        defaultID = Self.implicitID
        isDeclared = false
        clips = []
    }

    /// The book pack.json declares. Each piece is `{amount}` (at most once per phrase) or a clip
    /// key of the pack's own, never one of the grammar's tokens; `prefix` and `suffix` may be used.
    /// The error names the field at fault.
    public init(grammar: Grammar, declared: [String: [String]], defaultPhrase: String) throws(PackFileError) {
        guard !declared.isEmpty else {
            throw PackFileError(field: "phrases", message: "declares no phrase; give at least one, or leave phrases out")
        }
        guard declared.count <= Self.maxPhrases else {
            throw PackFileError(field: "phrases", message: "\(declared.count) phrases; a pack has at most \(Self.maxPhrases)")
        }
        let grammarInventory = grammar.inventory
        var ownKeys = Set<String>()
        for (id, pieces) in declared.sorted(by: { $0.key < $1.key }) {
            guard Self.isValidName(id) else {
                throw PackFileError(field: "phrases", message: "'\(id.quoted(limit: 40))' is not a phrase id — use 1-32 of a-z, 0-9 and '-', starting with a letter or digit")
            }
            guard (1...Self.maxPieces).contains(pieces.count) else {
                throw PackFileError(field: "phrases.\(id)", message: pieces.isEmpty ? "says nothing; list its clip keys and \"\(Self.amountPiece)\"" : "has \(pieces.count) pieces; a phrase has at most \(Self.maxPieces)")
            }
            guard pieces.filter({ $0 == Self.amountPiece }).count <= 1 else {
                throw PackFileError(field: "phrases.\(id)", message: "says \"\(Self.amountPiece)\" twice; a phrase says at most one amount")
            }
            for piece in pieces where piece != Self.amountPiece {
                guard Self.isValidName(piece) else {
                    throw PackFileError(field: "phrases.\(id)", message: "'\(piece.quoted(limit: 40))' is neither \"\(Self.amountPiece)\" nor a clip key — use 1-32 of a-z, 0-9 and '-', starting with a letter or digit")
                }
                if let token = grammar.token(forKey: piece), token != .prefix, token != .suffix {
                    throw PackFileError(field: "phrases.\(id)", message: "'\(piece)' is a token of \(grammar.id.rawValue), said by the amount's reading; a phrase's clips are its own words (the amount is \"\(Self.amountPiece)\")")
                }
                if grammar.token(forKey: piece) == nil { ownKeys.insert(piece) }
            }
        }
        guard declared[defaultPhrase] != nil else {
            throw PackFileError(field: "defaultPhrase", message: "'\(defaultPhrase.quoted(limit: 40))' is not one of the phrases (\(declared.keys.sorted().joined(separator: ", ")))")
        }
        var clips: [Token] = []
        var byKey: [String: Token] = [:]
        for key in ownKeys.sorted() {
            // Valid names are 1-32 of [a-z0-9-], which a token holds.
            guard let token = Token(clipKey: key, ordinal: grammarInventory.count + clips.count) else { continue }
            clips.append(token)
            byKey[key] = token
        }
        func token(_ key: String) -> Token { byKey[key] ?? grammar.token(forKey: key) ?? .prefix }
        self.grammar = grammar
        self.phrases = declared.sorted(by: { $0.key < $1.key }).map { id, pieces in
            let split = pieces.firstIndex(of: Self.amountPiece)
            let before = pieces[..<(split ?? pieces.endIndex)].map(token)
            let after = split.map { pieces[($0 + 1)...].map(token) } ?? []
            return Phrase(id: id, before: before, saysAmount: split != nil, after: after)
        }
        defaultID = defaultPhrase
        isDeclared = true
        self.clips = clips
    }

    /// The book a pack's files describe: the `phrases` and `defaultPhrase` they declare, else the
    /// implicit `default` (with the suffix when `hasSuffix`). Throws when the declared phrases are wrong.
    public static func of(grammar: Grammar, declared: [String: [String]]?, defaultPhrase: String?, hasSuffix: Bool) throws(PackFileError) -> Phrasebook {
        guard let declared else { return Phrasebook(grammar: grammar, hasSuffix: hasSuffix) }
        return try Phrasebook(grammar: grammar, declared: declared, defaultPhrase: defaultPhrase ?? "")
    }

    /// As `of`, but the implicit book when the declared phrases do not fit the grammar: for files
    /// whose phrases were checked when they were read (and changed since, by a caller).
    public static func orImplicit(grammar: Grammar, declared: [String: [String]]?, defaultPhrase: String?, hasSuffix: Bool) -> Phrasebook {
        (try? of(grammar: grammar, declared: declared, defaultPhrase: defaultPhrase, hasSuffix: hasSuffix))
            ?? Phrasebook(grammar: grammar, hasSuffix: hasSuffix)
    }

    /// Every token an announcement of this pack can play, by ordinal: the grammar's inventory, then
    /// the phrases' own clips. `inventory[token.ordinal] == token`.
    public var inventory: [Token] { grammar.inventory + clips }

    /// The phrase `id`, or nil when the pack has none of that id.
    public func phrase(_ id: String) -> Phrase? { phrases.first { $0.id == id } }

    /// The phrase said when none is named.
    public var defaultPhrase: Phrase { phrase(defaultID) ?? phrases[0] }

    /// Whether some phrase says an amount (then the grammar's tokens are needed).
    public var saysAmounts: Bool { phrases.contains(where: \.saysAmount) }

    /// The announcement of `phrase`, with this book's inventory.
    public func announcement(_ phrase: Phrase) -> Announcement {
        Announcement(grammar: grammar, phrase: phrase, inventory: inventory)
    }

    /// The announcement of the phrase `id` (the default phrase when nil); nil when there is no such phrase.
    public func announcement(phrase id: String?) -> Announcement? {
        guard let id else { return announcement(defaultPhrase) }
        return phrase(id).map(announcement)
    }

    /// The token whose clip key is `key`: the grammar's, or a phrase's own clip.
    public func token(forKey key: String) -> Token? {
        grammar.token(forKey: key) ?? clips.first { $0.rawValue == key }
    }

    /// The phrases as pack.json writes them.
    public var written: [String: [String]] {
        Dictionary(uniqueKeysWithValues: phrases.map { ($0.id, $0.pieces) })
    }

    /// Every token some phrase plays for some amount in `0...maximum`: the clips a pack needs.
    public func requiredTokens(upTo maximum: Amount) -> Set<Token> {
        var tokens: Set<Token> = saysAmounts ? grammar.reachableTokens(upTo: maximum) : []
        for phrase in phrases { tokens.formUnion(phrase.clips) }
        return tokens
    }

    /// The phrases that play `token` (the clip's users, for messages).
    public func phrases(saying token: Token) -> [Phrase] { phrases.filter { $0.clips.contains(token) } }

    /// The longest announcement of any phrase and any amount in `0...maximum`, with `cost` per token
    /// and `gap` between consecutive tokens. The reading is searched once: a phrase's own clips
    /// cost the same whatever the amount. Ties go to the phrase first by id.
    public func costliest(upTo maximum: Amount, cost: (Token) -> Int64, gap: Int64 = 0)
        -> (phrase: Phrase, amount: Amount?, tokens: [Token], cost: Int64)
    {
        let reading = saysAmounts ? grammar.costliestReading(upTo: maximum) { cost($0) + gap } : nil
        var best: (phrase: Phrase, amount: Amount?, tokens: [Token], cost: Int64)?
        for phrase in phrases {
            let said = announcement(phrase)
            let tokens = reading.map { phrase.saysAmount ? said.frame($0.tokens) : phrase.before } ?? phrase.before
            let total = tokens.reduce(Int64(0)) { $0 + cost($1) } + gap * Int64(max(tokens.count - 1, 0))
            if best == nil || total > best!.cost {
                best = (phrase, phrase.saysAmount ? reading?.amount : nil, tokens, total)
            }
        }
        return best!
    }

    /// The announcement of any phrase and amount in `0...maximum` whose distinct clip files weigh
    /// most: what a phone that has none of them downloads for it, each file once however often it
    /// is said. `clip` gives a token's file (tokens sharing a file share one), `weights` each
    /// file's weight. Exact (`ReadingGrammar.heaviestDistinctAmount`); ties go to the phrase first by id.
    /// With `threshold`, only announcements heavier than it are searched for: when none is, the
    /// weight returned is at most `threshold` (what a rule that warns above a limit needs, faster).
    public func heaviestDownload(upTo maximum: Amount, clip: (Token) -> Int?, weights: [Int64], above threshold: Int64 = .min)
        -> (phrase: Phrase, amount: Amount?, tokens: [Token], weight: Int64)
    {
        var best: (phrase: Phrase, amount: Amount?, tokens: [Token], weight: Int64)?
        for phrase in phrases {
            var given = ClipSet(capacity: weights.count)
            var own: Int64 = 0
            for token in phrase.clips { if let c = clip(token), given.insert(c) { own += weights[c] } }
            var candidate = (phrase: phrase, amount: Amount?.none, tokens: phrase.before, weight: own)
            if phrase.saysAmount {
                let beyond = threshold == .min ? Int64.min : threshold - own
                let reading = grammar.heaviestDistinctReading(upTo: maximum, clip: clip, weights: weights, given: given, above: beyond)
                candidate = (phrase, reading.amount, announcement(phrase).frame(reading.tokens), own + reading.weight)
            }
            if best == nil || candidate.weight > best!.weight { best = candidate }
        }
        return best!
    }
}

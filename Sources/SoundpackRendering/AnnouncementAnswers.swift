// `say`: each amount given, or each line of a stream, answered with one line of the writer's
// format; a bad one is reported with its line number and the others are still answered.

import SoundpackCore
import SoundpackSupport

extension AnnouncementWriter {
    /// Answers `inputs` in order: an amount, or `-` for every line of `lines`. Each answer goes to
    /// `write` as the bytes of one line; each bad input to `reject` as a message (`line 3: …`).
    /// Reading lines stops once `stopped()` says nobody reads the answers (`| head -1`). Returns
    /// whether every input was an amount.
    public func answer(_ inputs: [String], lines: LineSource, maximum: Amount, write: ([UInt8]) -> Void,
                       stopped: () -> Bool, reject: (String) -> Void) -> Bool {
        var passed = true
        var buffer: [Token] = []
        buffer.reserveCapacity(32)
        var line: [UInt8] = []
        line.reserveCapacity(512)
        func say(_ amount: Amount) {
            line.removeAll(keepingCapacity: true)
            self.write(amount, tokens: &buffer, into: &line)
            write(line)
        }
        func answer(_ input: String, lineNumber: Int?) {
            do throws(AmountError) { say(try Amount(parsing: input, maximum: maximum, grouping: announcement.grammar.grouping)) } catch {
                passed = false
                reject("\(lineNumber.map { "line \($0): " } ?? "")\(error.description)")
            }
        }
        for input in inputs {
            guard input == "-" else {
                answer(input, lineNumber: nil)
                continue
            }
            var number = 0
            while !stopped(), let next = lines.nextLineBytes(maxBytes: AmountList.maxLineBytes) {
                number += 1
                switch next {
                case .bytes(let bytes):
                    // The plain form ("15.40") straight from the bytes; anything else through the
                    // full parser, which also explains what is wrong.
                    if let amount = bytes.withUnsafeBufferPointer({ Amount(plainDigits: $0) }), amount <= maximum {
                        say(amount)
                    } else {
                        answer(String(decoding: bytes, as: UTF8.self), lineNumber: number)
                    }
                case .tooLong(let start, let bytes):
                    passed = false
                    reject("line \(number): '\(start.quoted())' is not an amount — the line is \(bytes) bytes, above \(AmountList.maxLineBytes)")
                }
            }
        }
        return passed
    }
}

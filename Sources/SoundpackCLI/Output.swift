// The one output path: a command's result is Encodable (its JSON) and knows how it reads in a
// terminal (its text); `emit` prints it as `--format` asks.

import SoundpackCore
import SoundpackKit

/// What a command prints.
protocol CommandOutput: Encodable {
    /// The terminal rendering; `colour` says whether to paint it.
    func text(colour: Bool) -> String
}

/// What a checking command prints (`verify`, `payload lint`): its findings, which the renderers
/// of validate print as text, JUnit, GitHub annotations or SARIF; its JSON is its own document.
protocol CheckOutput: CommandOutput {
    var check: CheckReport { get }
}

extension CheckOutput {
    func text(colour: Bool) -> String { check.text(colour: colour) }
}

extension CLIContext {
    /// Prints `output` on stdout as `format` asks: JSON through the one encoder, or its text.
    func emit(_ output: some CommandOutput, _ format: OutputFormat) throws(SoundpackError) {
        stdout.write(format == .json ? try json(output) : output.text(colour: colours(stdout)))
    }

    /// Prints a check's `output` as `format` asks, through the findings renderers.
    func emit(_ output: some CheckOutput, _ format: ReportFormat) throws(SoundpackError) {
        let rendering = try output.check.render(as: format, colour: colours(stdout))
        if let rendering { stdout.write(rendering) } else { stdout.write(try json(output)) }
    }
}

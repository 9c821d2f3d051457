// Validation reports printed the one way `validate` prints them, for the commands that end by validating.

import SoundpackKit

extension CLIContext {
    /// The text rendering of validation reports on stdout, as `validate` prints it (convert, import
    /// and publish end with it).
    func printReports(_ reports: [PackReport], strict: Bool = false) {
        stdout.write(FindingRenderer.text(ValidationRun(reports: reports, strict: strict, toolVersion: SoundpackCommand.version),
                                          colour: colours(stdout)))
    }
}

// `soundpack report`: one self-contained HTML file per run: per pack the coverage table, a
// waveform of every clip with its silences shaded, loudness against the pack median, findings
// next to the clip they concern, the worst-case announcement against iOS's 30 s, and players for
// every clip and some amounts rendered by the same code as `render`. No network, no scripts.

import Foundation
import SoundpackAudio
import SoundpackCore
import SoundpackPack
import SoundpackRendering
import SoundpackSupport
import SoundpackValidation

/// `soundpack report`: one self-contained HTML page of packs' clips, waveforms, loudness and findings.
public enum HTMLReport {
    /// Amounts rendered as players, besides the worst case.
    public static let defaultAmounts: [Amount] = [Amount(minorUnits: 5), Amount(minorUnits: 1_540), Amount(minorUnits: 123_456), Amount(minorUnits: 2_000_000)]

    /// The page for `reports`, with players for each clip and for `amounts` rendered as `render` would.
    public static func render(_ reports: [PackReport], amounts: [Amount] = defaultAmounts, toolVersion: String) -> String {
        var body = ""
        for report in reports { body += section(report, amounts: amounts) }
        let failed = reports.filter { !$0.passed(strict: false) }.count
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="soundpack \(esc(toolVersion))">
            <title>soundpack report — \(reports.count) pack\(reports.count == 1 ? "" : "s")</title>
            <style>\(css)</style></head>
            <body>
            <header><h1>soundpack report</h1><p>\(reports.count) pack\(reports.count == 1 ? "" : "s"), \(failed) failed · soundpack \(esc(toolVersion))</p></header>
            \(body)
            </body></html>

            """
    }

    static let css = """
        body{font:14px/1.45 -apple-system,"Segoe UI",Roboto,"Noto Sans CJK SC",sans-serif;margin:0;color:#1d2430;background:#f5f6f8}
        header{background:#1d2430;color:#fff;padding:16px 28px}header h1{margin:0;font-size:22px}header p{margin:4px 0 0;opacity:.8}
        section.pack{background:#fff;margin:20px 28px;padding:20px 24px;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
        h2{margin:0 0 4px;font-size:20px}h3{font-size:15px;margin:22px 0 8px;color:#364152}
        .verdict{display:inline-block;padding:2px 10px;border-radius:10px;font-weight:600;font-size:13px;margin-left:8px}
        .passed{background:#dcf5e3;color:#13643a}.failed{background:#fde2e1;color:#a01d1a}
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e6e8ec;vertical-align:middle}
        th{font-size:12px;text-transform:uppercase;color:#5b6575;letter-spacing:.03em}td.num{text-align:right;font-variant-numeric:tabular-nums}
        .finding{font-size:12.5px;margin:2px 0}.finding.error{color:#a01d1a}.finding.warning{color:#8a5a00}.finding.suppressed{color:#5b6575}
        .rule{font-family:ui-monospace,Menlo,monospace;font-size:12px}
        svg.wave{display:block;background:#fafbfc;border:1px solid #e6e8ec;border-radius:4px}
        audio{height:30px;width:220px}.limit{height:14px;background:#e6e8ec;border-radius:7px;overflow:hidden;margin:6px 0}
        .limit>div{height:100%}.ok{background:#2f9e5b}.warn{background:#d99a00}.over{background:#c62f2b}
        .amounts{display:flex;flex-wrap:wrap;gap:14px}.amounts figure{margin:0;padding:8px 10px;border:1px solid #e6e8ec;border-radius:6px}
        figcaption{font-size:12.5px;margin-bottom:4px}.muted{color:#5b6575}.name{margin:0 0 4px;font-size:15px}
        tr.missing td{background:#fdf1f0}svg{max-width:100%;height:auto}.wide{overflow-x:auto}
        @media (max-width:600px){section.pack{margin:10px 6px;padding:12px 10px}header{padding:12px 10px}
        table.coverage thead{display:none}table.coverage tr{display:block;border-bottom:1px solid #e6e8ec;padding:6px 0}
        table.coverage td{display:block;border:0;padding:2px 0}audio{width:100%}.rule{word-break:break-all}}
        """

    static func section(_ report: PackReport, amounts: [Amount]) -> String {
        var html = heading(report)
        html += packFindings(report)
        html += longestAnnouncement(report)
        html += sampleAnnouncements(report, amounts: amounts)
        html += clipTable(report)
        if let median = AudioLoudnessOutlier.median(report.clips.compactMap { $0.facts?.momentaryMaxLufs }) {
            html += "<h3>Loudness (momentary max) against the pack median \(String(format: "%.1f", median)) LUFS</h3>\n" + loudnessChart(report, median: median)
        }
        return html + "</section>\n"
    }

    /// The section's opening: the pack's title and verdict, name, summary line and voice source.
    static func heading(_ report: PackReport) -> String {
        let passed = report.passed(strict: false)
        var html = "<section class=\"pack\" id=\"pack-\(esc(report.id ?? report.folder.shown))\">\n"
        html += "<h2>\(esc(report.title))<span class=\"verdict \(passed ? "passed" : "failed")\">\(passed ? "passed" : "failed")</span></h2>\n"
        if let name = report.packFile?.name { html += "<p class=\"name\">\(esc(name))</p>\n" }
        html += "<p class=\"muted\">\(esc(report.folder.shown)) · \(esc(report.packFile?.grammar.summary ?? "?")) · maxAmount \(esc(report.packFile?.maxAmount.description ?? "?")) · \(report.errors) errors, \(report.warnings) warnings\(report.suppressed > 0 ? ", \(report.suppressed) suppressed" : "")</p>\n"
        if let source = report.packFile?.source {
            html += "<p class=\"source\">Spoken by \(esc(source.description)): synthesised clips, placeholders until a voice is recorded.</p>\n"
        }
        return html
    }

    /// Findings about a clip are shown in its row; the rest (pack.json, orphan files) up here.
    /// (A missing token has its own row in the clip table.)
    static func packFindings(_ report: PackReport) -> String {
        let clipFiles = Set(report.clips.map(\.file))
        let packFindings = report.findings.filter { $0.rule != .coverageMissingToken && ($0.file.map { !clipFiles.contains($0) } ?? true) }
        guard !packFindings.isEmpty else { return "" }
        return "<h3>Findings for the pack</h3>\n<div class=\"findings\">" + packFindings.map { findingLine($0, showFile: true) }.joined() + "</div>\n"
    }

    /// The worst case against the limits compose.too-long judges it by (the pack's checks; iOS's 30 s by default).
    static func longestAnnouncement(_ report: PackReport) -> String {
        guard let worst = report.worstCase else {
            let why = report.packFile == nil ? "pack.json cannot be read" : "a clip some amount needs is missing or unreadable (see the findings)"
            return "<h3>Longest announcement</h3>\n<p class=\"muted\">No figure: \(esc(why)), so no announcement can be timed.</p>\n"
        }
        let checks = report.packFile?.checks ?? Checks()
        let (limit, warn) = (checks.composeMaxSeconds, checks.composeWarnSeconds)
        let share = min(worst.seconds / limit, 1)
        let tone = worst.seconds >= limit ? "over" : (worst.seconds >= warn ? "warn" : "ok")
        let limitText = limit == Checks().composeMaxSeconds ? "iOS's \(String(format: "%g", limit)) s limit" : "the pack's \(String(format: "%g", limit)) s limit"
        let said = [worst.phrase.map { "phrase \($0)" }, worst.amount?.description].compactMap { $0 }.joined(separator: ", ")
        var html = "<h3>Longest announcement</h3>\n<p>\(esc(said)) — \(esc(worst.text)) — <strong>\(String(format: "%.2f", worst.seconds)) s</strong> of \(limitText)</p>\n"
        html += "<div class=\"limit\" role=\"img\" aria-label=\"\(String(format: "%.1f", worst.seconds)) of \(String(format: "%g", limit)) seconds\"><div class=\"\(tone)\" style=\"width:\(String(format: "%.1f", share * 100))%\"></div></div>\n"
        return html
    }

    /// Amounts rendered by the same code as `render`: the default phrase's, then each other phrase
    /// once (with the first sample amount when it says one). Why the pack cannot be joined (its
    /// errors, or a file that changed since it was validated) is said where the players would be;
    /// the verdict is the report's.
    static func sampleAnnouncements(_ report: PackReport, amounts: [Amount]) -> String {
        let renderer: PackRenderer
        do { renderer = try PackRenderer(directory: report.folder.path) } catch {
            let why = report.errors > 0 ? "the pack cannot be joined until its errors are fixed." : error.description
            return "<h3>Sample announcements</h3>\n<p class=\"muted\">Not rendered: \(esc(why))</p>\n"
        }
        var figures = ""
        let book = renderer.packFile.phrasebook
        let worstPhrase = report.worstCase.flatMap { worst in worst.phrase.map { $0 } ?? book.defaultID }
        var chosen = amounts
        if worstPhrase == book.defaultID, let amount = report.worstCase?.amount { chosen.append(amount) }
        var seen = Set<Amount>()
        // Amounts above the pack's maxAmount are not its announcements: left out.
        if renderer.phrase.saysAmount {
            for amount in chosen where amount <= renderer.packFile.maxAmount {
                guard seen.insert(amount).inserted else { continue }
                figures += figure(renderer, amount, declared: book.isDeclared)
            }
        } else {
            figures += figure(renderer, nil, declared: book.isDeclared)
        }
        for phrase in book.phrases where phrase.id != book.defaultID {
            let sample = phrase.id == worstPhrase ? report.worstCase?.amount : amounts.first { $0 <= renderer.packFile.maxAmount }
            figures += figure(renderer.speaking(phrase), sample, declared: book.isDeclared)
        }
        return "<h3>Sample announcements</h3>\n<div class=\"amounts\">\(figures)</div>\n"
    }

    /// One rendered announcement with its words, length and player. What `render` refuses (an
    /// announcement iOS would not play) is not rendered here either: a pack of 472 s phrases would
    /// otherwise make hundreds of MB of HTML.
    static func figure(_ renderer: PackRenderer, _ amount: Amount?, declared: Bool) -> String {
        let said = [declared ? renderer.phrase.id : nil, renderer.phrase.saysAmount ? amount?.description : nil].compactMap { $0 }.joined(separator: " ")
        let attribute = declared ? " data-phrase=\"\(esc(renderer.phrase.id))\"" : ""
        if let refusal = renderer.tooLong(amount) {
            return "<figure class=\"amount\"\(attribute)><figcaption>\(esc(said))</figcaption><p class=\"muted\">Not rendered: [\(refusal.rule.rawValue)] \(esc(refusal.message))</p></figure>\n"
        }
        let samples = renderer.render(amount)
        let seconds = Double(samples.count / renderer.channels) / Double(renderer.sampleRate)
        let words = renderer.packFile.grammar.text(of: renderer.tokens(for: amount), texts: renderer.packFile.texts)
        return "<figure class=\"amount\"\(attribute)><figcaption>\(esc(said)) · \(esc(words)) · \(String(format: "%.2f", seconds)) s</figcaption>"
            + audioTag(samples, rate: renderer.sampleRate, channels: renderer.channels) + "</figure>\n"
    }

    /// Coverage: one row per clip with waveform, facts, loudness and findings, and one per token
    /// the pack needs but has no clip for, with the finding that says so.
    static func clipTable(_ report: PackReport) -> String {
        var html = "<h3>Clips</h3>\n<table class=\"coverage\"><thead><tr><th>Token</th><th>File</th><th>Format</th><th>Duration</th><th>Waveform</th><th>Player</th><th>Findings</th></tr></thead><tbody>\n"
        let root = URL(fileURLWithPath: report.folder.path, isDirectory: true)
        for clip in report.clips {
            let findings = report.findings.filter { $0.file == clip.file }
            var format = "unreadable", duration = "—", wave = "", player = ""
            if let f = clip.facts {
                format = "\(f.container.rawValue) \(f.codec.rawValue) \(f.sampleRate) Hz \(f.channels == 1 ? "mono" : "\(f.channels) ch")"
                duration = String(format: "%.3f s", f.durationSeconds)
                // Validation read it; one that cannot be decoded now (changed since) says why in its row.
                if PackPaths.unsafeReason(clip.file, root: root) == nil {
                    do {
                        let audio = try AudioProbe().decode(path: root.appendingPathComponent(clip.file).path)
                        wave = waveform(audio, facts: f)
                        player = audioTag(audio.samples, rate: audio.sampleRate, channels: audio.channels)
                    } catch {
                        wave = "<span class=\"muted\">not drawn: \(esc(error.message))</span>"
                    }
                }
            }
            html += "<tr class=\"clip\" data-token=\"\(esc(clip.key))\"><td><strong>\(esc(clip.key))</strong></td><td class=\"rule\">\(esc(clip.file))</td><td>\(esc(format))</td><td class=\"num\">\(duration)</td><td>\(wave)</td><td>\(player)</td><td>\(findings.map(findingLine).joined())</td></tr>\n"
        }
        for finding in report.findings where finding.rule == .coverageMissingToken {
            let token = finding.token ?? "?"
            html += "<tr class=\"clip missing\" data-token=\"\(esc(token))\"><td><strong>\(esc(token))</strong></td><td class=\"rule\">—</td><td>missing</td><td class=\"num\">—</td><td></td><td></td><td>\(findingLine(finding))</td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    static func findingLine(_ finding: Finding) -> String { findingLine(finding, showFile: false) }

    static func findingLine(_ finding: Finding, showFile: Bool) -> String {
        let kind = finding.suppressed != nil ? "suppressed" : finding.severity.rawValue
        let file = showFile ? finding.file.map { "<span class=\"rule\">\(esc($0))</span>: " } ?? "" : ""
        let reason = finding.suppressed.map { " (\(esc($0)))" } ?? ""
        return "<div class=\"finding \(kind)\" data-rule=\"\(esc(finding.rule.rawValue))\">\(file)<span class=\"rule\">[\(esc(finding.rule.rawValue))]</span> \(kind): \(esc(finding.message))\(reason)</div>"
    }

    static func audioTag(_ samples: [Float], rate: Int, channels: Int) -> String {
        let wav = WAVEncoding.encode(samples, sampleRate: rate, channels: channels)
        return "<audio controls preload=\"none\" src=\"data:audio/wav;base64,\(Data(wav).base64EncodedString())\"></audio>"
    }

    /// An SVG of the clip's min/max envelope in 240 columns, its leading and trailing silence shaded.
    static func waveform(_ audio: DecodedAudio, facts: ClipFacts) -> String {
        let width = 240.0, height = 48.0, columns = 240
        let frames = max(audio.frames, 1)
        var path = ""
        for column in 0..<columns {
            let start = column * frames / columns, end = max(start + 1, (column + 1) * frames / columns)
            var low: Float = 0, high: Float = 0
            for frame in start..<min(end, frames) {
                for channel in 0..<audio.channels {
                    let sample = audio.samples[frame * audio.channels + channel]
                    low = min(low, sample)
                    high = max(high, sample)
                }
            }
            let x = Double(column) + 0.5
            path += String(format: "M%.1f %.1fV%.1f", x, height / 2 - Double(high) * height / 2, height / 2 - Double(low) * height / 2 + 0.5)
        }
        let total = max(facts.durationSeconds * 1000, 1)
        let lead = min(facts.leadingSilenceMs / total, 1) * width, tail = min(facts.trailingSilenceMs / total, 1) * width
        return """
            <svg class="wave" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-label="waveform"><rect class="silence" x="0" y="0" width="\(String(format: "%.1f", lead))" height="\(Int(height))" fill="#f3d9a4" opacity=".7"/><rect class="silence" x="\(String(format: "%.1f", width - tail))" y="0" width="\(String(format: "%.1f", tail))" height="\(Int(height))" fill="#f3d9a4" opacity=".7"/><line x1="0" y1="\(height / 2)" x2="\(width)" y2="\(height / 2)" stroke="#d5d9e0"/><path d="\(path)" stroke="#2f6fdb" stroke-width="1" fill="none"/></svg>
            """
    }

    /// Horizontal bars: each clip's momentary max, the median as a line, ±limit shaded.
    static func loudnessChart(_ report: PackReport, median: Double) -> String {
        let clips = report.clips.compactMap { clip in clip.facts?.momentaryMaxLufs.map { (clip.key, $0) } }
        let rowHeight = 18.0, left = 70.0, chartWidth = 520.0
        // The band the loudness-outlier rule allows, with this pack's threshold.
        let limit = (report.packFile?.checks ?? Checks()).maxLoudnessDeviationLU
        let low = min(clips.map(\.1).min() ?? median, median - 6) - 1, high = max(clips.map(\.1).max() ?? median, median + 6) + 1
        func x(_ lufs: Double) -> Double { left + (lufs - low) / (high - low) * chartWidth }
        let height = Double(clips.count) * rowHeight + 24
        var svg = "<svg class=\"loudness\" width=\"\(Int(left + chartWidth + 80))\" height=\"\(Int(height))\" role=\"img\" aria-label=\"loudness per clip\">"
        svg += String(format: "<rect x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"%.1f\" fill=\"#eaf4ec\"/>", x(median - limit), x(median + limit) - x(median - limit), height - 20)
        for (index, (token, lufs)) in clips.enumerated() {
            let y = Double(index) * rowHeight
            let colour = abs(lufs - median) > limit ? "#d99a00" : "#2f6fdb"
            svg += "<text x=\"\(left - 8)\" y=\"\(y + 13)\" text-anchor=\"end\" font-size=\"12\">\(esc(token))</text>"
            svg += String(format: "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"12\" ", left, y + 3, max(x(lufs) - left, 1)) + "fill=\"\(colour)\"/>"
            svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#5b6575\">%.1f</text>", x(lufs) + 4, y + 13, lufs)
        }
        svg += String(format: "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#13643a\" stroke-dasharray=\"4 3\"/>", x(median), x(median), height - 20)
        svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#13643a\">median %.1f LUFS (±%.1f LU shaded)</text>", x(median) - 60, height - 6, median, limit)
        return svg + "</svg>\n"
    }

    static func esc(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

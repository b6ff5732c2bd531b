import Foundation

/// The verdicts as a table: per category, then overall, overall without text, icon and symbol
/// tests (and of those, the tests that draw no symbol layer or sprite pattern either: what does
/// not wait for sprites and text), and the near misses with their raw fractions.
struct Report {
    let verdicts: [Verdict]
    let seconds: Double

    /// Failed tests this close to their allowance are listed: up to 1% of pixels differ.
    static let nearMissFraction = 0.01

    /// A verdict in a few words: the error's reason, or the share of pixels that differ.
    static func describe(_ verdict: Verdict) -> String {
        switch verdict.outcome {
        case .error:
            let reason = verdict.reason ?? "error"
            return reason.count > 200 ? String(reason.prefix(197)) + "..." : reason
        case .failed, .passed:
            return
                "differs: \(percent(verdict.differingFraction ?? 1)) of pixels (allowed \(percent(verdict.allowance)))"
        }
    }

    static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        return value >= 10
            ? String(format: "%.0f%%", value)
            : value >= 0.1 ? String(format: "%.1f%%", value) : String(format: "%.3f%%", value)
    }

    var text: String {
        var lines: [String] = []
        let categories = Dictionary(grouping: verdicts, by: \.test.category)
        lines.append("category                                    tests  passed  failed  errors")
        for category in categories.keys.sorted() {
            lines.append(row(category, categories[category]!))
        }
        lines.append(String(repeating: "-", count: 74))
        lines.append(row("all", verdicts))
        lines.append(row("all but text, icon and symbol tests", verdicts.filter { !$0.test.isSymbolTest }))
        lines.append(
            row(
                "  of those, drawing no symbol or pattern",
                verdicts.filter { !$0.test.isSymbolTest && !$0.test.drawsSymbolsOrPatterns }))
        lines.append(row("text, icon and symbol tests", verdicts.filter(\.test.isSymbolTest)))
        let near = verdicts.filter { $0.outcome == .failed && ($0.differingFraction ?? 1) <= Self.nearMissFraction }
            .sorted { ($0.differingFraction ?? 1) < ($1.differingFraction ?? 1) }
        if !near.isEmpty {
            lines.append("")
            lines.append("near misses (at most \(Self.percent(Self.nearMissFraction)) of pixels differ):")
            for verdict in near { lines.append("  \(verdict.test.id): \(Self.describe(verdict))") }
        }
        lines.append("")
        lines.append("\(verdicts.count) tests in \(String(format: "%.1f", seconds)) s")
        return lines.joined(separator: "\n")
    }

    private func row(_ name: String, _ group: [Verdict]) -> String {
        let passed = group.filter { $0.outcome == .passed }.count
        let failed = group.filter { $0.outcome == .failed }.count
        let errors = group.filter { $0.outcome == .error }.count
        let share = group.isEmpty ? "" : String(format: "  (%.0f%% pass)", Double(passed) / Double(group.count) * 100)
        func column(_ value: Int, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - "\(value)".count)) + "\(value)"
        }
        return name.padding(toLength: 42, withPad: " ", startingAt: 0) + column(group.count, 7) + column(passed, 8)
            + column(failed, 8)
            + column(errors, 8) + share
    }
}

extension IgnoreList {
    /// The head of the ignore list file.
    static let header = """
        # The GL render-test suite's tests Mapwright is expected to fail, one per line: TEST  REASON.
        # scripts/conformance/run.sh fails when a test not listed here fails, or a listed test passes,
        # so the list only shrinks. Rewrite it with scripts/conformance/run.sh --update-ignores: the
        # runner's reasons are refreshed, reasons written by hand (starting "known:") are kept.

        """
}

import Foundation

/// The tests expected to fail, each with a one-line reason, as MapLibre Native keeps its list:
/// `CATEGORY/NAME  reason` per line (two or more spaces or a tab between), `#` comments.
struct IgnoreList {
    /// Reasons by test id.
    var reasons: [String: String] = [:]

    init() {}

    init(contentsOf url: URL) throws {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw RunnerFailure("\(url.path): cannot read the ignore list")
        }
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let parts = line.split(maxSplits: 1, whereSeparator: { $0 == "\t" || $0 == " " })
            guard parts.count == 2 else { throw RunnerFailure("\(url.path):\(number + 1): a test without a reason") }
            reasons[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces)
        }
    }

    /// The list as a file: a header, then one line per test in id order.
    func text(header: String) -> String {
        let width = min(60, reasons.keys.map(\.count).max() ?? 0) + 2
        let lines = reasons.keys.sorted().map { id in
            (id.count + 2 > width ? id + "  " : id.padding(toLength: width, withPad: " ", startingAt: 0)) + reasons[id]!
        }
        return header + lines.joined(separator: "\n") + "\n"
    }
}

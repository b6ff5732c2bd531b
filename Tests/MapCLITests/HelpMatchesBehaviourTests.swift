import ArgumentParser
import Foundation
import MapComposer
import Testing

@testable import MapCLI

/// Each command's help says what the command does: every option's help is a sentence, options
/// with a default show it, numeric options state their range, and the values an option takes
/// are the ones its help names.
struct HelpMatchesBehaviourTests {
    /// An argument of a command as ArgumentParser describes it (`--experimental-dump-help`).
    struct Argument {
        var command: String
        var names: [String]
        var abstract: String
        var defaultValue: String?
    }

    /// Every argument of every subcommand, from the tool's own description.
    private func arguments() throws -> [Argument] {
        let dump = try #require(
            try JSONSerialization.jsonObject(with: Data(Mapwright._dumpHelp().utf8)) as? [String: Any])
        let root = try #require(dump["command"] as? [String: Any])
        var found: [Argument] = []
        for sub in root["subcommands"] as? [[String: Any]] ?? [] {
            let command = sub["commandName"] as? String ?? "?"
            guard command != "help" else { continue }
            for argument in sub["arguments"] as? [[String: Any]] ?? [] {
                found.append(
                    Argument(
                        command: command,
                        names: (argument["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String },
                        abstract: argument["abstract"] as? String ?? "",
                        defaultValue: argument["defaultValue"] as? String))
            }
        }
        return found
    }

    private func argument(_ command: String, _ name: String) throws -> Argument {
        try #require(try arguments().first { $0.command == command && $0.names.contains(name) }, "\(command) --\(name)")
    }

    @Test func everyHelpStringIsASentence() throws {
        let all = try arguments()
        #expect(all.count > 50)
        for argument in all {
            #expect(
                argument.abstract.first?.isUppercase == true,
                "\(argument.command) \(argument.names): '\(argument.abstract)'")
            #expect(argument.abstract.hasSuffix("."), "\(argument.command) \(argument.names): '\(argument.abstract)'")
        }
    }

    /// Options with a default show it: ArgumentParser's `(default: …)`, or the help's own
    /// "The default is …" where the value is parsed by a transform or left nil to notice it given.
    @Test(arguments: [
        ("render", "size", "1200x800"), ("render", "scale", "1"), ("render", "style", "standard"),
        ("render", "output", "map.png"), ("render", "format", "png"), ("render", "compression", "1"),
        ("render", "overlay-level", "above-roads"), ("render", "cluster-by", "photographer"),
        ("cluster", "radius", "40"), ("cluster", "min-points", "2"), ("cluster", "max-zoom", "16"),
        ("cluster", "cluster-by", "photographer"),
        ("locate", "scale", "1"), ("locate", "heading", "0"), ("locate", "pitch", "0"),
        ("compare", "threshold", "0.1"), ("compare", "max-diff-pixels", "0"),
    ])
    func optionsWithADefaultShowIt(command: String, name: String, value: String) throws {
        let option = try argument(command, name)
        let shown = option.defaultValue.map { $0 == value || $0 == "\(value).0" } ?? false
        #expect(shown || option.abstract.contains("The default is \(value)"), "\(command) --\(name): \(option)")
    }

    @Test(arguments: [
        ("render", "zoom", "0 to 30"), ("render", "compression", "0 (stored) to 9"), ("render", "scale", "1, 2 or 3"),
        ("render", "size", "16384"), ("render", "span", "at most 180"),
        ("cluster", "zoom", "0 to 30"), ("cluster", "max-zoom", "0 to 30"), ("cluster", "min-points", "at least 2"),
        ("cluster", "radius", "more than 0"),
        ("locate", "zoom", "0 to 30"), ("locate", "pitch", "0 to 80"), ("locate", "scale", "1 to 4"),
        ("compare", "threshold", "0 (exact) to 1"), ("compare", "max-diff-ratio", "0 to 1"),
    ])
    func numericOptionsStateTheirRange(command: String, name: String, range: String) throws {
        let option = try argument(command, name)
        #expect(option.abstract.contains(range), "\(command) --\(name): '\(option.abstract)'")
    }

    /// `--cluster` is not the default: by default pins cluster only where two would overlap,
    /// `--cluster` clusters them even where none do. Each flag has its own help line.
    @Test func clusterAndNoClusterEachSayWhatTheyDo() throws {
        let cluster = try argument("render", "cluster")
        let noCluster = try argument("render", "no-cluster")
        #expect(cluster.names == ["cluster"] && noCluster.names == ["no-cluster"])
        #expect(
            cluster.abstract.contains("even where none overlap") && cluster.abstract.contains("by default"),
            "\(cluster.abstract)")
        #expect(noCluster.abstract.hasPrefix("Never cluster"), "\(noCluster.abstract)")
        #expect(try RenderCommand.parse(["--cluster"]).clustering?.clustering == .always)
        #expect(try RenderCommand.parse(["--no-cluster"]).clustering?.clustering == .never)
        #expect(try RenderCommand.parse([]).clustering == nil)
    }

    /// `locate --scale` takes what its help says: any scale from 1 to 4, fractions too.
    @Test func locateScaleTakesWhatItsHelpSays() throws {
        #expect(try argument("locate", "scale").abstract.contains("from 1 to 4 (fractions allowed)"))
        for scale in ["1", "2.5", "3", "4"] {
            let result = try MapwrightProcess.run([
                "locate", "--center", "1,2", "--zoom", "3", "--size", "10x10", "--scale", scale,
            ])
            #expect(result.status == 0, "--scale \(scale): \(result.standardError)")
        }
        for scale in ["0.5", "5"] {
            let result = try MapwrightProcess.run([
                "locate", "--center", "1,2", "--zoom", "3", "--size", "10x10", "--scale", scale,
            ])
            #expect(result.status == 2)
            #expect(
                result.standardError == "mapwright: --scale: \(scale) is not from 1 to 4\n", "\(result.standardError)")
        }
    }

    @Test func helpPrintsTheDefaultsAsPeopleReadThem() throws {
        let render = try MapwrightProcess.run(["render", "--help"])
        #expect(render.status == 0)
        let text = render.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("The default is 1200x800."), "\(text)")
        #expect(text.contains("--cluster Cluster pins even where none overlap"), "\(text)")
        #expect(text.contains("--no-cluster Never cluster pins"), "\(text)")
        #expect(text.contains("- for standard output"), "\(text)")
    }
}

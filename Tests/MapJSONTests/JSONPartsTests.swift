import Foundation
import MapJSON
import MapTestSupport
import Testing

/// Streamed arrays read in parts on several cores give what one pass gives.
struct JSONPartsTests {
    /// What a part collects: its elements in order, with their indices in the part.
    struct Collected: Sendable {
        var elements: [JSONValue] = []
        var indicesInOrder = true
    }

    /// `{"type": ..., "features": [objects...], "after": 1}`, the objects random, some holding
    /// strings that look like element boundaries (`"},{"`), so some guesses are wrong.
    private func document(seed: UInt64, count: Int) -> (text: String, elements: [JSONValue]) {
        var writer = JSONParserTests.SampleWriter(random: SeededGenerator(seed: seed))
        var texts: [String] = []
        var elements: [JSONValue] = []
        while elements.count < count {
            let sample = writer.value(depth: 2)
            guard case .object(var members) = sample.value else { continue }
            var text = sample.text
            if writer.chance(7) {
                members["tricky"] = .string("}, {\"a\": 1}, {")
                text = "{\"tricky\": \"}, {\\\"a\\\": 1}, {\"" + (members.count > 1 ? ", " + text.dropFirst() : "}")
            }
            elements.append(.object(members))
            texts.append(text)
        }
        return ("{\"type\": \"x\", \"features\": [\n" + texts.joined(separator: ",\n") + "\n], \"after\": 1}", elements)
    }

    /// The member names the documents' elements use: picking them all gives each element whole.
    /// Parses in parts, picking every top-level member of `names` and making the element again
    /// from what was picked.
    private func parseInParts(_ text: String, names: [String] = []) throws(JSONSyntaxError) -> (
        document: JSONValue, parts: [[Collected]]
    ) {
        let names = names.isEmpty ? ["tricky"] : names
        let picks = JSONPicks(names.map { [$0] })
        return try JSONValue.parse(
            Data(text.utf8), streamingArraysAt: [["features"]], picking: [picks], into: Collected(),
            minimumBytesForParts: 512
        ) {
            part, _, index, picked in
            part.indicesInOrder = part.indicesInOrder && index == part.elements.count
            guard case .object = picked.element else {
                part.elements.append(picked.element)
                return
            }
            var members: [String: JSONValue] = [:]
            for (number, name) in names.enumerated() { if let value = picked[number] { members[name] = value } }
            part.elements.append(.object(members))
        }
    }

    /// Every member name of the objects among `elements`.
    private func names(of elements: [JSONValue]) -> [String] {
        Array(
            Set(
                elements.flatMap { element -> [String] in
                    guard case .object(let members) = element else { return [] }
                    return Array(members.keys)
                })
        ).sorted()
    }

    @Test func partsJoinedAreTheArray() throws {
        for seed: UInt64 in 20..<40 {
            let (text, elements) = document(seed: seed, count: 300)
            let (document, parts) = try parseInParts(text, names: names(of: elements))
            #expect(document == .object(["type": .string("x"), "features": .array([]), "after": .number(1)]))
            #expect(parts.count == 1)
            #expect(parts[0].flatMap(\.elements) == elements, "seed \(seed): \(parts[0].map(\.elements.count))")
            #expect(parts[0].allSatisfy { $0.indicesInOrder })
            // Another process may run on the other core, but the array is cut when there is one.
            if ProcessInfo.processInfo.activeProcessorCount > 1, seed == 20 { #expect(parts[0].count > 1) }
        }
    }

    @Test func syntaxErrorsAreThoseOfOnePass() throws {
        let (text, _) = document(seed: 41, count: 300)
        for cut in [text.count / 3, text.count * 2 / 3, text.count - 30] {
            var broken = text
            let at = broken.index(broken.startIndex, offsetBy: cut)
            broken.insert(contentsOf: "]]", at: at)
            let onePass = #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(Data(broken.utf8)) }
            let inParts = #expect(throws: JSONSyntaxError.self) { try parseInParts(broken) }
            #expect(onePass?.reason == inParts?.reason && onePass != nil)
        }
    }

    @Test func smallArraysAndEmptyOnesAreOnePart() throws {
        let (_, parts) = try parseInParts(#"{"features": []}"#)
        #expect(parts[0].count == 1 && parts[0][0].elements.isEmpty)
        let (_, missing) = try parseInParts(#"{"other": [1]}"#)
        #expect(missing[0].isEmpty)
        let (_, scalars) = try parseInParts(
            "{\"features\": [" + (0..<500).map(String.init).joined(separator: ", ") + "]}")
        #expect(scalars[0].count == 1 && scalars[0][0].elements == (0..<500).map { .number(Double($0)) })
    }
}

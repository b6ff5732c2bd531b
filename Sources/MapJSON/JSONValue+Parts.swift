public import Foundation
import MapUtilities

extension JSONValue {
    /// Parses a JSON document as ``parse(_:streamingArraysAt:visit:)`` does, but reads each
    /// large streamed array in parts on several cores, picking from each element only the values
    /// at the paths of `picks` (see ``JSONPicks``): every part starts from a copy of `emptyPart`,
    /// gets its elements in order through `add`, and the parts come back in document order, per path.
    ///
    /// An array of objects of `minimumBytesForParts` or more is cut into one part per core (at most four) at
    /// guessed element boundaries (`}`, `,`, `{`), each guess checked by the part before it
    /// reaching it exactly; a wrong guess, or any syntax error in a part, has the whole array
    /// read again in one part (so syntax errors are those of one pass). Smaller arrays are one part.
    ///
    /// - Parameters:
    ///   - picks: Per path, what to pick from its elements.
    ///   - emptyPart: What each part starts from (an empty list of photos, say).
    ///   - minimumBytesForParts: Arrays smaller than this (from their first element to the end
    ///     of the data) are read in one part; default 8 MiB.
    ///   - add: Adds what was picked from the element at `index` (counted within the part) of
    ///     the array at `paths[path]` to the part. Called on several threads at once, each for its own part.
    /// - Returns: The document, streamed arrays left empty, and per path the parts in order (no
    ///   part for a path whose array was not found; one for an array read in one pass).
    /// - Throws: ``JSONSyntaxError``, as ``parse(_:)``.
    public static func parse<Part: Sendable>(
        _ data: Data,
        streamingArraysAt paths: [[String]],
        picking picks: [JSONPicks],
        into emptyPart: Part,
        minimumBytesForParts: Int = 8 << 20,
        add: @escaping @Sendable (_ part: inout Part, _ path: Int, _ index: Int, _ element: JSONPicked) -> Void
    ) throws(JSONSyntaxError) -> (document: JSONValue, parts: [[Part]]) {
        precondition(picks.count == paths.count, "one JSONPicks per streamed path")
        let collected = PartCollector<Part>(paths: paths.count)
        let result = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<JSONValue, JSONSyntaxError> in
            let bytes = raw.bindMemory(to: UInt8.self)
            var parser = JSONParser(bytes: bytes)
            parser.arrayReader = { parser, path throws(JSONParser.Failure) in
                collected.parts[path] = try readInParts(
                    &parser, path: path, picks: picks[path], emptyPart: emptyPart, minimumBytes: minimumBytesForParts,
                    add: add)
            }
            do throws(JSONParser.Failure) {
                return .success(try parser.parseDocument(streaming: paths))
            } catch {
                return .failure(JSONSyntaxError(reason: JSONParser.reason(for: error, in: bytes)))
            }
        }
        return (try result.get(), collected.parts)
    }

    /// The parts of the streamed array at the parser's index, which is left after the array.
    private static func readInParts<Part: Sendable>(
        _ parser: inout JSONParser, path: Int, picks: JSONPicks, emptyPart: Part, minimumBytes: Int,
        add: @escaping @Sendable (inout Part, Int, Int, JSONPicked) -> Void
    ) throws(JSONParser.Failure) -> [Part] {
        let arrayStart = parser.index
        guard try !parser.enterArray() else { return [emptyPart] }
        parser.skipWhitespace()
        let cores = min(ProcessInfo.processInfo.activeProcessorCount, 4)
        let starts =
            parser.bytes.count - parser.index >= minimumBytes && cores > 1
            ? [parser.index] + parser.guessedPartStarts(count: cores) : [parser.index]
        if starts.count > 1 {
            let outcomes = UnsafeMutableBufferPointer<PartOutcome<Part>>.allocate(capacity: starts.count)
            outcomes.initialize(repeating: PartOutcome(part: emptyPart))
            defer { outcomes.deinitialize().deallocate() }
            // Each part reads the parser's bytes and writes only its own outcome.
            let shared = UnsafeTransfer((parser: parser, outcomes: outcomes))
            DispatchQueue.concurrentPerform(iterations: starts.count) { number in
                let (parent, outcomes) = shared.wrappedValue
                var reader = JSONParser(elementsOf: parent, at: starts[number])
                var outcome = PartOutcome(part: emptyPart)
                var count = 0
                do throws(JSONParser.Failure) {
                    let nextPart = number + 1 < starts.count ? starts[number + 1] : nil
                    let end = try reader.parseElements(
                        until: nextPart, reading: { parser throws(JSONParser.Failure) in try parser.pick(picks) }
                    ) { element in
                        add(&outcome.part, path, count, element)
                        count += 1
                    }
                    outcome.end = end == (nextPart == nil ? .closed : .reachedNextPart) ? reader.index : nil
                } catch {
                    outcome.end = nil
                }
                outcomes[number] = outcome
            }
            if outcomes.allSatisfy({ $0.end != nil }), let end = outcomes.last?.end {
                parser.leaveArray(at: end)
                return outcomes.map(\.part)
            }
        }
        // One part: the whole array again from its bracket, with the errors of one pass.
        var part = emptyPart
        var reader = JSONParser(elementsOf: parser, at: arrayStart)
        reader.leaveArray(at: arrayStart)  // back out of the array entered above
        try reader.parseArray(reading: { parser throws(JSONParser.Failure) in try parser.pick(picks) }) {
            index, element in
            add(&part, path, index, element)
        }
        parser.leaveArray(at: reader.index)
        return [part]
    }
}

/// What reading one part gave: the part, and where it ended (`nil` when it did not end where it should).
private struct PartOutcome<Part> {
    var part: Part
    var end: Int?
}

/// The parts of every streamed array, filled in as the parser meets the arrays, one at a time.
private final class PartCollector<Part: Sendable> {
    var parts: [[Part]]

    init(paths: Int) { parts = Array(repeating: [], count: paths) }
}

import Foundation
import MapJSON
import MapTestSupport
import Testing

/// The hand-written parser against known answers and against Foundation's `JSONSerialization`,
/// on a seeded corpus of random documents written with random whitespace and escapes.
struct JSONParserTests {
    /// A random document: the value it must parse to, and its text.
    struct Sample {
        var value: JSONValue
        var text: String
    }

    /// Writes random values as text, independently of `JSONWriter`: every character may be
    /// escaped (`\uXXXX`, surrogate pairs for astral scalars), numbers come in many spellings.
    struct SampleWriter {
        var random: SeededGenerator

        mutating func chance(_ oneIn: UInt64) -> Bool { random.next() % oneIn == 0 }

        mutating func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }

        mutating func whitespace() -> String {
            chance(3) ? pick([" ", "\n", "\t", "\r\n", "  ", ""]) : ""
        }

        mutating func scalar() -> Unicode.Scalar {
            switch random.next() % 10 {
            case 0: return Unicode.Scalar(UInt8(random.next() % 0x20))  // control characters
            case 1: return pick(["\"", "\\", "/"])
            case 2: return Unicode.Scalar(UInt32(0xA0 + random.next() % 0x700))!  // Latin, Greek, Cyrillic...
            case 3: return pick(["中", "文", "é", "ß", "\u{2028}", "\u{FFFF}"])  // Foundation drops U+FEFF: tested alone
            case 4: return Unicode.Scalar(UInt32(0x1F600 + random.next() % 0x50))!  // emoji: surrogate pairs
            default: return Unicode.Scalar(UInt8(0x20 + random.next() % 0x5F))
            }
        }

        mutating func string() -> (String, String) {
            var value = String.UnicodeScalarView()
            var text = "\""
            for _ in 0..<Int(random.next() % 12) {
                let scalar = scalar()
                value.append(scalar)
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case "\n" where chance(2): text += "\\n"
                case "\t" where chance(2): text += "\\t"
                case "\u{08}" where chance(2): text += "\\b"
                case "/" where chance(2): text += "\\/"
                case _ where scalar.value < 0x20 || chance(4):
                    for unit in String(scalar).utf16 {
                        let hex = String(unit, radix: 16, uppercase: chance(2))
                        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    }
                default: text.unicodeScalars.append(scalar)
                }
            }
            return (String(value), text + "\"")
        }

        mutating func number() -> (Double, String) {
            let text: String
            switch random.next() % 8 {
            case 0:
                text = pick([
                    "0", "-0", "1e-7", "-0.0", "1E+2", "0.1", "5e-324", "1.7976931348623157e308",
                    "2.2250738585072014e-308",
                ])
            case 1: text = String(Int64(bitPattern: random.next()) >> Int64(random.next() % 60))
            case 2:
                text = String(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF) * (chance(2) ? 1 : -1))
                    .replacingOccurrences(of: "e+", with: pick(["e+", "E+", "e"]))
            case 3: text = "\(Int(random.next() % 1000)).\(String(random.next() % 100_000_000))"
            case 4: text = "-\(Int(random.next() % 10))e\(Int(random.next() % 40) - 20)"
            case 5: text = "0.\(String(repeating: "0", count: Int(random.next() % 10)))\(random.next() % 1000)"
            case 6: text = "\(random.next())\(random.next() % 1000)"  // more than 19 digits
            default: text = "\(Int(random.next() % 200_000) - 100_000)"
            }
            return (Double(text)!, text)
        }

        mutating func value(depth: Int) -> Sample {
            switch random.next() % (depth > 6 ? 4 : 7) {
            case 0: return Sample(value: .null, text: "null")
            case 1:
                let bool = chance(2)
                return Sample(value: .bool(bool), text: bool ? "true" : "false")
            case 2:
                let (number, text) = number()
                return Sample(value: .number(number), text: text)
            case 3:
                let (string, text) = string()
                return Sample(value: .string(string), text: text)
            case 4, 5:
                var members: [String: JSONValue] = [:]
                var parts: [String] = []
                for _ in 0..<Int(random.next() % 5) {
                    let (key, keyText) = string()
                    guard members[key] == nil else { continue }
                    let member = value(depth: depth + 1)
                    members[key] = member.value
                    parts.append(
                        whitespace() + keyText + whitespace() + ":" + whitespace() + member.text + whitespace())
                }
                return Sample(value: .object(members), text: "{" + whitespace() + parts.joined(separator: ",") + "}")
            default:
                var values: [JSONValue] = []
                var parts: [String] = []
                for _ in 0..<Int(random.next() % 5) {
                    let element = value(depth: depth + 1)
                    values.append(element.value)
                    parts.append(whitespace() + element.text + whitespace())
                }
                return Sample(value: .array(values), text: "[" + whitespace() + parts.joined(separator: ",") + "]")
            }
        }
    }

    /// Whether Foundation's parse equals ours; Foundation on Linux may give numbers for booleans.
    /// (The exact answer is the sample's value; this checks we read documents as Foundation does.)
    static func matches(_ value: JSONValue, _ foundation: Any) -> Bool {
        mismatch(value, foundation) == nil
    }

    /// The first place where Foundation's parse differs from ours, for the failure message.
    static func mismatch(_ value: JSONValue, _ foundation: Any, at path: String = "$") -> String? {
        switch value {
        case .array(let values):
            guard let array = foundation as? [Any], array.count == values.count else { return "\(path): \(foundation)" }
            return zip(values, array).enumerated().lazy.compactMap { mismatch($1.0, $1.1, at: "\(path)[\($0)]") }.first
        case .object(let members):
            guard let object = foundation as? [String: Any], object.count == members.count else {
                return "\(path): \(foundation)"
            }
            return members.lazy.compactMap { key, member in
                object[key].map { mismatch(member, $0, at: "\(path).\(key.debugDescription)") }
                    ?? "\(path): no \(key.debugDescription)"
            }.first
        default:
            return leafMatches(value, foundation) ? nil : "\(path): \(value) vs \(foundation) (\(type(of: foundation)))"
        }
    }

    private static func leafMatches(_ value: JSONValue, _ foundation: Any) -> Bool {
        switch value {
        case .null: return foundation is NSNull
        case .bool(let bool): return (foundation as? Bool) == bool || (foundation as? NSNumber)?.boolValue == bool
        case .number(let number):
            // Foundation reads long numbers through Decimal, whose conversion to Double is a few
            // ulps off, and wrong beyond Decimal's exponents (±127): the exact check of every
            // number is against `Double(_:)` (strtod) above.
            guard let theirs = (foundation as? NSNumber)?.doubleValue ?? (foundation as? Double) else { return false }
            if number != 0, abs(number) > 1e120 || abs(number) < 1e-120 { return true }
            return theirs == number
                || abs(theirs - number) <= abs(number) * (foundation is NSDecimalNumber ? 1e-12 : 1e-15)
        case .string(let string): return (foundation as? String) == string
        case .array(let values):
            guard let array = foundation as? [Any], array.count == values.count else { return false }
            return zip(values, array).allSatisfy { matches($0, $1) }
        case .object(let members):
            guard let object = foundation as? [String: Any], object.count == members.count else { return false }
            return members.allSatisfy { key, member in object[key].map { matches(member, $0) } ?? false }
        }
    }

    @Test func randomDocumentsParseToTheirValuesAsFoundationReadsThem() throws {
        var writer = SampleWriter(random: SeededGenerator(seed: 9))
        for round in 0..<3_000 {
            let sample = writer.value(depth: 0)
            let text = writer.whitespace() + sample.text + writer.whitespace()
            let data = Data(text.utf8)
            let parsed = try JSONValue.parse(data)
            #expect(parsed == sample.value, "round \(round): \(text)")
            let foundation = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            #expect(Self.mismatch(parsed, foundation) == nil, "round \(round): \(text)")
        }
    }

    @Test func numbersAreCorrectlyRounded() throws {
        var writer = SampleWriter(random: SeededGenerator(seed: 10))
        for _ in 0..<20_000 {
            let (number, text) = writer.number()
            let parsed = try JSONValue.parse(Data(text.utf8))
            #expect(parsed == .number(number), "\(text)")
            if case .number(let value) = parsed { #expect(value.sign == number.sign, "\(text)") }
        }
        #expect(try JSONValue.parse(Data("-0".utf8)) == .number(-0.0))
        #expect(try JSONValue.parse(Data("1e-7".utf8)) == .number(1e-7))
        #expect(try JSONValue.parse(Data("123456789012345678901234567890".utf8)) == .number(1.2345678901234568e29))
    }

    @Test func surrogatePairsAndEscapesAreDecoded() throws {
        let text = #"["\ud83d\ude00", "\u00e9\u4E2D", "a\/b\\c\"d\b\f\n\r\t", "😀", "\ufeffx", "\#u{FEFF}y"]"#
        #expect(
            try JSONValue.parse(Data(text.utf8))
                == .array([
                    .string("😀"), .string("é中"), .string("a/b\\c\"d\u{08}\u{0C}\n\r\t"), .string("😀"),
                    .string("\u{FEFF}x"), .string("\u{FEFF}y"),
                ]))
    }

    @Test func deepNestingUpTo512() throws {
        let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        var value = try JSONValue.parse(Data(deep.utf8))
        var depth = 1
        while case .array(let values) = value, let first = values.first {
            value = first
            depth += 1
        }
        #expect(depth == 512)
        let tooDeep = String(repeating: "{\"a\":", count: 513) + "1" + String(repeating: "}", count: 513)
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(Data(tooDeep.utf8)) }
    }

    @Test(arguments: [
        ("", "it is empty"),
        ("[,]", "invalid value at line 1, column 2"),
        ("[1,,]", "invalid value at line 1, column 4"),
        ("{\"a\" 1}", "invalid value at line 1, column 6"),
        ("{\n  \"a\": 1,\n  \"b\": ]\n}", "invalid value at line 3, column 8"),
        ("[01]", "invalid value at line 1, column 3"),
        ("[1.]", "invalid number at line 1, column 4"),
        ("[.5]", "invalid value at line 1, column 2"),
        ("[-]", "invalid number at line 1, column 3"),
        ("[1e]", "invalid number at line 1, column 4"),
        ("tru", "it ends early, at line 1"),
        ("nul!", "invalid value at line 1, column 4"),
        ("\"\\x\"", "invalid escape sequence at line 1, column 2"),
        ("\"a\tb\"", "unescaped control character in string at line 1, column 3"),
        ("[\"\\ud800\"]", "invalid unicode escape: a high surrogate without its low surrogate at line 1, column 3"),
        ("[\"\\udc00\"]", "invalid unicode escape: a low surrogate without its high surrogate at line 1, column 3"),
        ("\"\\u12G4\"", "invalid unicode escape at line 1, column 6"),
        ("{\"a\":1,,}", "invalid value at line 1, column 8"),
        ("[1 2]", "invalid value at line 1, column 4"),
        ("{}x", "unexpected text after the document at line 1, column 3"),
        ("[\"é\", x]", "invalid value at line 1, column 7"),
        ("[1e999]", "number is out of range at line 1, column 2"),
        ("{\"a\": [1, 2", "it ends early, at line 1"),
    ])
    func syntaxErrorsNameTheProblemLineAndColumn(text: String, reason: String) {
        let error = #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(Data(text.utf8)) }
        #expect(error?.reason == "is not valid JSON: \(reason)")
        // Foundation is laxer than RFC 8259 about trailing commas; lone surrogates and huge numbers vary.
        if !text.contains("\\ud"), !text.contains("e999"), !text.contains(",]"), !text.contains(",}") {
            #expect(throws: (any Error).self, "Foundation accepts \(text)") {
                try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            }
        }
    }

    @Test func invalidUTF8InAStringIsAnError() {
        let data = Data("[\"a".utf8) + Data([0xC3, 0x28]) + Data("\"]".utf8)
        let error = #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(data) }
        #expect(error?.reason == "is not valid JSON: invalid UTF-8 in string at line 1, column 3")
    }

    /// Strings are scanned eight bytes at a time: a quote, backslash, control character or
    /// non-ASCII byte at any offset of a word, in kept and in skipped (dropped) strings alike.
    @Test func specialBytesAtEveryOffsetOfAWord() throws {
        let picks = JSONPicks([["kept"]])
        for length in 0..<26 {
            for position in 0..<max(length, 1) {
                for (special, decoded): (String, String) in [
                    ("\\\"", "\""), ("\\\\", "\\"), ("\\n", "\n"), ("é", "é"), ("😀", "😀"),
                ] {
                    var plain = Array(repeating: "a", count: length)
                    if length > 0 { plain[position] = special }
                    let text = plain.joined()
                    let expected =
                        length > 0
                        ? Array(repeating: "a", count: length).enumerated()
                            .map { $0.offset == position ? decoded : $0.element }.joined() : ""
                    #expect(try JSONValue.parse(Data("[\"\(text)\"]".utf8)) == .array([.string(expected)]))
                    let parts = try JSONValue.parse(
                        Data("{\"list\": [{\"\(text)\": \"\(text)\", \"kept\": \"\(text)\"}]}".utf8),
                        streamingArraysAt: [["list"]], picking: [picks], into: [JSONPicked](),
                        minimumBytesForParts: .max
                    ) { part, _, _, element in part.append(element) }.parts
                    #expect(parts.first?.first?.first?[0] == .string(expected))
                }
                let control = String(repeating: "a", count: position) + "\u{1}" + String(repeating: "a", count: length)
                #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(Data("[\"\(control)\"]".utf8)) }
                #expect(throws: JSONSyntaxError.self) {
                    try JSONValue.parse(
                        Data("{\"list\": [{\"x\": \"\(control)\"}]}".utf8), streamingArraysAt: [["list"]],
                        picking: [picks], into: 0, minimumBytesForParts: .max
                    ) { _, _, _, _ in }
                }
            }
        }
    }

    @Test func aByteOrderMarkIsSkippedAndDuplicateKeysKeepTheFirst() throws {
        #expect(
            try JSONValue.parse(Data([0xEF, 0xBB, 0xBF]) + Data("{\"a\": 1, \"a\": 2}".utf8))
                == .object(["a": .number(1)]))
    }

    /// What `JSONDecoder` (the reader before the parser) accepts, the parser accepts alike, to the same values.
    @Test func acceptsWhatJSONDecoderAccepted() throws {
        for text in ["[1,]", "{\"a\": [1, {\"b\": 2,},],}", "{\"a\":1,\"a\":2}", " 3 ", "\"x\"", "[1 ,\n]"] {
            let before = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            #expect(try JSONValue.parse(Data(text.utf8)) == before, "\(text)")
        }
        for text in ["[1,,]", "[,]", "{,}", "[01]", "[1e]", "{\"a\" 1}", "[1] x", "[\"\\ud800\"]", "tru"] {
            #expect(throws: (any Error).self, "JSONDecoder accepts \(text)") {
                try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            }
            #expect(throws: JSONSyntaxError.self, "\(text)") { try JSONValue.parse(Data(text.utf8)) }
        }
        var writer = SampleWriter(random: SeededGenerator(seed: 19))
        for round in 0..<1_000 {
            let sample = writer.value(depth: 0)
            let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(sample.text.utf8))
            #expect(try JSONValue.parse(Data(sample.text.utf8)) == decoded, "round \(round): \(sample.text)")
        }
    }

    @Test func picksTellApartNamesOfOneLengthAndFirstLetter() throws {
        // 40 names of two bytes starting with k share one slot of the lookup table, as do
        // url_l, url_s and url_m; every other one is picked, in an order unlike the members'.
        let seconds: [Character] = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCD")
        let names: [String] = seconds.map { "k" + String($0) }
        let members =
            names.enumerated().map { "\"\($1)\": \($0)" } + [
                "\"url_l\": \"L\"", "\"url_s\": \"S\"", "\"url_m\": \"M\"", "\"\": \"empty\"",
            ]
        let text = "{\"list\": [{" + members.joined(separator: ", ") + "}]}"
        let pickedNames = stride(from: 39, through: 0, by: -2).map { names[$0] } + ["url_s", "url_m", "", "kZ"]
        let picks = JSONPicks(pickedNames.map { [$0] })
        let parts = try JSONValue.parse(
            Data(text.utf8), streamingArraysAt: [["list"]], picking: [picks], into: [JSONPicked](),
            minimumBytesForParts: .max
        ) { part, _, _, picked in part.append(picked) }.parts
        let picked = try #require(parts.first?.first?.first)
        for (number, name) in pickedNames.enumerated() {
            let expected: JSONValue? =
                switch name {
                case "url_s": .string("S")
                case "url_m": .string("M")
                case "": .string("empty")
                case "kZ": nil
                default: .number(Double(names.firstIndex(of: name)!))
                }
            #expect(picked[number] == expected, "\(name)")
        }
    }

    @Test func picksGiveTheValuesAtTheirPaths() throws {
        var writer = SampleWriter(random: SeededGenerator(seed: 16))
        for round in 0..<500 {
            // An array of random objects, some member paths of which are picked.
            var elements: [JSONValue] = []
            var texts: [String] = []
            for _ in 0..<4 {
                let sample = writer.value(depth: 1)
                elements.append(sample.value)
                texts.append(sample.text)
            }
            var paths: [[String]] = [["absent"], ["\u{0}"], ["absent", "below"]]
            for element in elements {
                guard case .object(let members) = element else { continue }
                for (key, value) in members where writer.chance(2) {
                    paths.append([key])
                    if case .object(let inner) = value, let innerKey = inner.keys.first {
                        paths.append([key, innerKey])
                    }
                }
            }
            let picks = JSONPicks(paths)
            var seen: [JSONPicked] = []
            let text = "{\"list\": [" + texts.joined(separator: ",") + "]}"
            _ = try JSONValue.parse(
                Data(text.utf8), streamingArraysAt: [["list"]], picking: [picks], into: [JSONPicked](),
                minimumBytesForParts: .max
            ) { part, _, _, picked in part.append(picked) }.parts[0].flatMap { seen += $0 }
            #expect(seen.count == elements.count, "round \(round)")
            for (element, picked) in zip(elements, seen) {
                guard case .object = element else {
                    #expect(picked.element == element, "round \(round)")
                    continue
                }
                #expect(picked.element == .object([:]), "round \(round)")
                for (number, path) in paths.enumerated() {
                    // What the whole element holds at the path; a prefix of a longer path is an empty object for an object.
                    var expected: JSONValue? = element
                    for key in path { expected = expected?[key] }
                    let leadsOn = paths.contains { $0.count > path.count && Array($0.prefix(path.count)) == path }
                    if leadsOn, case .object? = expected { expected = .object([:]) }
                    #expect(picked[number] == expected, "round \(round): \(path)")
                }
            }
        }
    }

    /// Members not picked are still checked: the same errors, at the same places, as when all are read.
    @Test func droppedMembersAreStillChecked() {
        func parse(_ data: Data) throws(JSONSyntaxError) {
            _ = try JSONValue.parse(data, streamingArraysAt: [["l"]], picking: [JSONPicks([["a"]])], into: 0) {
                _, _, _, _ in
            }
        }
        for (text, reason) in [
            (#"{"l": [{"a": 1, "b": [1,,]}]}"#, "invalid value at line 1, column 25"),
            (#"{"l": [{"a": 1, "b": "\x"}]}"#, "invalid escape sequence at line 1, column 23"),
            (#"{"l": [{"a": 1, "b": {"c" 2}}]}"#, "invalid value at line 1, column 27"),
            ("{\"l\": [{\"b\": \"\t\"}]}", "unescaped control character in string at line 1, column 15"),
        ] {
            let error = #expect(throws: JSONSyntaxError.self) { try parse(Data(text.utf8)) }
            #expect(error?.reason == "is not valid JSON: \(reason)", "\(text)")
        }
        let invalidUTF8 = Data(#"{"l": [{"b": "x"#.utf8) + Data([0xFF]) + Data(#""}]}"#.utf8)
        #expect(throws: JSONSyntaxError.self) { try parse(invalidUTF8) }
    }

    @Test func streamedArraysAreHandedOutElementByElement() throws {
        let text =
            #"{"type": "FeatureCollection", "features": [{"n": 1}, 2, [3]], "photos": {"photo": ["a"], "x": [9]}, "other": [4]}"#
        var seen: [String] = []
        let document = try JSONValue.parse(
            Data(text.utf8), streamingArraysAt: [["features"], ["photos", "photo"], ["missing"]]
        ) {
            path, index, element in
            seen.append("\(path):\(index):\(element.jsonText)")
        }
        #expect(seen == [#"0:0:{"n":1}"#, "0:1:2", "0:2:[3]", #"1:0:"a""#])
        #expect(
            document
                == .object([
                    "type": .string("FeatureCollection"), "features": .array([]),
                    "photos": .object(["photo": .array([]), "x": .array([.number(9)])]), "other": .array([.number(4)]),
                ]))
        // A path that holds no array keeps its value; a syntax error after the array still throws.
        #expect(
            try JSONValue.parse(Data(#"{"features": {"a": 1}}"#.utf8), streamingArraysAt: [["features"]]) { _, _, _ in }
                == .object(["features": .object(["a": .number(1)])]))
        #expect(throws: JSONSyntaxError.self) {
            try JSONValue.parse(Data(#"{"features": [1, 2], "x": }"#.utf8), streamingArraysAt: [["features"]]) {
                _, _, _ in
            }
        }
    }
}

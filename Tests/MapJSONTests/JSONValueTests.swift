import Foundation
import MapJSON
import Testing

struct JSONValueTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONValue.parse(Data(#"{"a": [1, 2.5, true, null, "x"], "b": {"c": -3e2}}"#.utf8))
        #expect(value["a"] == .array([.number(1), .number(2.5), .bool(true), .null, .string("x")]))
        #expect(value["b"]?["c"] == .number(-300))
        #expect(value["missing"] == nil)
        #expect(JSONValue.array([])["a"] == nil)
    }

    @Test func kindsAreDescribedInWords() {
        #expect(JSONValue.null.kindDescription == "null")
        #expect(JSONValue.number(1).kindDescription == "a number")
        #expect(JSONValue.object([:]).kindDescription == "an object")
    }

    @Test(arguments: [(5.0, "5"), (2.5, "2.5"), (-0.125, "-0.125"), (1e300, "1e+300"), (37.8106, "37.8106")])
    func numbersAreWrittenWithoutATrailingZero(number: Double, text: String) {
        #expect(JSONValue.text(of: number) == text)
    }

    @Test func jsonTextSortsKeysEscapesStringsAndKeepsSlashes() throws {
        let value = JSONValue.object([
            "z": .string("a\"b\\c/d\n"), "a": .array([.number(1), .bool(false), .null]), "é": .string("中文"),
        ])
        let text = value.jsonText
        #expect(text == #"{"a":[1,false,null],"z":"a\"b\\c/d\n","é":"中文"}"#)
        // Foundation's own parser reads it back to the same value.
        let reparsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(reparsed?["z"] as? String == "a\"b\\c/d\n")
        #expect(try JSONValue.parse(Data(text.utf8)) == value)
    }

    @Test func textOfAStringOrNumber() {
        #expect(JSONValue.string("x").text == "x")
        #expect(JSONValue.number(3).text == "3")
        #expect(JSONValue.bool(true).text == nil)
    }

    @Test func syntaxErrorsSayWhereByLineAndColumn() {
        let document = "{\n  \"a\": 1,\n  \"b\": ]\n}"
        #expect {
            try JSONValue.parse(Data(document.utf8))
        } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("is not valid JSON") && message.contains("line 3")
        }
    }

    @Test func codableRoundTrip() throws {
        let value = JSONValue.object(["n": .number(1.5), "s": .string("ü"), "l": .array([.null])])
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }
}

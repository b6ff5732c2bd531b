import Foundation
import MapJSON
import Testing

/// `JSONSyntaxError.reason` is a whole phrase written after a file name, in plain words.
struct JSONSyntaxErrorTests {
    private func reason(_ text: String) -> String? {
        do { _ = try JSONValue.parse(Data(text.utf8)) } catch { return error.reason }
        return nil
    }

    @Test func aDocumentThatEndsEarlySaysSoWithTheLine() {
        #expect(reason("{\n  \"a\": [1,\n") == "is not valid JSON: it ends early, at line 2")
    }

    @Test func anEmptyDocumentSaysItIsEmpty() {
        #expect(reason("") == "is not valid JSON: it is empty")
        #expect(reason(" \n\n") == "is not valid JSON: it is empty")
    }

    @Test func theReasonSaysNotValidJSONOnceWithoutATrailingFullStop() {
        let text = reason("{\"a\" 1}")
        #expect(text == "is not valid JSON: invalid value at line 1, column 6")
    }
}

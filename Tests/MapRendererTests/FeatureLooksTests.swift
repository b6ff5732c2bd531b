import MapJSON
import Testing

@testable import MapRenderer

/// A layer's looks made once for features alike, by the names its properties read.
struct FeatureLooksTests {
    @Test func featuresAlikeUnderTheNamesReadShareOneLook() {
        var looks = FeatureLooks<String>(reading: [["class"], [], ["brunnel", "class"]])
        var made = 0
        func look(_ properties: [String: FeatureValue]) -> String {
            looks.look(for: properties) {
                made += 1
                return "\(properties["class"].map { "\($0)" } ?? "-")/\(properties["brunnel"].map { "\($0)" } ?? "-")"
            }
        }
        let first = look(["class": "primary", "name": "Mannerheimintie"])
        // Other names differ: the same look, not made again.
        #expect(look(["class": "primary", "name": "Aleksanterinkatu", "oneway": 1]) == first)
        #expect(made == 1)
        // A value under a name read differs, or is missing: a look of its own.
        #expect(look(["class": "primary", "brunnel": "bridge"]) != first)
        #expect(look(["name": "Esplanadi"]) != first)
        #expect(look(["class": "secondary"]) != first)
        #expect(made == 4)
        // A number is not its text.
        _ = look(["class": 1])
        _ = look(["class": "1"])
        #expect(made == 6)
    }

    @Test func propertiesReadingFeaturesOtherwiseMakeEveryLookAnew() {
        var looks = FeatureLooks<Int>(reading: [["class"], nil])
        var made = 0
        for _ in 0..<3 {
            _ = looks.look(for: ["class": "primary"]) {
                made += 1
                return made
            }
        }
        #expect(made == 3)
    }
}

import MapUtilities
import Testing

struct StringEditDistanceTests {
    @Test func countsInsertionsDeletionsAndSubstitutionsByCharacter() {
        #expect("kitten".editDistance(to: "sitting") == 3)
        #expect("Germny".editDistance(to: "Germany") == 1)
        #expect("".editDistance(to: "abc") == 3 && "abc".editDistance(to: "") == 3)
        #expect("长城日落".editDistance(to: "长城") == 2)
        #expect("same".editDistance(to: "same") == 0)
    }
}

import Foundation
import MapComposer
import MapCore
import MapRenderer
import PhotoSources
import Testing

/// `--select` finds a photo by id, title, the start of one title, or a part of one title.
struct PhotoMapBuilderSelectionTests {
    private let titles = [
        "a": "Half Dome in Mirror Lake", "b": "Half Dome from Glacier Point", "c": "Bridalveil Fall",
        "d": "Vernal Fall, Mist Trail", "e": "Upper and Lower Yosemite Falls", "f": "Mirror", "g": "Bridalveil Fall",
        "h": "El Capitan", "i": "Cathedral Rocks", "j": "Sentinel Dome", "k": "Taft Point", "l": "Tunnel View",
    ]

    private func request(_ selection: String) throws -> PhotoMapRequest {
        let photos = try titles.keys.sorted().enumerated().map { index, id in
            Photo(
                id: id, title: titles[id],
                coordinate: try RenderFixtures.coordinate(37.7 + Double(index) * 0.01, -119.6))
        }
        return PhotoMapRequest(
            photos: photos, style: try RenderFixtures.plainStyle(), selection: .photo(selection), clustering: .never)
    }

    private func selected(_ selection: String) throws -> String? {
        try PhotoMapBuilder(data: RenderFixtures.data).options(for: request(selection)).selectedAnnotationID
    }

    private func error(_ selection: String) throws -> PhotoMapError? {
        #expect(throws: PhotoMapError.self) { try selected(selection) }
        do { _ = try selected(selection) } catch let error as PhotoMapError { return error }
        return nil
    }

    @Test func anIdThenAWholeTitleThenAUniquePrefixThenAUniquePartSelect() throws {
        #expect(try selected("h") == "h")
        // A whole title wins over the longer titles it starts or is part of.
        #expect(try selected("MIRROR") == "f")
        #expect(try selected("half dome in") == "a")
        #expect(try selected("el cap") == "h")
        #expect(try selected("glacier") == "b")
        #expect(try selected("MIST trail") == "d")
        // Photos sharing one title are one match: the first of them.
        #expect(try selected("bridal") == "c")
    }

    @Test func anAmbiguousValueListsTheTitlesItMatches() throws {
        let halfDome = try #require(try error("half dome"))
        guard case .ambiguousSelection(_, let matches, let count) = halfDome else {
            Issue.record("\(halfDome)")
            return
        }
        #expect(Set(matches) == ["Half Dome in Mirror Lake", "Half Dome from Glacier Point"] && count == 2)
        #expect(halfDome.description.contains("'half dome' matches 2 photo titles: 'Half Dome"))
        #expect(!halfDome.description.contains("\n"))
        // No prefix fits "fall": it is part of three titles.
        let fall = try #require(try error("fall"))
        #expect(fall.description.contains("matches 3 photo titles"), "\(fall)")
        // Many matches: five listed, then an ellipsis.
        let o = try #require(try error("o"))
        guard case .ambiguousSelection(_, let listed, let total) = o else {
            Issue.record("\(o)")
            return
        }
        #expect(listed.count == 5 && total > 5)
        #expect(o.description.contains(", …;"), "\(o)")
    }

    @Test func anUnknownValueSuggestsTheClosestTitles() throws {
        let typo = try #require(try error("Bridalvail Fal"))
        guard case .unknownSelection(_, let suggestions) = typo else {
            Issue.record("\(typo)")
            return
        }
        #expect(suggestions.first == "Bridalveil Fall")
        #expect(typo.description.contains("did you mean 'Bridalveil Fall'"), "\(typo)")
        // The words of a title in another order.
        let reordered = try #require(try error("fall bridalveil"))
        guard case .unknownSelection(_, let wordsFound) = reordered else {
            Issue.record("\(reordered)")
            return
        }
        #expect(wordsFound == ["Bridalveil Fall"])
        let nothing = try #require(try error("Alcatraz at night, from the ferry"))
        guard case .unknownSelection(_, let none) = nothing else {
            Issue.record("\(nothing)")
            return
        }
        #expect(none.isEmpty, "\(none)")
    }
}

import MapComposer
import MapCore
import MapRenderer
import MapStyle
import PhotoSources
import Testing

/// The photographers on one map wear different pin colours, and their clusters match their pins.
struct PhotoMapBuilderPinColorsTests {
    /// "Dorothea Lange" and "Berenice Abbott" share a hash slot of the ten-colour palette, as do
    /// "Fan Ho" and "Garry Winogrand" (and photos without a photographer).
    private let photographers: [String?] = ["Dorothea Lange", "Berenice Abbott", "Fan Ho", "Garry Winogrand", nil]

    private func photos() throws -> [Photo] {
        try photographers.enumerated().map { index, photographer in
            Photo(
                id: "p\(index)", title: "Photo \(index)",
                coordinate: try RenderFixtures.coordinate(48.0 + Double(index), 2.0 + Double(index)),
                photographer: photographer)
        }
    }

    @Test func photographersOnOneMapGetDifferentPinColours() throws {
        for styleName in ["standard", "dark"] {
            let options = try PhotoMapBuilder(data: RenderFixtures.data).options(
                for: PhotoMapRequest(
                    photos: try photos(), style: try RenderFixtures.style(styleName), clustering: .never))
            let colors = options.annotations.map { annotation -> Color? in
                if case .pin(let color) = annotation.marker { return color }
                return nil
            }
            #expect(Set(colors.compactMap { $0 }).count == photographers.count, "\(styleName): \(colors)")
        }
    }

    @Test func thePinColourOfAPhotographerIsTheSameWhateverTheOrderOfThePhotos() throws {
        let builder = PhotoMapBuilder(data: RenderFixtures.data)
        let style = try RenderFixtures.style("standard")
        func colors(_ photos: [Photo]) throws -> [String: MapAnnotation.Marker] {
            let options = try builder.options(for: PhotoMapRequest(photos: photos, style: style, clustering: .never))
            return Dictionary(uniqueKeysWithValues: options.annotations.map { ($0.id, $0.marker) })
        }
        #expect(try colors(try photos()) == colors(try photos().reversed()))
    }
}

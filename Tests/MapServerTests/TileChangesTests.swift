import Foundation
import ImageCodec
import MapCore
import MapData
import MapStyle
import MapTestSupport
import Testing

@testable import MapComposer
@testable import MapRenderer
@testable import MapServer

/// `changedTiles(comparedWith:around:zooms:)` against the pixels: 150 seeded photos of five
/// photographers around Lisbon, clustered, one selected; a photo added, removed or moved far
/// away; every overlay tile of the area (and every tile reported) rendered under both contents
/// at zooms 0...13. Every tile whose pixels differ must be reported; few reported tiles may draw
/// the same (a frame's transparent corner grazing a tile, a change hidden under the callout).
struct TileChangesTests {
    /// The bundled basemap, shared by every test as a server keeps it.
    static let data = MapData(basemapDirectory: RepositoryFiles.basemap)

    static func coordinate(_ latitude: Double, _ longitude: Double) throws -> Coordinate {
        try Coordinate(latitude: latitude, longitude: longitude)
    }
    static let photographers = ["Ansel Adams", "Berenice Abbott", "Dorothea Lange", "Robert Capa", "Vivian Maier"]
    static let zooms = 0...13
    /// Lisbon, where the photos are.
    static let center = (latitude: 38.72, longitude: -9.14)

    private let style: Style

    init() throws {
        style = try Style.named("standard", in: RepositoryFiles.styles).style
    }

    /// 150 photos in 0.3° × 0.4° round Lisbon (some 33 × 35 km): half spread evenly, half in
    /// five crowds a kilometre or so across, where clusters of several photographers meet.
    private func photos() throws -> [MapAnnotation] {
        var random = SeededGenerator(seed: 14)
        let crowds = (0..<5).map { _ in
            (
                TileChangesTests.center.latitude + Double.random(in: -0.1...0.1, using: &random),
                TileChangesTests.center.longitude + Double.random(in: -0.15...0.15, using: &random)
            )
        }
        return try (0..<150).map { index in
            let photographer = TileChangesTests.photographers[Int.random(in: 0..<5, using: &random)]
            let latitude: Double
            let longitude: Double
            if index % 2 == 0 {
                let crowd = crowds[Int.random(in: 0..<5, using: &random)]
                latitude = crowd.0 + Double.random(in: -0.008...0.008, using: &random)
                longitude = crowd.1 + Double.random(in: -0.01...0.01, using: &random)
            } else {
                latitude = TileChangesTests.center.latitude + Double.random(in: -0.15...0.15, using: &random)
                longitude = TileChangesTests.center.longitude + Double.random(in: -0.2...0.2, using: &random)
            }
            return photo("photo-\(index)", try TileChangesTests.coordinate(latitude, longitude), by: photographer)
        }
    }

    private func photo(_ id: String, _ coordinate: Coordinate, by photographer: String) -> MapAnnotation {
        MapAnnotation(
            id: id, coordinate: coordinate, title: "Photo \(id)", subtitle: "\(photographer) · 2024-05-01",
            marker: .pin(.black), clusteringIdentifier: photographer)
    }

    /// Tile content as a photo map's: pins in their photographers' colours among those present,
    /// one cluster index, a selected photo.
    private func content(_ annotations: [MapAnnotation], clustered: Bool = true, selected: String? = "photo-10")
        -> MapTileContent
    {
        let colors = style.mapwright.pins.colors(forKeys: annotations.compactMap(\.clusteringIdentifier))
        var annotations = annotations
        for index in annotations.indices {
            annotations[index].marker = .pin(colors[annotations[index].clusteringIdentifier!]!)
        }
        let index = ClusterIndex(
            annotations.map { ClusterInput(coordinate: $0.coordinate, clusteringIdentifier: $0.clusteringIdentifier) })
        return MapTileContent(
            annotations: annotations, clusterIndex: clustered ? index : nil, clusterMemberName: "photos",
            selectedAnnotationID: selected)
    }

    private func renderer(_ content: MapTileContent, options: TileRenderOptions) throws -> MapTileRenderer {
        try MapTileRenderer(data: TileChangesTests.data, style: style, content: content, options: options)
    }

    /// The tiles at `zoom` within `marginPoints` of the rects.
    private func cover(_ rects: [MapRect], zoom: Int, tileSizePoints: Int, marginPoints: Double) throws -> Set<TileID> {
        let pointsPerMapPoint = ZoomLevel.zoomScale(atZoomLevel: Double(zoom) + log2(Double(tileSizePoints) / 256))
        let count = 1 << zoom
        let side = Double(tileSizePoints)
        var tiles = Set<TileID>()
        for rect in rects {
            let minX = rect.minX * pointsPerMapPoint - marginPoints
            let maxX = rect.maxX * pointsPerMapPoint + marginPoints
            let minY = rect.minY * pointsPerMapPoint - marginPoints
            let maxY = rect.maxY * pointsPerMapPoint + marginPoints
            let columns = Int((minX / side).rounded(.down))...Int((maxX / side).rounded(.down))
            let rows = max(0, Int((minY / side).rounded(.down)))...min(count - 1, Int((maxY / side).rounded(.down)))
            for row in rows {
                for column in columns {
                    tiles.insert(try TileID(z: zoom, x: ((column % count) + count) % count, y: row))
                }
            }
        }
        return tiles
    }

    /// The tiles' pixels, rendered a metatile at a time.
    private func render(_ renderer: MapTileRenderer, _ tiles: Set<TileID>) throws -> [TileID: RGBAImage] {
        var images: [TileID: RGBAImage] = [:]
        for (metatile, wanted) in Dictionary(grouping: tiles, by: renderer.metatile(containing:)) {
            for tile in try renderer.renderMetatile(metatile, only: wanted) { images[tile.tile] = tile.image }
        }
        return images
    }

    /// What a comparison found: tiles rendered, tiles whose pixels differ, tiles reported.
    private struct Outcome {
        var rendered = 0
        var differing = Set<TileID>()
        var reported = Set<TileID>()
        var overReported: Set<TileID> { reported.subtracting(differing) }
    }

    /// Reports the changed tiles between two contents and renders every tile of the area (with
    /// a margin of 512 points) and every tile reported under both, zoom by zoom.
    private func compare(
        _ name: String, old: MapTileContent, new: MapTileContent, around coordinates: [Coordinate], area: [MapRect],
        options: TileRenderOptions = TileRenderOptions(layers: .overlays),
        zooms: ClosedRange<Int> = TileChangesTests.zooms,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Outcome {
        let before = try renderer(old, options: options)
        let after = try renderer(new, options: options)
        let clock = ContinuousClock()
        var changes = ChangedTiles.all
        let elapsed = try clock.measure {
            changes = try before.changedTiles(comparedWith: after, around: coordinates, zooms: zooms)
        }
        guard case .tiles(let reported) = changes else {
            Issue.record("\(name): every tile reported changed", sourceLocation: sourceLocation)
            return Outcome()
        }
        var outcome = Outcome(reported: reported)
        var lines: [String] = []
        for zoom in zooms {
            let reportedHere = reported.filter { $0.z == zoom }
            let tiles = try cover(area, zoom: zoom, tileSizePoints: options.tileSizePoints, marginPoints: 512).union(
                reportedHere)
            let oldImages = try render(before, tiles)
            let newImages = try render(after, tiles)
            let differing = Set(tiles.filter { oldImages[$0]!.pixels != newImages[$0]!.pixels })
            outcome.rendered += tiles.count
            outcome.differing.formUnion(differing)
            lines.append("z\(zoom) \(differing.count)/\(reportedHere.count)/\(tiles.count)")
        }
        print(
            """
            \(name): \(outcome.differing.count) tiles differ, \(outcome.reported.count) reported \
            (\(outcome.overReported.count) alike), of \(outcome.rendered) rendered, found in \(elapsed); \
            per zoom differing/reported/rendered: \(lines.joined(separator: ", "))
            """)
        let missed = outcome.differing.subtracting(outcome.reported)
        #expect(
            missed.isEmpty, "\(name): tiles that differ but were not reported: \(missed.sorted().map(\.description))",
            sourceLocation: sourceLocation)
        return outcome
    }

    /// The photos' area, as one map rect.
    private func area(of annotations: [MapAnnotation]) -> MapRect {
        MapRect(enclosing: annotations.map { MapPoint($0.coordinate) })
    }

    /// Expects the reported tiles to be the differing ones give or take a few, and few of all.
    private func expectTight(_ outcome: Outcome, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        // A changed frame is a box round a round pin head, a slanting shadow or a disc: its
        // corners are transparent, and a change may hide under the callout. A tile that only
        // such a corner reaches into is reported yet draws the same: a few per change.
        #expect(
            outcome.reported.count <= outcome.differing.count + 2 + outcome.differing.count / 4,
            "\(name): \(outcome.overReported.count) of \(outcome.reported.count) reported tiles draw the same: \(outcome.overReported.sorted().map(\.description))",
            sourceLocation: sourceLocation)
        #expect(
            outcome.reported.count * 4 < outcome.rendered,
            "\(name): \(outcome.reported.count) of \(outcome.rendered) tiles reported", sourceLocation: sourceLocation)
        #expect(!outcome.differing.isEmpty, "\(name): the change should show", sourceLocation: sourceLocation)
    }

    @Test func aPhotoAddedNearTheSelectedOne() throws {
        let photos = try photos()
        let selected = photos[10].coordinate
        let added = photo(
            "photo-new", try TileChangesTests.coordinate(selected.latitude + 0.003, selected.longitude - 0.002),
            by: photos[10].clusteringIdentifier!)
        let outcome = try compare(
            "added", old: content(photos), new: content(photos + [added]), around: [added.coordinate],
            area: [area(of: photos)])
        expectTight(outcome, "added")
    }

    @Test func aPhotoAddedInACrowd() throws {
        let photos = try photos()
        let crowd = photos[40].coordinate
        let added = photo(
            "photo-new", try TileChangesTests.coordinate(crowd.latitude - 0.001, crowd.longitude + 0.002),
            by: "Vivian Maier")
        let outcome = try compare(
            "added in a crowd", old: content(photos), new: content(photos + [added]), around: [added.coordinate],
            area: [area(of: photos)])
        expectTight(outcome, "added in a crowd")
    }

    @Test func aPhotoRemoved() throws {
        let photos = try photos()
        var remaining = photos
        let removed = remaining.remove(at: 42)
        let outcome = try compare(
            "removed", old: content(photos), new: content(remaining), around: [removed.coordinate],
            area: [area(of: photos)])
        expectTight(outcome, "removed")
    }

    @Test func aPhotoMovedFarAway() throws {
        let photos = try photos()
        var moved = photos
        let porto = try TileChangesTests.coordinate(41.15, -8.61)
        moved[17].coordinate = porto
        let outcome = try compare(
            "moved", old: content(photos), new: content(moved), around: [photos[17].coordinate, porto],
            area: [area(of: photos), MapRect(enclosing: [MapPoint(porto)])])
        expectTight(outcome, "moved")
        // The places are found by comparing the annotations, without being told.
        let options = TileRenderOptions(layers: .overlays)
        let untold = try renderer(content(photos), options: options).changedTiles(
            comparedWith: try renderer(content(moved), options: options), around: [], zooms: TileChangesTests.zooms)
        #expect(untold == .tiles(outcome.reported))
    }

    @Test func aPhotoAddedToUnclusteredPinsOnLargeTiles() throws {
        let photos = try photos()
        let added = photo("photo-new", try TileChangesTests.coordinate(38.7, -9.1), by: "Robert Capa")
        let outcome = try compare(
            "added, unclustered, 512 @2x", old: content(photos, clustered: false),
            new: content(photos + [added], clustered: false),
            around: [added.coordinate], area: [area(of: photos)],
            options: TileRenderOptions(tileSizePoints: 512, scale: 2, metatileSize: 4, layers: .overlays))
        expectTight(outcome, "added, unclustered, 512 @2x")
    }

    /// Greedy clustering cascades: on a line of photos 0.8 cluster radii apart at zoom 12, the
    /// sweep pairs them from the west; one more photo at the west end shifts every pair along the
    /// line, and the pairs of pairs at every zoom out, some 10 tiles east of the change at zoom
    /// 12. The windows must grow to follow it.
    @Test func aCascadeAlongAChainOfPhotos() throws {
        // The cluster radius at zoom 12, 40 points of a 256 × 2^12-point world, in degrees.
        let spacing = 0.8 * 360 * 40 / (256 * 4096)
        let line = try (0..<80).map { index in
            photo(
                "chain-\(index)", try TileChangesTests.coordinate(38.7, -9.3 + Double(index) * spacing),
                by: "Ansel Adams"
            )
        }
        let added = photo("chain-new", try TileChangesTests.coordinate(38.7, -9.3 - spacing), by: "Ansel Adams")
        let outcome = try compare(
            "cascade", old: content(line, selected: nil), new: content(line + [added], selected: nil),
            around: [added.coordinate],
            area: [area(of: line + [added])])
        expectTight(outcome, "cascade")
        // The change reaches the line's far end.
        let start = try TileID(coordinate: added.coordinate, zoom: 12)
        #expect(outcome.differing.contains { $0.z == 12 && $0.x >= start.x + 8 })
    }

    /// Tiles with the basemap too: labels keep off the markers, so a photo added on Porto moves
    /// or drops Porto's labels; the labels of both contents' placements are compared.
    @Test func aPhotoAddedUnderTheLabels() throws {
        let photos = try photos()
        let added = photo("photo-new", try TileChangesTests.coordinate(41.1496, -8.6109), by: "Robert Capa")
        let options = TileRenderOptions(layers: .all)
        let outcome = try compare(
            "added, with the basemap", old: content(photos), new: content(photos + [added]), around: [added.coordinate],
            area: [area(of: photos), MapRect(enclosing: [MapPoint(added.coordinate)])], options: options, zooms: 0...6)
        expectTight(outcome, "added, with the basemap")
        let before = try renderer(content(photos), options: options)
        let after = try renderer(content(photos + [added]), options: options)
        let moved = try (0...6).filter { zoom in
            let world = ViewRect(x: 0, y: 0, width: 256 * exp2(Double(zoom)), height: 256 * exp2(Double(zoom)))
            return try before.placement(forTileZoom: zoom, meeting: world).labels.map(\.bounds)
                != after.placement(forTileZoom: zoom, meeting: world).labels.map(\.bounds)
        }
        #expect(!moved.isEmpty, "the photo should move a label")
    }

    @Test func anotherSelection() throws {
        let photos = try photos()
        let outcome = try compare(
            "selection", old: content(photos, selected: "photo-10"), new: content(photos, selected: "photo-11"),
            around: [],
            area: [area(of: photos)])
        expectTight(outcome, "selection")
    }

    @Test func sameContentChangesNothing() throws {
        let photos = try photos()
        let options = TileRenderOptions(layers: .overlays)
        let changes = try renderer(content(photos), options: options).changedTiles(
            comparedWith: try renderer(content(photos), options: options), around: [photos[3].coordinate], zooms: 0...16
        )
        #expect(changes == .tiles([]))
    }

    /// A new photographer whose colour slot another photographer had: that photographer's pins
    /// all change colour, everywhere.
    @Test func aPhotographerRecolouredChangesEveryTile() throws {
        let photos = try photos()
        let present = Set(photos.compactMap(\.clusteringIdentifier))
        let before = style.mapwright.pins.colors(forKeys: present)
        let newcomer = try #require(
            (1...500).lazy.map { "Photographer \($0)" }.first { name in
                let after = style.mapwright.pins.colors(forKeys: present.union([name]))
                return present.contains { before[$0] != after[$0] }
            })
        let added = photo("photo-new", try TileChangesTests.coordinate(38.7, -9.1), by: newcomer)
        let options = TileRenderOptions(layers: .overlays)
        let changes = try renderer(content(photos), options: options).changedTiles(
            comparedWith: try renderer(content(photos + [added]), options: options), around: [added.coordinate],
            zooms: TileChangesTests.zooms)
        #expect(changes == .all)
    }

    @Test func otherOverlaysOrClusteringChangeEveryTile() throws {
        let photos = try photos()
        let options = TileRenderOptions(layers: .overlays)
        var tracked = content(photos)
        tracked.overlays = [MapOverlay(shape: .polyline([photos[0].coordinate, photos[1].coordinate]))]
        let old = try renderer(content(photos), options: options)
        #expect(
            try old.changedTiles(comparedWith: try renderer(tracked, options: options), around: [], zooms: 0...3)
                == .all)
        #expect(
            try old.changedTiles(
                comparedWith: try renderer(content(photos, clustered: false), options: options), around: [],
                zooms: 0...3) == .all)
        #expect(throws: RendererError.self) { try old.changedTiles(comparedWith: old, around: [], zooms: 0...31) }
    }

    /// A photo moved a little and, as a library sorted by modification date would have it, to
    /// the end of the list, with no places given: comparing the annotations finds it, and the
    /// order of the others is kept (the index sweeps annotations in their order).
    @Test func aPhotoMovedToTheEndOfTheList() throws {
        let photos = try photos()
        var reordered = photos
        var edited = reordered.remove(at: 60)
        edited.coordinate = try TileChangesTests.coordinate(
            edited.coordinate.latitude + 0.01, edited.coordinate.longitude)
        reordered.append(edited)
        let outcome = try compare(
            "moved to the end", old: content(photos), new: content(reordered), around: [], area: [area(of: photos)])
        expectTight(outcome, "moved to the end")
    }

    @Test func longestIncreasingSubsequence() {
        #expect(AnnotationChanges.longestIncreasingSubsequence([]) == [])
        #expect(AnnotationChanges.longestIncreasingSubsequence([0, 1, 2, 3]) == [0, 1, 2, 3])
        #expect(AnnotationChanges.longestIncreasingSubsequence([0, 1, 5, 2, 3, 4]) == [0, 1, 2, 3, 4])
        #expect(AnnotationChanges.longestIncreasingSubsequence([3, 0, 1, 2]) == [0, 1, 2])
    }
}

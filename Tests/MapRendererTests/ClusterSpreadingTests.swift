import Foundation
import ImageCodec
import MapComposer
import MapCore
import MapRenderer
import MapStyle
import MapTestSupport
import Testing

/// Clusters of different photographers at one spot are spread on a ring instead of hiding each
/// other.
struct ClusterSpreadingTests {
    private let photographers = ["Ansel Adams", "Dorothea Lange", "Li Ming", "Imogen Cunningham"]

    /// `perPhotographer` photos of each of `count` photographers, all on one point (Yosemite
    /// Valley), and a few of the last one a little east, so that its cluster only partly overlaps.
    private func annotations(photographers count: Int, perPhotographer: Int = 5) throws -> [MapAnnotation] {
        let colors = try RenderFixtures.style("standard").mapwright.pins.colors(forKeys: photographers.prefix(count))
        var annotations: [MapAnnotation] = []
        for (index, photographer) in photographers.prefix(count).enumerated() {
            let shift = index == 3 ? 0.05 : 0
            for photo in 0..<(perPhotographer + index * 20) {
                annotations.append(
                    MapAnnotation(
                        id: "\(photographer) \(photo)",
                        coordinate: try RenderFixtures.coordinate(37.7456, -119.5936 + shift),
                        title: "\(photographer) \(photo)", marker: .pin(colors[photographer]!),
                        clusteringIdentifier: photographer))
            }
        }
        return annotations
    }

    private func options(_ annotations: [MapAnnotation], style: Style) throws -> MapSnapshotOptions {
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(37.7456, -119.57), zoomLevel: 10, size: ViewSize(width: 320, height: 220),
            scale: 2)
        return MapSnapshotOptions(
            viewport: viewport, style: style, annotations: annotations,
            clusterIndex: ClusterIndex(
                annotations.map {
                    ClusterInput(coordinate: $0.coordinate, clusteringIdentifier: $0.clusteringIdentifier)
                }),
            clusterMemberName: "photos", showsAttribution: false)
    }

    @Test(arguments: [2, 3, 4])
    func clustersAtOneSpotDoNotOverlap(photographers count: Int) throws {
        let options = try options(try annotations(photographers: count), style: try RenderFixtures.plainStyle())
        let frames = RenderFixtures.snapshotter.layout(options).markerFrames
        #expect(frames.count == count, "one cluster per photographer")
        // Cluster frames are the squares around their discs (halo included): discs must not meet.
        for i in frames.indices {
            for j in frames.indices where j > i {
                let distance = hypot(frames[i].midX - frames[j].midX, frames[i].midY - frames[j].midY)
                #expect(
                    distance >= (frames[i].size.width + frames[j].size.width) / 2,
                    "\(frames[i]) and \(frames[j]) overlap")
            }
        }
        // Spread, not scattered: each stays within two disc widths of the spot.
        let spot = try #require(options.viewport.point(for: RenderFixtures.coordinate(37.7456, -119.5936)))
        for frame in frames { #expect(hypot(frame.midX - spot.x, frame.midY - spot.y) < 2 * frame.size.width + 30) }
        // The same layout every time.
        #expect(RenderFixtures.snapshotter.layout(options).markerFrames == frames)
    }

    @Test func aChainOfOverlappingClustersSharesTheMiddleOnesRing() throws {
        // Three photographers' clusters 30 points apart in a row at zoom 10: the first and the
        // last do not overlap, each overlaps the middle one.
        let step = 30 * 360 / (256 * 1024.0)
        let colors = try RenderFixtures.style("standard").mapwright.pins.colors(forKeys: photographers.prefix(3))
        var annotations: [MapAnnotation] = []
        for (index, photographer) in photographers.prefix(3).enumerated() {
            for photo in 0..<5 {
                annotations.append(
                    MapAnnotation(
                        id: "\(photographer) \(photo)",
                        coordinate: try RenderFixtures.coordinate(37.7456, -119.6 + Double(index) * step),
                        title: "", marker: .pin(colors[photographer]!), clusteringIdentifier: photographer))
            }
        }
        let frames = RenderFixtures.snapshotter.layout(try options(annotations, style: try RenderFixtures.plainStyle()))
            .markerFrames
        #expect(frames.count == 3)
        for i in frames.indices {
            for j in frames.indices where j > i {
                let distance = hypot(frames[i].midX - frames[j].midX, frames[i].midY - frames[j].midY)
                #expect(
                    distance >= (frames[i].size.width + frames[j].size.width) / 2,
                    "\(frames[i]) and \(frames[j]) overlap")
            }
        }
    }

    @Test func spreadClustersWearTheirPhotographersPinColours() throws {
        let annotations = try annotations(photographers: 3)
        let options = try options(annotations, style: try RenderFixtures.plainStyle())
        let image = try RenderFixtures.snapshotter.snapshot(options).image
        let frames = RenderFixtures.snapshotter.layout(options).markerFrames
        var seen: Set<String> = []
        for frame in frames {
            // Below the count, inside the disc: the cluster's own colour.
            let pixel = image[x: Int(frame.midX * 2), y: Int((frame.midY + frame.size.height * 0.3) * 2)]
            seen.insert(String(format: "#%02x%02x%02x", pixel.red, pixel.green, pixel.blue))
        }
        let pins = Set(
            annotations.map { annotation -> String in
                guard case .pin(let color) = annotation.marker else { return "" }
                return color.hex
            })
        #expect(seen == pins)
    }

    @Test func clustersOfFourPhotographersAtOneSpotAreDrawnAroundIt() throws {
        let options = try options(try annotations(photographers: 4), style: try RenderFixtures.style("standard"))
        assertRenderMatches(try RenderFixtures.snapshotter.snapshot(options).image, named: "clusters-one-spot@2x")
    }
}

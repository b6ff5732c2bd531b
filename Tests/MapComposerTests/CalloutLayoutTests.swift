import Foundation
import MapCore
import MapStyle
import Testing

@testable import MapComposer
@testable import MapRenderer

/// Callouts cut titles only when the image has no room, and a cluster's callout names the
/// selected photo first.
struct CalloutLayoutTests {
    private static let longTitle =
        "Half Dome and the Merced River from Glacier Point, an hour before sunset in late October"

    private func options(width: Double, annotations: [MapAnnotation], selected: String, clustered: Bool = false) throws
        -> MapSnapshotOptions
    {
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(37.73, -119.57), zoomLevel: 12, size: ViewSize(width: width, height: 300))
        let index =
            clustered
            ? ClusterIndex(
                annotations.map {
                    ClusterInput(coordinate: $0.coordinate, clusteringIdentifier: $0.clusteringIdentifier)
                }) : nil
        return MapSnapshotOptions(
            viewport: viewport, style: try RenderFixtures.plainStyle(), annotations: annotations, clusterIndex: index,
            clusterMemberName: "photos", selectedAnnotationID: selected, showsAttribution: false)
    }

    /// The callout the renderer lays out for the options, through the marker layer as a render
    /// asks for it.
    private func callout(_ options: MapSnapshotOptions) throws -> Callout {
        let viewport = options.viewport
        let visible = try #require(
            viewport.mapRect(for: ViewRect(x: 0, y: 0, width: viewport.size.width, height: viewport.size.height)))
        let markers = try #require(options.markers)
        let layout = markers.layOut(in: viewport, visibleMapRect: visible, style: options.style.mapwright)
        let canvas = try Canvas(widthPoints: 1, heightPoints: 1, scale: 1, target: .image, fonts: .pinned)
        return try #require(layout.callout(style: options.style.mapwright, cairo: canvas.cairo) as? Callout)
    }

    private func pin(_ id: String, title: String, subtitle: String? = nil) throws -> MapAnnotation {
        MapAnnotation(
            id: id, coordinate: try RenderFixtures.coordinate(37.73, -119.57), title: title, subtitle: subtitle,
            marker: .pin(try Color(css: "red")), clusteringIdentifier: "Ansel Adams")
    }

    @Test func aLongTitleWidensTheCalloutPastMaxWidthInsteadOfBeingCut() throws {
        let options = try options(
            width: 900, annotations: [try pin("a", title: Self.longTitle, subtitle: "Ansel Adams · 1927-10-24")],
            selected: "a")
        let callout = try callout(options)
        #expect(!callout.title.isEllipsized)
        #expect(callout.bubble.size.width > options.style.mapwright.callout.maxWidth)
        #expect(callout.bubble.size.width <= 900 - 2 * Callout.growthMarginPoints)
        // What the renderer reports for framing is the same callout.
        #expect(RenderFixtures.snapshotter.layout(options).calloutFrame == callout.frame)
    }

    @Test func aTitleIsCutOnlyWhenTheImageHasNoRoom() throws {
        let narrow = try callout(
            try options(width: 300, annotations: [try pin("a", title: Self.longTitle)], selected: "a"))
        #expect(narrow.title.isEllipsized)
        #expect(narrow.bubble.size.width == 300 - 2 * Callout.marginPoints)
        // A short title keeps a snug callout.
        let short = try callout(
            try options(width: 900, annotations: [try pin("a", title: "Taft Point")], selected: "a"))
        #expect(!short.title.isEllipsized && short.bubble.size.width < 200)
    }

    @Test func aLongSubtitleStaysWithinMaxWidth() throws {
        let options = try options(
            width: 900, annotations: [try pin("a", title: "Taft Point", subtitle: Self.longTitle)], selected: "a")
        let callout = try callout(options)
        #expect(callout.subtitle?.isEllipsized == true)
        #expect(callout.bubble.size.width <= options.style.mapwright.callout.maxWidth)
    }

    @Test func aClustersCalloutNamesTheSelectedPhotoFirst() throws {
        let annotations = try (0..<8).map { try pin("p\($0)", title: "Photo \($0)") }
        for selected in ["p6", "p0", "p3"] {
            let callout = try callout(
                try options(width: 600, annotations: annotations, selected: selected, clustered: true))
            #expect(callout.title.text == "8 photos")
            let titles = try #require(callout.subtitle?.text).components(separatedBy: ", ")
            #expect(titles.first == "Photo \(selected.dropFirst())", "\(titles)")
            #expect(titles.count == 4 && titles.last == "…" && Set(titles).count == 4, "\(titles)")
        }
    }
}

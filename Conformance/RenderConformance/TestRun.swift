import Foundation
import ImageCodec
import ImageCompare
import MapCore
import MapData
import MapRenderer
import MapStyle

/// What one test came to.
struct Verdict: Sendable {
    enum Outcome: String, Sendable {
        /// Within the test's allowance of one of its expected images.
        case passed
        /// Rendered, but more pixels differ than the allowance.
        case failed
        /// Not rendered: the style, an operation or the view could not be used.
        case error
    }

    let test: SuiteTest
    let outcome: Outcome
    /// The share of differing pixels against the closest expected image (failed and passed tests).
    let differingFraction: Double?
    /// The allowance it was judged by.
    let allowance: Double
    /// Why a test is an error, in one line.
    let reason: String?
    /// The render, kept for `--diffs`.
    let image: RGBAImage?
}

/// Renders a test with Mapwright and judges it as GL's harness does.
enum TestRun {
    /// GL's pixelmatch threshold; anti-aliased pixels are detected and not counted.
    static let compareOptions = DiffOptions(threshold: 0.13, includeAntiAliased: false)

    static func run(_ test: SuiteTest, suite: URL, basemap: URL) -> Verdict {
        var allowance = 0.00015
        do {
            let data = try Data(contentsOf: test.directory.appendingPathComponent("style.json"))
            var document = try StyleDocument(data: data, suite: suite)
            let metadata = TestMetadata(document.testMetadata)
            allowance = metadata.allowance
            try document.apply(metadata.operations)
            let image = try render(document, metadata: metadata, test: test, basemap: basemap)
            var closest: Double?
            for url in test.expectedImages() {
                let expected: RGBAImage
                do { expected = try RGBAImage(contentsOf: url) } catch {
                    throw RunnerFailure("\(url.lastPathComponent): \(error)")
                }
                guard expected.width == image.width, expected.height == image.height else {
                    throw RunnerFailure(
                        "the render is \(image.width)x\(image.height), \(url.lastPathComponent) \(expected.width)x\(expected.height)"
                    )
                }
                let result = try compare(expected, image, options: compareOptions)
                closest = min(closest ?? .infinity, result.ratio)
            }
            guard let closest else { throw RunnerFailure("no expected image") }
            return Verdict(
                test: test, outcome: closest <= allowance ? .passed : .failed, differingFraction: closest,
                allowance: allowance,
                reason: nil, image: image)
        } catch {
            // One line, without the test's own file name or the suite's folder.
            let line = "\(error)".replacingOccurrences(of: "\n", with: " ")
                .replacingOccurrences(of: test.id + "/style.json: ", with: "")
                .replacingOccurrences(of: suite.path + "/", with: "")
            return Verdict(
                test: test, outcome: .error, differingFraction: nil, allowance: allowance, reason: line, image: nil)
        }
    }

    /// The style's view (`center`, `zoom` in MapLibre's convention, `bearing`, `pitch`) at the
    /// test's size and pixel ratio, rendered without an attribution.
    static func render(_ document: StyleDocument, metadata: TestMetadata, test: SuiteTest, basemap: URL) throws
        -> RGBAImage
    {
        let (style, _) = try Style.parse(
            try document.resolvedData(), file: test.id + "/style.json", baseURL: test.directory)
        let json = document.json
        let center = (json["center"] as? [NSNumber]).map { $0.map(\.doubleValue) } ?? [0, 0]
        guard center.count == 2 else { throw RunnerFailure("the style's center is not [lon, lat]") }
        let glZoom = (json["zoom"] as? NSNumber)?.doubleValue ?? 0
        // MapLibre's zoom counts a 512-point world at zoom 0; Mapwright's viewport counts 256-point tiles.
        let viewport = try Viewport(
            center: try Coordinate(latitude: center[1], longitude: center[0]), zoomLevel: glZoom + 1,
            size: ViewSize(width: Double(metadata.width), height: Double(metadata.height)), scale: metadata.pixelRatio,
            headingDegrees: (json["bearing"] as? NSNumber)?.doubleValue ?? 0,
            pitchDegrees: (json["pitch"] as? NSNumber)?.doubleValue ?? 0)
        let data = MapData(basemapDirectory: basemap)
        for (name, added) in document.addedImages {
            let image = try RGBAImage(pngData: try Data(contentsOf: added.file))
            data.addImage(image, named: name, pixelRatio: added.pixelRatio, sdf: added.sdf)
        }
        let snapshotter = MapSnapshotter(data: data)
        var options = MapSnapshotOptions(viewport: viewport, style: style, showsAttribution: false)
        options.featureStates = document.featureStates
        return try snapshotter.snapshot(options).image
    }
}

import Foundation
import Testing

@testable import MapCore

struct FlightPathTests {
    private let view = ViewSize(width: 1024, height: 768)

    private func stop(_ latitude: Double, _ longitude: Double, zoom: Double, heading: Double = 0, pitch: Double = 0)
        throws -> FlightPath.Stop
    {
        FlightPath.Stop(
            centerCoordinate: try Coordinate(latitude: latitude, longitude: longitude), zoomLevel: zoom,
            headingDegrees: heading, pitchDegrees: pitch)
    }

    private var paris: Coordinate { get throws { try Coordinate(latitude: 48.8566, longitude: 2.3522) } }

    // MARK: - Ends

    @Test func theEndsAreTheGivenStopsBitForBit() throws {
        let from = try stop(48.8566, 2.3522, zoom: 12.3, heading: 30.7, pitch: 12.5)
        let to = try stop(-33.8688, 151.2093, zoom: 9.9, heading: 201.1, pitch: 47.25)
        let path = try FlightPath(from: from, to: to, viewSize: view)
        func bits(_ stop: FlightPath.Stop) -> [UInt64] {
            [
                stop.centerCoordinate.latitude, stop.centerCoordinate.longitude, stop.zoomLevel, stop.headingDegrees,
                stop.pitchDegrees,
            ]
            .map(\.bitPattern)
        }
        #expect(bits(path.stop(at: 0)) == bits(from))
        #expect(bits(path.stop(at: 1)) == bits(to))
        #expect(bits(path.stop(at: -0.5)) == bits(from) && bits(path.stop(at: 7)) == bits(to), "progress is clamped")
        let stops = path.stops(count: 9)
        #expect(stops.count == 9)
        #expect(bits(stops[0]) == bits(from) && bits(stops[8]) == bits(to))
        #expect(path.stops(count: 1) == [from])
        #expect(path.stops(count: 0).isEmpty)
    }

    // MARK: - Shape

    @Test func betweenDistantPlacesTheCameraRisesThenDescends() throws {
        let path = try FlightPath(
            from: try stop(48.8566, 2.3522, zoom: 12), to: try stop(-33.8688, 151.2093, zoom: 12), viewSize: view)
        let zooms = path.stops(count: 101).map(\.zoomLevel)
        let lowest = zooms.indices.min { zooms[$0] < zooms[$1] }!
        #expect(zooms[50] < 6, "the middle of the flight is at zoom \(zooms[50])")
        #expect(lowest == 50, "equal end zoom levels put the highest point halfway")
        for index in 1...lowest { #expect(zooms[index] < zooms[index - 1]) }
        for index in lowest..<100 { #expect(zooms[index] < zooms[index + 1]) }
        #expect(path.length > 9, "some nine units, against 0.2 for a 1 km hop")
    }

    @Test func betweenNearPlacesTheZoomBarelyChanges() throws {
        let from = try paris
        let to = from.coordinate(at: 1000, facing: 60)
        let path = try FlightPath(
            from: FlightPath.Stop(centerCoordinate: from, zoomLevel: 14),
            to: FlightPath.Stop(centerCoordinate: to, zoomLevel: 14), viewSize: view)
        let stops = path.stops(count: 21)
        #expect(stops.allSatisfy { $0.zoomLevel <= 14 && $0.zoomLevel > 13.95 }, "\(stops.map(\.zoomLevel))")
        // About 160 points of panning in a 1024-point view: ρ · 160 / 1024.
        #expect(path.length > 0.15 && path.length < 0.3, "length \(path.length)")
        let middle = stops[10].centerCoordinate
        #expect(abs(from.distance(to: middle) - 500) < 5, "the middle stop is halfway: \(from.distance(to: middle)) m")
    }

    @Test func fijiToSamoaGoesEastAcrossTheAntimeridian() throws {
        let path = try FlightPath(
            from: try stop(-17.7134, 178.0650, zoom: 8), to: try stop(-13.7590, -172.1046, zoom: 8), viewSize: view)
        let longitudes = path.stops(count: 51).map(\.centerCoordinate.longitude)
        #expect(longitudes.allSatisfy { abs($0) >= 172 }, "never towards longitude 0: \(longitudes)")
        let eastward = longitudes.map { $0 < 0 ? $0 + 360 : $0 }
        for index in 1..<eastward.count { #expect(eastward[index] > eastward[index - 1]) }
        #expect(eastward.contains { $0 > 180 } && eastward.contains { $0 < 180 })
    }

    @Test func onTheSameCentreOnlyTheZoomChangesEvenly() throws {
        let center = try paris
        let path = try FlightPath(
            from: FlightPath.Stop(centerCoordinate: center, zoomLevel: 3),
            to: FlightPath.Stop(centerCoordinate: center, zoomLevel: 15), viewSize: view)
        // The paper's special case: S = |ln(w1/w0)| / ρ.
        #expect(abs(path.length - 12 * log(2.0) / 1.42) < 1e-12)
        let stops = path.stops(count: 25)
        for (index, stop) in stops.enumerated() {
            #expect(abs(stop.centerCoordinate.latitude - center.latitude) < 1e-9)
            #expect(abs(stop.centerCoordinate.longitude - center.longitude) < 1e-9)
            #expect(abs(stop.zoomLevel - (3 + 12 * Double(index) / 24)) < 1e-12)
            if index > 0 { #expect(stop.zoomLevel > stops[index - 1].zoomLevel) }
        }
        let back = try FlightPath(
            from: FlightPath.Stop(centerCoordinate: center, zoomLevel: 15),
            to: FlightPath.Stop(centerCoordinate: center, zoomLevel: 3), viewSize: view)
        #expect(back.length == path.length)
        #expect(abs(back.stop(at: 0.25).zoomLevel - 12) < 1e-12)
    }

    @Test func theSameCentreAndZoomIsAPathOfLengthZeroThatStillTurnsAndTilts() throws {
        let center = try paris
        let path = try FlightPath(
            from: FlightPath.Stop(centerCoordinate: center, zoomLevel: 10, headingDegrees: 10, pitchDegrees: 0),
            to: FlightPath.Stop(centerCoordinate: center, zoomLevel: 10, headingDegrees: 50, pitchDegrees: 40),
            viewSize: view)
        #expect(path.length == 0)
        #expect(path.durationSeconds() == 0)
        let middle = path.stop(at: 0.5)
        #expect(middle.zoomLevel == 10)
        #expect(abs(middle.centerCoordinate.latitude - center.latitude) < 1e-9)
        #expect(abs(middle.headingDegrees - 30) < 1e-12 && abs(middle.pitchDegrees - 20) < 1e-12)
    }

    @Test func headingTurnsTheShorterWayRoundAndIsWrapped() throws {
        let path = try FlightPath(
            from: try stop(10, 10, zoom: 5, heading: 350), to: try stop(12, 14, zoom: 6, heading: 10), viewSize: view)
        let headings = path.stops(count: 41).map(\.headingDegrees)
        #expect(headings.allSatisfy { (0..<360).contains($0) })
        #expect(headings.allSatisfy { $0 >= 350 || $0 <= 10 }, "\(headings)")
        #expect(path.stop(at: 0.5).headingDegrees == 0)
        #expect(
            abs(path.stop(at: 0.25).headingDegrees - 355) < 1e-12 && abs(path.stop(at: 0.75).headingDegrees - 5) < 1e-12
        )
        let backwards = try FlightPath(
            from: try stop(10, 10, zoom: 5, heading: 10), to: try stop(12, 14, zoom: 6, heading: 350), viewSize: view)
        #expect(abs(backwards.stop(at: 0.25).headingDegrees - 5) < 1e-12)
    }

    // MARK: - Outside reference: the paper's formulas

    /// Web Mercator screen points at `zoom`, written independently of MapPoint (ln tan, not atanh sin).
    private func screenPoint(_ coordinate: Coordinate, zoom: Double) -> (x: Double, y: Double) {
        let size = 256 * pow(2, zoom)
        let latitude = coordinate.latitude * .pi / 180
        return ((coordinate.longitude + 180) / 360 * size, (0.5 - log(tan(.pi / 4 + latitude / 2)) / (2 * .pi)) * size)
    }

    private func coordinate(x: Double, y: Double, zoom: Double) -> (latitude: Double, longitude: Double) {
        let size = 256 * pow(2, zoom)
        var longitude = x / size * 360 - 180
        longitude -= ((longitude + 180) / 360).rounded(.down) * 360
        return (atan(sinh(.pi * (1 - 2 * y / size))) * 180 / .pi, longitude)
    }

    /// van Wijk & Nuij (2003), section 4: w(s) and u(s) from b_i, r_i computed as the paper writes them.
    @Test(arguments: [
        (51.5074, -0.1278, 10.0, 41.9028, 12.4964, 13.0, 800.0, 600.0, 1.42),
        (40.7128, -74.0060, 5.0, 35.6762, 139.6503, 7.5, 400.0, 900.0, 2.0),  // the short way is west, across 180°
        (-33.8688, 151.2093, 11.0, -37.8136, 144.9631, 4.0, 1280.0, 720.0, 1.0),
    ])
    func theCameraFollowsThePapersClosedForm(
        latitude0: Double, longitude0: Double, zoom0: Double, latitude1: Double, longitude1: Double, zoom1: Double,
        width: Double, height: Double, rho: Double
    ) throws {
        let from = try stop(latitude0, longitude0, zoom: zoom0)
        let to = try stop(latitude1, longitude1, zoom: zoom1)
        let path = try FlightPath(from: from, to: to, viewSize: ViewSize(width: width, height: height), curvature: rho)

        let p0 = screenPoint(from.centerCoordinate, zoom: zoom0)
        var p1 = screenPoint(to.centerCoordinate, zoom: zoom0)
        let worldPoints = 256 * pow(2, zoom0)
        if p1.x - p0.x > worldPoints / 2 { p1.x -= worldPoints }
        if p1.x - p0.x < -worldPoints / 2 { p1.x += worldPoints }
        let u0 = 0.0
        let u1 = hypot(p1.x - p0.x, p1.y - p0.y)
        let w0 = max(width, height)
        let w1 = w0 / pow(2, zoom1 - zoom0)
        func b(_ i: Int) -> Double {
            let wi = i == 0 ? w0 : w1
            let sign: Double = i == 0 ? 1 : -1
            return (w1 * w1 - w0 * w0 + sign * pow(rho, 4) * pow(u1 - u0, 2)) / (2 * wi * rho * rho * (u1 - u0))
        }
        func r(_ i: Int) -> Double { log(-b(i) + (b(i) * b(i) + 1).squareRoot()) }
        let r0 = r(0)
        let S = (r(1) - r0) / rho
        #expect(abs(path.length - S) < 1e-9 * S, "S \(S), path \(path.length)")

        for t in [0.1, 0.37, 0.5, 0.81] {
            let s = t * S
            let w = w0 * cosh(r0) / cosh(rho * s + r0)
            let u = w0 / (rho * rho) * (cosh(r0) * tanh(rho * s + r0) - sinh(r0)) + u0
            let expectedZoom = zoom0 + log2(w0 / w)
            let fraction = u / u1
            let expected = coordinate(
                x: p0.x + (p1.x - p0.x) * fraction, y: p0.y + (p1.y - p0.y) * fraction, zoom: zoom0)
            let stop = path.stop(at: t)
            #expect(abs(stop.zoomLevel - expectedZoom) < 1e-8, "t \(t): zoom \(stop.zoomLevel), paper \(expectedZoom)")
            #expect(abs(stop.centerCoordinate.latitude - expected.latitude) < 1e-8, "t \(t)")
            var longitudeDifference = stop.centerCoordinate.longitude - expected.longitude
            longitudeDifference -= (longitudeDifference / 360).rounded() * 360
            #expect(
                abs(longitudeDifference) < 1e-8,
                "t \(t): longitude \(stop.centerCoordinate.longitude), paper \(expected.longitude)")
        }
    }

    @Test func evenStepsCoverEqualDistancesInThePapersMetric() throws {
        let from = try stop(48.8566, 2.3522, zoom: 12)
        let to = try stop(-33.8688, 151.2093, zoom: 10)
        let path = try FlightPath(from: from, to: to, viewSize: view)
        let stops = path.stops(count: 201)
        let w0 = max(view.width, view.height)
        let rho = FlightPath.defaultCurvature
        // Positions and widths in screen points at the start's zoom level.
        let start = screenPoint(from.centerCoordinate, zoom: 12)
        let worldPoints = 256 * pow(2, 12.0)
        func position(_ stop: FlightPath.Stop) -> (x: Double, y: Double) {
            var point = screenPoint(stop.centerCoordinate, zoom: 12)
            point.x -= ((point.x - start.x) / worldPoints).rounded() * worldPoints
            return point
        }
        var steps: [Double] = []
        for index in 1..<stops.count {
            let a = stops[index - 1]
            let b = stops[index]
            let wa = w0 * pow(2, 12 - a.zoomLevel)
            let wb = w0 * pow(2, 12 - b.zoomLevel)
            let pa = position(a)
            let pb = position(b)
            let du = hypot(pb.x - pa.x, pb.y - pa.y)
            // ds² = ρ²·du²/w² + (dw/w)²/ρ², with w the steps' geometric mean.
            steps.append((pow(rho * du, 2) / (wa * wb) + pow(log(wb / wa) / rho, 2)).squareRoot())
        }
        let expected = path.length / 200
        for (index, step) in steps.enumerated() {
            #expect(abs(step - expected) < 0.01 * expected, "step \(index): \(step), expected \(expected)")
        }
        #expect(abs(steps.reduce(0, +) - path.length) < 1e-3 * path.length)
        #expect(abs(path.durationSeconds() - path.length / 1.2) < 1e-12)
    }

    // MARK: - Validation

    @Test func badStopsViewsAndCurvaturesAreRejected() throws {
        let good = try stop(0, 0, zoom: 3)
        #expect(throws: MapCoreError.invalidZoomLevel(31, range: 0...30)) {
            try FlightPath(from: good, to: try stop(0, 0, zoom: 31), viewSize: view)
        }
        #expect(throws: MapCoreError.invalidZoomLevel(-1, range: 0...30)) {
            try FlightPath(from: try stop(0, 0, zoom: -1), to: good, viewSize: view)
        }
        #expect(throws: MapCoreError.invalidCamera(name: "pitch", value: 85, range: 0...80)) {
            try FlightPath(from: good, to: try stop(0, 0, zoom: 3, pitch: 85), viewSize: view)
        }
        #expect(throws: MapCoreError.self) {
            try FlightPath(from: good, to: try stop(0, 0, zoom: 3, heading: .nan), viewSize: view)
        }
        #expect(throws: MapCoreError.invalidViewportSize(width: 0, height: 10)) {
            try FlightPath(from: good, to: good, viewSize: ViewSize(width: 0, height: 10))
        }
        #expect(throws: MapCoreError.invalidCurvature(0)) {
            try FlightPath(from: good, to: good, viewSize: view, curvature: 0)
        }
        #expect(throws: MapCoreError.invalidCurvature(.infinity)) {
            try FlightPath(from: good, to: good, viewSize: view, curvature: .infinity)
        }
        #expect(MapCoreError.invalidCurvature(-1).description == "flight curvature -1.0 is not a positive number")
    }

    @Test func headingsOutsideZeroToThreeSixtyAreWrappedAtTheEnds() throws {
        let path = try FlightPath(
            from: try stop(0, 0, zoom: 3, heading: -90), to: try stop(0, 1, zoom: 3, heading: 450), viewSize: view)
        #expect(path.start.headingDegrees == 270 && path.stop(at: 0).headingDegrees == 270)
        #expect(path.end.headingDegrees == 90 && path.stop(at: 1).headingDegrees == 90)
        #expect(
            abs(path.stop(at: 0.5).headingDegrees - 0) < 1e-12 || abs(path.stop(at: 0.5).headingDegrees - 180) < 1e-12)
    }

    @Test func aStopFromAViewportKeepsItsCamera() throws {
        let viewport = try Viewport(
            center: try paris, zoomLevel: 11.5, size: view, headingDegrees: 20, pitchDegrees: 30)
        let stop = FlightPath.Stop(viewport)
        #expect(stop.centerCoordinate == viewport.camera.centerCoordinate)
        #expect(stop.zoomLevel == viewport.zoomLevel)
        #expect(stop.headingDegrees == 20 && stop.pitchDegrees == 30)
    }
}

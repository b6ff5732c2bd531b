import ArgumentParser
import Foundation
import MapCore

/// Parsers for the value formats the commands share. Every error is one line that names the
/// option, the expected form with an example, and what was wrong, in the order people write
/// the values: `--bbox: SOUTH 50 is north of NORTH 40 (the order is WEST,SOUTH,EAST,NORTH)`.
///
/// Values with a leading minus (`--center -33.9,18.4`) reach these parsers because every option
/// parses its next word unconditionally (see `PackageLayoutTests` and `NegativeNumberTests`).
enum ArgumentValues {
    /// A comma-separated form: its field names and an example, for messages.
    struct Form: Sendable {
        var fields: [String]
        var example: String
        var unit = "degrees"

        static let coordinate = Form(fields: ["LAT", "LON"], example: "-33.9,18.4")
        static let region = Form(fields: ["LAT", "LON", "LATDELTA", "LONDELTA"], example: "48.85,2.35,0.2,0.3")
        static let boundingBox = Form(fields: ["WEST", "SOUTH", "EAST", "NORTH"], example: "-10,35,5,45")
        static let span = Form(fields: ["LATDELTA", "LONDELTA"], example: "0.2,0.3")
        static let circle = Form(
            fields: ["LAT", "LON", "METERS"], example: "-33.9,18.4,5000", unit: "degrees and meters")
        static let greatCircle = Form(fields: ["LAT", "LON", "LAT", "LON"], example: "51.47,-0.45,-33.94,151.18")
        static let viewPoint = Form(fields: ["X", "Y"], example: "400,300", unit: "points")
        static let eye = Form(
            fields: ["LAT", "LON", "ALTITUDE_M"], example: "48.85,2.27,1500", unit: "degrees and meters")

        var text: String { fields.joined(separator: ",") }
    }

    /// Parses `LAT,LON` in degrees, e.g. `-33.9,18.4`. For `transform:`; ArgumentParser names
    /// the option and the value before the message.
    static func coordinate(_ text: String) throws -> Coordinate {
        let numbers = try numbers(text, form: .coordinate, option: nil)
        return try coordinate(numbers[0], numbers[1], option: nil, fields: ("LAT", "LON"))
    }

    /// Parses `WxH` in points, e.g. `1200x800`.
    static func size(_ text: String) throws -> ViewSize {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
            width.isFinite, height.isFinite, width > 0, height > 0
        else {
            throw ValidationError("expected WIDTHxHEIGHT in points with positive numbers, e.g. 1200x800")
        }
        return ViewSize(width: width, height: height)
    }

    /// Parses `X,Y` in view points, e.g. `400,300`.
    static func viewPoint(_ text: String) throws -> ViewPoint {
        let numbers = try numbers(text, form: .viewPoint, option: nil)
        return ViewPoint(x: numbers[0], y: numbers[1])
    }

    /// Parses `--region`'s `LAT,LON,LATDELTA,LONDELTA` in degrees, e.g. `48.85,2.35,0.2,0.3`;
    /// messages name `option`.
    static func region(_ text: String, option: String = "--region") throws -> CoordinateRegion {
        let numbers = try numbers(text, form: .region, option: option)
        let center = try coordinate(numbers[0], numbers[1], option: option, fields: ("LAT", "LON"))
        return CoordinateRegion(center: center, span: try span(numbers[2], numbers[3], option: option))
    }

    /// Parses `--span`'s `LATDELTA,LONDELTA` in degrees around `center`.
    static func region(center: Coordinate, span text: String) throws -> CoordinateRegion {
        let numbers = try numbers(text, form: .span, option: "--span")
        return CoordinateRegion(center: center, span: try span(numbers[0], numbers[1], option: "--span"))
    }

    /// Parses `--bbox`'s `WEST,SOUTH,EAST,NORTH` in degrees, e.g. `-10,35,5,45`; EAST < WEST
    /// crosses the antimeridian; messages name `option`.
    static func boundingBox(_ text: String, option: String = "--bbox") throws -> CoordinateRegion {
        let numbers = try numbers(text, form: .boundingBox, option: option)
        let (west, south, east, north) = (numbers[0], numbers[1], numbers[2], numbers[3])
        for (name, value) in [("WEST", west), ("EAST", east)] where !(-180...180).contains(value) {
            throw ValidationError(
                "\(option): \(name) \(number(value)) is not a longitude between -180 and 180 (the order is WEST,SOUTH,EAST,NORTH)"
            )
        }
        for (name, value) in [("SOUTH", south), ("NORTH", north)] where !(-90...90).contains(value) {
            throw ValidationError(
                "\(option): \(name) \(number(value)) is not a latitude between -90 and 90 (the order is WEST,SOUTH,EAST,NORTH)"
            )
        }
        guard south < north else {
            let problem = south == north ? "equals" : "is north of"
            throw ValidationError(
                "\(option): SOUTH \(number(south)) \(problem) NORTH \(number(north)) (the order is WEST,SOUTH,EAST,NORTH)"
            )
        }
        guard west != east else {
            throw ValidationError("\(option): WEST \(number(west)) equals EAST \(number(east)): the box has no width")
        }
        return try named(option) { try CoordinateRegion(west: west, south: south, east: east, north: north) }
    }

    /// Half the Earth's circumference on the mean sphere, about 20,015,087 m: the farthest two
    /// places can be apart.
    static let halfCircumferenceMeters = Earth.meanRadiusMeters * .pi

    /// Parses `--circle`'s `LAT,LON,METERS`: a circle Web Mercator can draw as a closed ring.
    ///
    /// - Throws: `ValidationError` for a radius that is not positive, larger than half the
    ///   Earth's circumference (the circle would wrap past the far side), or that reaches a pole
    ///   (Web Mercator puts the poles at infinity, so the ring would not close on the map).
    static func circle(_ text: String) throws -> (center: Coordinate, radiusMeters: Double) {
        let numbers = try numbers(text, form: .circle, option: "--circle")
        let center = try coordinate(numbers[0], numbers[1], option: "--circle", fields: ("LAT", "LON"))
        let radius = numbers[2]
        guard radius > 0 else { throw ValidationError("--circle: METERS \(number(radius)) is not a positive radius") }
        guard radius <= halfCircumferenceMeters else {
            throw ValidationError(
                "--circle: METERS \(number(radius)) is more than half the Earth's circumference "
                    + "(about \(kilometers(halfCircumferenceMeters))): no circle is that large")
        }
        for (name, latitude) in [("North", 90.0), ("South", -90.0)] {
            let pole = try Coordinate(latitude: latitude, longitude: 0)
            let distance = center.distance(to: pole)
            guard radius < distance else {
                throw ValidationError(
                    "--circle: the circle around \(center) reaches the \(name) Pole, which Web Mercator cannot show: "
                        + "its ring would not close on the map; use a radius under \(Int(distance.rounded(.down))) m")
            }
        }
        return (center, radius)
    }

    /// Parses `--eye`'s `LAT,LON,ALTITUDE_M`: where a camera's eye is, above the ground.
    static func eye(_ text: String) throws -> (coordinate: Coordinate, altitudeMeters: Double) {
        let numbers = try numbers(text, form: .eye, option: "--eye")
        let position = try coordinate(numbers[0], numbers[1], option: "--eye", fields: ("LAT", "LON"))
        guard numbers[2] > 0 else {
            throw ValidationError(
                "--eye: ALTITUDE_M \(number(numbers[2])) is at or below the ground: the eye must be above it (meters, more than 0)"
            )
        }
        return (position, numbers[2])
    }

    /// Parses `--great-circle`'s `LAT,LON,LAT,LON`: the line's two ends, which must be at
    /// least 1 m apart and at least 1 m from being antipodal (where every great circle joins
    /// them, so the line has no one path).
    static func greatCircle(_ text: String) throws -> [Coordinate] {
        let numbers = try numbers(text, form: .greatCircle, option: "--great-circle")
        let ends = [
            try coordinate(numbers[0], numbers[1], option: "--great-circle", fields: ("first LAT", "first LON")),
            try coordinate(numbers[2], numbers[3], option: "--great-circle", fields: ("second LAT", "second LON")),
        ]
        let distance = ends[0].distance(to: ends[1])
        guard distance >= 1 else {
            throw ValidationError(
                "--great-circle: the ends \(ends[0]) and \(ends[1]) are the same place: the line has no length")
        }
        guard halfCircumferenceMeters - distance >= 1 else {
            throw ValidationError(
                "--great-circle: the ends \(ends[0]) and \(ends[1]) are antipodal: every great circle joins them, "
                    + "so the line has no one path; move an end")
        }
        return ends
    }

    // MARK: - Pieces

    /// Splits `text` into the form's comma-separated finite numbers.
    ///
    /// - Throws: `ValidationError` saying the expected form, an example and what was given.
    static func numbers(_ text: String, form: Form, option: String?) throws -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.filter(\.isFinite)
        guard parts.count == form.fields.count, numbers.count == form.fields.count else {
            let prefix = option.map { "\($0): " } ?? ""
            throw ValidationError(
                "\(prefix)expected \(form.text) (\(form.fields.count) numbers in \(form.unit), separated by commas), "
                    + "e.g. \(form.example); got '\(text)'")
        }
        return numbers
    }

    /// A coordinate from two numbers, with a message naming the fields when one is out of range.
    private static func coordinate(_ latitude: Double, _ longitude: Double, option: String?, fields: (String, String))
        throws -> Coordinate
    {
        let prefix = option.map { "\($0): " } ?? ""
        guard (-90...90).contains(latitude) else {
            throw ValidationError(
                "\(prefix)\(fields.0) \(number(latitude)) is not a latitude between -90 and 90 (the order is latitude, then longitude)"
            )
        }
        guard (-180...180).contains(longitude) else {
            throw ValidationError("\(prefix)\(fields.1) \(number(longitude)) is not a longitude between -180 and 180")
        }
        return try named(option ?? "coordinate") { try Coordinate(latitude: latitude, longitude: longitude) }
    }

    /// A span from two numbers, with a message naming the field out of range.
    private static func span(_ latitudeDelta: Double, _ longitudeDelta: Double, option: String) throws -> CoordinateSpan
    {
        guard latitudeDelta > 0, latitudeDelta <= 180 else {
            throw ValidationError(
                "\(option): LATDELTA \(number(latitudeDelta)) must be more than 0 and at most 180 degrees")
        }
        guard longitudeDelta > 0, longitudeDelta <= 360 else {
            throw ValidationError(
                "\(option): LONDELTA \(number(longitudeDelta)) must be more than 0 and at most 360 degrees")
        }
        return try named(option) { try CoordinateSpan(latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta) }
    }

    /// Parses `MINZOOM-MAXZOOM` (`0-8`) or one zoom (`5`), whole zooms from 0 to `TileID.maximumZoom`.
    ///
    /// - Throws: `ValidationError` naming `option`, the form and what is wrong.
    static func zoomRange(_ text: String, option: String = "--zoom") throws -> ClosedRange<Int> {
        let form = "the form is MINZOOM-MAXZOOM or ZOOM, e.g. 0-8"
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard (1...2).contains(parts.count), let low = Int(parts[0]), let high = Int(parts.last!) else {
            throw ValidationError("\(option): '\(text)' is not a zoom range (\(form))")
        }
        for zoom in [low, high] where !(0...TileID.maximumZoom).contains(zoom) {
            throw ValidationError("\(option): zoom \(zoom) is outside 0-\(TileID.maximumZoom)")
        }
        guard low <= high else { throw ValidationError("\(option): MINZOOM \(low) is above MAXZOOM \(high) (\(form))") }
        return low...high
    }

    /// Parses `K/N`: shard K (from 0) of N, as a Kubernetes Indexed Job numbers its pods.
    ///
    /// - Throws: `ValidationError` naming `option`, the form and what is wrong.
    static func shard(_ text: String, option: String = "--shard") throws -> (index: Int, count: Int) {
        let form = "the form is K/N with 0 <= K < N, e.g. 0/4 for the first of four shards"
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ValidationError("\(option): '\(text)' is not a shard (\(form))")
        }
        guard count >= 1 else {
            throw ValidationError("\(option): the shard count \(count) must be at least 1 (\(form))")
        }
        guard (0..<count).contains(index) else {
            throw ValidationError("\(option): shard \(index) is not among 0...\(count - 1) (\(form))")
        }
        return (index, count)
    }

    /// Runs `make`, turning its error (a value out of range) into a `ValidationError` that names `option`.
    static func named<T>(_ option: String, _ make: () throws -> T) throws -> T {
        do { return try make() } catch { throw ValidationError("\(option): \(error)") }
    }

    /// Meters as whole kilometers with thousands separators: `20,015 km`.
    static func kilometers(_ meters: Double) -> String {
        let kilometers = Int((meters / 1000).rounded())
        var digits = String(kilometers.magnitude)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(digits.suffix(3), at: 0)
            digits.removeLast(3)
        }
        groups.insert(Substring(digits), at: 0)
        return (kilometers < 0 ? "-" : "") + groups.joined(separator: ",") + " km"
    }

    /// A number as people write it: `-33.9`, `50`, not `50.0`.
    static func number(_ value: Double) -> String {
        value.decimalText(maximumFractionDigits: 10)
    }
}

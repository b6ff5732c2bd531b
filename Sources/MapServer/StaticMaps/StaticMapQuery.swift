import Foundation
import MapComposer
import MapCore
import MapRenderer
import MapStyle
import PhotoSources

/// The query parameters of a static map (see ``StaticMapAddress`` for their forms), parsed.
struct StaticMapQuery: Hashable, Sendable {
    struct Marker: Hashable, Sendable {
        var coordinate: Coordinate
        var color: Color?
    }

    struct Path: Hashable, Sendable {
        var coordinates: [Coordinate]
        var strokeColor: Color?
        var widthPoints: Double?
        var fillColor: Color?
    }

    var markers: [Marker] = []
    var paths: [Path] = []
    /// The padding ratio; nil for none.
    var padding: Double?
    var photographers: [String] = []
    var select: String?
    /// `heatmap=true`: the photos as a density map instead of pins, as `render --heatmap`.
    var heatmap = false

    /// Parses the parameters by name, each name's values in order.
    static func parse(_ values: (String) -> [String]) throws(ServeError) -> StaticMapQuery {
        var query = StaticMapQuery()
        for text in values("marker") { query.markers.append(try marker(text)) }
        for text in values("path") { query.paths.append(try path(text)) }
        if let text = values("padding").last {
            guard let value = Double(text), (0...0.45).contains(value) else {
                throw .badRequest("padding: '\(text)' is not a ratio from 0 to 0.45")
            }
            query.padding = value
        }
        query.photographers = values("photographer").filter { !$0.isEmpty }
        if let select = values("select").last {
            guard !select.isEmpty else { throw .badRequest("select: empty; give first, or a photo's id or title") }
            query.select = select
        }
        if let text = values("heatmap").last {
            switch text.lowercased() {
            case "true", "1", "": query.heatmap = true
            case "false", "0": query.heatmap = false
            default: throw .badRequest("heatmap: '\(text)' is not true or false")
            }
        }
        return query
    }

    var canonicalText: String {
        "\(markers)|\(paths)|\(padding ?? 0)|\(photographers)|\(select ?? "")|\(heatmap)"
    }

    /// Applies the query to a request: markers, paths, padding, the photographer filter, the
    /// selection and the heatmap.
    ///
    /// - Throws: 400 when a photographer has no photos here.
    func apply(to request: inout PhotoMapRequest) throws(ServeError) {
        let pins = request.style.mapwright.pins
        request.markers += markers.enumerated().map { index, marker in
            MapAnnotation(
                id: "marker-\(index + 1)", coordinate: marker.coordinate, title: "",
                marker: .pin(marker.color ?? request.pinColor ?? pins.defaultColor))
        }
        let look = request.style.mapwright.overlay
        request.overlays += paths.map { path in
            let filled = path.fillColor != nil && path.coordinates.count >= 3
            return MapOverlay(
                shape: filled ? .polygon(exterior: path.coordinates, holes: []) : .polyline(path.coordinates),
                strokeColor: path.strokeColor ?? look.lineColor, lineWidthPoints: path.widthPoints ?? look.lineWidth,
                fillColor: path.fillColor)
        }
        if let padding {
            let horizontal = request.size.width * padding / (1 + 2 * padding)
            let vertical = request.size.height * padding / (1 + 2 * padding)
            request.padding = EdgeInsets(top: vertical, left: horizontal, bottom: vertical, right: horizontal)
        }
        if !photographers.isEmpty {
            // As `render --photographer`: case and surrounding spaces ignored; several are joined.
            let collection = PhotoCollection(photos: request.photos)
            var kept = Set<String>()
            for name in photographers {
                do throws(PhotoSourceError) {
                    kept.formUnion(try collection.filtered(byPhotographer: name).photos.map(\.id))
                } catch {
                    throw .badRequest("photographer: \(error.description)")
                }
            }
            request.photos = request.photos.filter { kept.contains($0.id) }
        }
        if let select {
            guard !request.photos.isEmpty else { throw .badRequest("select: there are no photos to select") }
            request.selection = select == "first" ? .first : .photo(select)
        }
        request.showsHeatmap = heatmap
    }

    // MARK: - Parts

    static func marker(_ text: String) throws(ServeError) -> Marker {
        let parts = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        let numbers = try self.numbers(parts[0], what: "marker '\(text)'")
        guard numbers.count == 2 else { throw .badRequest("marker: '\(text)' is not LON,LAT[|COLOR]") }
        var marker = Marker(coordinate: try coordinate(longitude: numbers[0], latitude: numbers[1], text: text))
        for option in parts.dropFirst() {
            let value = option.hasPrefix("color:") ? String(option.dropFirst(6)) : option
            marker.color = try color(value, parameter: "marker")
        }
        return marker
    }

    static func path(_ text: String) throws(ServeError) -> Path {
        var path = Path(coordinates: [])
        // An encoded polyline may hold `|` itself: it runs to the end of the text.
        var optionsText = text[...]
        if text.hasPrefix("enc:") {
            optionsText = ""
            path.coordinates = try decodePolyline(String(text.dropFirst(4)))
        } else if let range = text.range(of: "|enc:") {
            optionsText = text[..<range.lowerBound]
            path.coordinates = try decodePolyline(String(text[range.upperBound...]))
        }
        for part in optionsText.split(separator: "|").map(String.init) {
            if part.hasPrefix("stroke:") {
                path.strokeColor = try color(String(part.dropFirst(7)), parameter: "path")
            } else if part.hasPrefix("fill:") {
                path.fillColor = try color(String(part.dropFirst(5)), parameter: "path")
            } else if part.hasPrefix("width:") {
                guard let width = Double(part.dropFirst(6)), width > 0, width <= 100 else {
                    throw .badRequest("path: '\(part)' is not a width in points from 0 to 100")
                }
                path.widthPoints = width
            } else {
                let numbers = try self.numbers(part, what: "path point '\(part)'")
                guard numbers.count == 2 else { throw .badRequest("path: '\(part)' is not LON,LAT") }
                path.coordinates.append(try coordinate(longitude: numbers[0], latitude: numbers[1], text: part))
            }
        }
        guard path.coordinates.count >= 2 else { throw .badRequest("path: '\(text)' has fewer than two points") }
        return path
    }

    /// Google's encoded polyline algorithm format, precision 5: latitude then longitude, each a
    /// zig-zag delta in 5-bit chunks offset by 63.
    static func decodePolyline(_ text: String) throws(ServeError) -> [Coordinate] {
        let bytes = Array(text.utf8)
        var index = 0
        var latitude = 0
        var longitude = 0
        var coordinates: [Coordinate] = []
        func next() throws(ServeError) -> Int {
            var result = 0
            var shift = 0
            while true {
                guard index < bytes.count else {
                    throw .badRequest("path: 'enc:\(text)' is not an encoded polyline (it ends inside a number)")
                }
                let byte = Int(bytes[index]) - 63
                index += 1
                guard (0..<64).contains(byte), shift < 35 else {
                    throw .badRequest("path: 'enc:\(text)' is not an encoded polyline")
                }
                result |= (byte & 0x1f) << shift
                shift += 5
                if byte < 0x20 { break }
            }
            return (result & 1) != 0 ? ~(result >> 1) : result >> 1
        }
        while index < bytes.count {
            latitude += try next()
            longitude += try next()
            coordinates.append(
                try coordinate(
                    longitude: Double(longitude) / 1e5, latitude: Double(latitude) / 1e5, text: "enc:\(text)"))
        }
        return coordinates
    }

    static func color(_ text: String, parameter: String) throws(ServeError) -> Color {
        let classic = ["red": "#ff3b30", "green": "#34c759", "purple": "#af52de"]
        var css = classic[text.lowercased()] ?? text
        if css.count == 6 || css.count == 8 || css.count == 3, css.allSatisfy(\.isHexDigit) { css = "#" + css }
        do { return try Color(css: css) } catch {
            throw .badRequest("\(parameter): '\(text)' is not a colour (red, green, purple, or hex such as ff8800)")
        }
    }

    static func numbers(_ text: String, what: String) throws(ServeError) -> [Double] {
        var numbers: [Double] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let number = Double(part.trimmingCharacters(in: .whitespaces)), number.isFinite else {
                throw .badRequest("\(what): '\(part)' is not a number")
            }
            numbers.append(number)
        }
        return numbers
    }

    static func coordinate(longitude: Double, latitude: Double, text: String) throws(ServeError) -> Coordinate {
        do { return try Coordinate(latitude: latitude, longitude: longitude) } catch {
            throw .badRequest(
                "'\(text)': longitude \(Self.text(longitude)), latitude \(Self.text(latitude)) is not a place (longitude first, -180 to 180; latitude -90 to 90)"
            )
        }
    }

    /// A number as people write it: 5, not 5.0.
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

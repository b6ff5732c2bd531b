public import Foundation
import MapCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads GPX 1.1 files (<https://www.topografix.com/GPX/1/1/>): waypoints (`wpt`), routes
/// (`rte`/`rtept`) and tracks (`trk`/`trkseg`/`trkpt`), each point with its `ele`, `time`,
/// `name`, `desc` and `cmt`. Other elements (metadata, extensions) are skipped. GPX 1.0 files, which share
/// these elements, are read too.
///
/// For example:
///
/// ```swift
/// let walk = try GPXReader.read(path: "walk.gpx")
/// ```
///
/// Errors name the file and the 1-based line: `walk.gpx: line 12: <trkpt> lat "91" is not a
/// latitude in [-90, 90]`.
public enum GPXReader {
    /// Reads a GPX file.
    ///
    /// - Parameter path: The file; errors name it as given.
    /// - Throws: ``GeoDataError/unreadableFile(path:reason:)`` or
    ///   ``GeoDataError/invalidGPX(path:line:reason:)`` for malformed XML, a root element other
    ///   than `gpx`, or a point whose `lat`, `lon`, `ele` or `time` cannot be read.
    /// Whether `data` is a GPX document by its content (a `<gpx` root element among its first
    /// kilobytes, after any XML declaration and comments), whatever its file's name
    /// (`.gpx.xml`, `.xml`, no extension).
    public static func looksLikeGPX(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(1024), as: UTF8.self)
        guard head.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).first == "<" else { return false }
        return head.range(of: "<gpx[\\s>]", options: .regularExpression) != nil
    }

    public static func read(path: String) throws(GeoDataError) -> GPXDocument {
        try read(data: GeoDataError.contents(ofFile: path), path: path)
    }

    /// Reads GPX from memory; `path` names its origin in errors.
    ///
    /// - Throws: ``GeoDataError/invalidGPX(path:line:reason:)``.
    public static func read(data: Data, path: String) throws(GeoDataError) -> GPXDocument {
        if let refusal = refusal(of: data) {
            throw .invalidGPX(path: path, line: refusal.line, reason: refusal.reason)
        }
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        let delegate = GPXParserDelegate(path: path, data: data)
        parser.delegate = delegate
        // On Linux, libxml2 recovers from some errors and parse() still succeeds, so the
        // delegate's record of the first error decides.
        let succeeded = parser.parse()
        if let failure = delegate.failure {
            throw failure
        }
        guard succeeded, parser.parserError == nil else {
            let reason =
                parser.parserError.map { delegate.describe($0, line: parser.lineNumber, column: parser.columnNumber) }
                ?? "the XML is not well-formed"
            throw .invalidGPX(path: path, line: max(1, parser.lineNumber), reason: reason)
        }
        guard delegate.sawRoot else {
            throw .invalidGPX(path: path, line: 1, reason: "there is no <gpx> element")
        }
        return delegate.document
    }
}

/// The SAX-style walk: builds points as their elements close.
final class GPXParserDelegate: NSObject, XMLParserDelegate {
    let path: String
    /// The whole file, to tell an error at its end (the file is cut short) from one inside it.
    let data: Data
    var document = GPXDocument()
    var failure: GeoDataError?
    var sawRoot = false
    /// Whether libxml2 has reported bytes that do not convert from the document's encoding.
    private var conversionFailed = false

    /// Element names from the root to the current element.
    private var stack: [String] = []
    private var text = ""
    private var point: GPXDocument.Point?
    private var segment: [GPXDocument.Point] = []
    private var route: GPXDocument.Route?
    private var track: GPXDocument.Track?
    /// The xsd:dateTime formats of `<time>`, with and without fractional seconds: made once per
    /// file, not once per point, since making a formatter costs far more than parsing with it.
    private lazy var dateFormatters: [ISO8601DateFormatter] = {
        let optionSets: [ISO8601DateFormatter.Options] = [
            [.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime],
        ]
        return optionSets.map { options in
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            return formatter
        }
    }()

    init(path: String, data: Data) {
        self.path = path
        self.data = data
    }

    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        // After a failure libxml2 may go on (it recovers from some errors): nothing more is read.
        guard failure == nil else { return }
        if stack.isEmpty {
            guard elementName == "gpx" else {
                fail(parser, "the root element is <\(elementName)>, not <gpx>")
                return
            }
            sawRoot = true
        }
        stack.append(elementName)
        text = ""
        switch elementName {
        case "wpt", "rtept", "trkpt":
            point = makePoint(parser, element: elementName, attributes: attributes)
        case "rte":
            route = GPXDocument.Route(name: nil, points: [])
        case "trk":
            track = GPXDocument.Track(name: nil, segments: [])
        case "trkseg":
            segment = []
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard failure == nil else { return }
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil, stack.popLast() != nil else { return }
        let parent = stack.last
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        text = ""
        switch elementName {
        case "ele" where point != nil:
            guard let meters = Double(value), meters.isFinite else {
                fail(parser, "<ele> \"\(value)\" is not a number of meters")
                return
            }
            point?.elevationMeters = meters
        case "time" where point != nil:
            guard let time = date(from: value) else {
                fail(parser, "<time> \"\(value)\" is not an xsd:dateTime such as 2024-05-01T09:30:00Z")
                return
            }
            point?.time = time
        case "name":
            switch parent {
            case "wpt", "rtept", "trkpt": point?.name = value
            case "rte": route?.name = value
            case "trk": track?.name = value
            default: break
            }
        case "desc" where ["wpt", "rtept", "trkpt"].contains(parent):
            point?.description = value.isEmpty ? nil : value
        case "cmt" where ["wpt", "rtept", "trkpt"].contains(parent):
            point?.comment = value.isEmpty ? nil : value
        case "wpt":
            if let point { document.waypoints.append(point) }
            point = nil
        case "rtept":
            if let point { route?.points.append(point) }
            point = nil
        case "trkpt":
            if let point { segment.append(point) }
            point = nil
        case "trkseg":
            track?.segments.append(segment)
            segment = []
        case "rte":
            if let route { document.routes.append(route) }
            route = nil
        case "trk":
            if let track { document.tracks.append(track) }
            track = nil
        default:
            break
        }
    }

    /// Records the first error and stops the parser, except once a conversion from another
    /// encoding (UCS-4, UTF-16, a declared one) has failed: stopping libxml2 from inside its error
    /// callback then crashes it (libxml2 2.9 goes on reading the input it has just freed). It is
    /// left to stop by itself, and the callbacks after the failure are ignored.
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        record(parser, describe(parseError, line: parser.lineNumber, column: parser.columnNumber))
        if Self.conversionErrorCodes.contains((parseError as NSError).code) { conversionFailed = true }
        if !conversionFailed { parser.abortParsing() }
    }

    /// libxml2's XML_IO_ENCODER and XML_I18N_CONV_FAILED: bytes that do not convert from the
    /// document's encoding.
    static let conversionErrorCodes: Set<Int> = [1544, 6003]

    private func makePoint(_ parser: XMLParser, element: String, attributes: [String: String]) -> GPXDocument.Point? {
        guard let latText = attributes["lat"] else {
            fail(parser, "<\(element)> has no lat attribute")
            return nil
        }
        guard let lonText = attributes["lon"] else {
            fail(parser, "<\(element)> has no lon attribute")
            return nil
        }
        guard let latitude = Double(latText), latitude.isFinite, (-90...90).contains(latitude) else {
            fail(parser, "<\(element)> lat \"\(latText)\" is not a latitude in [-90, 90]")
            return nil
        }
        guard let longitude = Double(lonText),
            let coordinate = try? Coordinate(latitude: latitude, longitude: longitude)
        else {
            fail(parser, "<\(element)> lon \"\(lonText)\" is not a longitude in [-180, 180]")
            return nil
        }
        return GPXDocument.Point(coordinate: coordinate)
    }

    /// Records the first failure and stops the parser, for the delegate's own checks (an
    /// element or attribute); parse errors go through `parser(_:parseErrorOccurred:)`.
    private func fail(_ parser: XMLParser, _ reason: String) {
        guard failure == nil else { return }
        record(parser, reason)
        parser.abortParsing()
    }

    /// Records the first failure; later ones are consequences of it.
    private func record(_ parser: XMLParser, _ reason: String) {
        guard failure == nil else { return }
        failure = .invalidGPX(path: path, line: max(1, parser.lineNumber), reason: reason)
    }

    /// Why bytes that are not UTF-8 are refused.
    static let notUTF8 = "it is not valid UTF-8 (or the encoding its XML declaration names)"
    /// Why bytes that do not convert from the document's encoding are refused.
    static let notValidInItsEncoding =
        "its bytes are not valid text in the encoding its first bytes or XML declaration name"

    /// A message in plain words for a parse error at `line` and `column`.
    ///
    /// FoundationXML passes libxml2's own error numbers (`xmlParserErrors`), which its
    /// `XMLParser.ErrorCode` cases do not all match, and its `localizedDescription` is empty; so
    /// the common ones are named here. An error past the file's last character while elements
    /// are still open means the file is cut short: that is said, with the innermost open element.
    func describe(_ error: any Error, line: Int, column: Int) -> String {
        let code = (error as NSError).code
        let end = endOfContent
        if let open = stack.last, line > end.line || (line == end.line && column > end.column) {
            return "the file ends early, before <\(open)> is closed"
        }
        let detail: String
        switch code {
        case 4: detail = "the document is empty"
        case 5: detail = "there is content after the root element ends"
        case 9: detail = "it holds a character XML does not allow"
        case 23: detail = "an entity reference is missing its ';'"
        case 26: detail = "it uses an entity that is not defined (write & as &amp;)"
        case 34, 40, 44: detail = "a quoted value is not closed"
        case 38: detail = "an attribute value holds a '<'"
        case 39: detail = "an attribute value is not quoted"
        case 41: detail = "an attribute has no value"
        case 42: detail = "an element has the same attribute twice"
        case 45: detail = "a comment is not closed"
        case 65: detail = "a space is missing between attributes"
        case 68: detail = "a tag has no name"
        case 73: detail = "a tag is missing its closing '>'"
        case 75: detail = "an attribute is missing its '='"
        case 76: detail = "a closing tag does not match the open element"
        case 77: detail = "an element is not closed before the document ends"
        case 81: detail = Self.notUTF8
        case _ where Self.conversionErrorCodes.contains(code):
            detail = Self.notValidInItsEncoding
        default: detail = "a tag or attribute is malformed"
        }
        return "the XML is not well-formed: \(detail)"
    }

    /// The 1-based line and column (in Unicode scalars, as libxml2 counts) of the file's last
    /// character that is not white space.
    private var endOfContent: (line: Int, column: Int) {
        guard let last = data.lastIndex(where: { ![9, 10, 13, 32].contains($0) }) else { return (1, 0) }
        let lineStart = data[..<last].lastIndex(of: 10).map { $0 + 1 } ?? data.startIndex
        let column = String(decoding: data[lineStart...last], as: UTF8.self).unicodeScalars.count
        return (data[..<last].reduce(1) { $1 == 10 ? $0 + 1 : $0 }, column)
    }

    /// Parses an xsd:dateTime, with or without fractional seconds; no zone means UTC.
    private func date(from text: String) -> Date? {
        for formatter in dateFormatters {
            if let date = formatter.date(from: text) ?? formatter.date(from: text + "Z") { return date }
        }
        return nil
    }
}

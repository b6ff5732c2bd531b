// Writes the seeded inputs scripts/bench/ingest.sh times `mapwright cluster` on:
//
//   photos.csv       ROWS rows (default 1,000,000): latitude,longitude,title,subtitle,photographer,image,
//                    some titles quoted with commas and doubled quotes, relative image paths
//   photos.geojson   FEATURES Point features (default 1,000,000) with title, photographer, image
//   flickr.json      FEATURES Flickr photos (id, title, description._content, latitude, longitude as
//                    strings and numbers, ownername, datetaken, url_sq, url_l)
//   features.csv     200,000 rows for `cluster --json --cluster-by none` (200,000 features out)
//   jpegs/           JPEGS small geotagged JPEGs (default 10,000) in 100 folders: a 32x24 image
//                    with an EXIF APP1 holding GPS latitude/longitude and Artist
//
// The same seed gives the same bytes on every run.
//
// Usage: IngestBenchmark DIR [--rows N] [--features N] [--jpegs N]
// Build in release: scripts/bench/ingest.sh runs it.
import BenchmarkSupport
import Foundation
import ImageCodec

var rows = 1_000_000
var features = 1_000_000
var jpegs = 10_000
var directory: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--rows", "--features", "--jpegs":
        guard let value = arguments.popFirst().flatMap(Int.init), value >= 0 else {
            FileHandle.standardError.write(Data("\(argument) needs a count\n".utf8))
            exit(2)
        }
        switch argument {
        case "--rows": rows = value
        case "--features": features = value
        default: jpegs = value
        }
    default:
        guard directory == nil, !argument.hasPrefix("-") else {
            FileHandle.standardError.write(
                Data("usage: IngestBenchmark DIR [--rows N] [--features N] [--jpegs N]\n".utf8))
            exit(2)
        }
        directory = argument
    }
}
guard let directory else {
    FileHandle.standardError.write(Data("usage: IngestBenchmark DIR [--rows N] [--features N] [--jpegs N]\n".utf8))
    exit(2)
}
let root = URL(fileURLWithPath: directory, isDirectory: true)

let photographers = ["Ansel Adams", "Dorothea Lange", "李明", "Vivian Maier", "Imogen Cunningham", "Sebastião Salgado"]

/// A random position with six decimals, away from 0, 0.
func position(_ random: inout SeededGenerator) -> (latitude: String, longitude: String) {
    let latitude = Double.random(in: -70..<75, using: &random)
    let longitude = Double.random(in: -180..<180, using: &random)
    return (String(format: "%.6f", latitude), String(format: "%.6f", longitude))
}

/// Appends text to a file through a large buffer.
struct OutputFile {
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    init(_ name: String) throws {
        let url = root.appendingPathComponent(name)
        FileManager.default.createFile(atPath: url.path, contents: nil)
        handle = try FileHandle(forWritingTo: url)
        buffer.reserveCapacity(1 << 22)
    }

    mutating func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 22 { try flush() }
    }

    mutating func flush() throws {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func close() throws {
        try flush()
        try handle.close()
    }
}

func writeCSV(_ name: String, rows: Int, seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    var file = try OutputFile(name)
    try file.write("latitude,longitude,title,subtitle,photographer,image\n")
    for row in 0..<rows {
        let (latitude, longitude) = position(&random)
        let title: String
        switch row % 50 {
        case 0: title = "\"Moonrise, no. \(row)\""
        case 1: title = "\"The \"\"\(row)\"\" view\""
        default: title = "Photo \(row)"
        }
        let subtitle = row % 3 == 0 ? "Taken on a walk" : ""
        let photographer = photographers[Int(random.next() % UInt64(photographers.count))]
        try file.write(
            "\(latitude),\(longitude),\(title),\(subtitle),\(photographer),images/\(row / 1000)/\(row).jpg\n")
    }
    try file.close()
}

/// Writes a JSON file whose `count` entries, one per line, come between `opening` and `closing`;
/// `entry` gets the entry's index, a random position and photographer.
func writeJSONList(
    _ name: String, count: Int, seed: UInt64, opening: String, closing: String,
    entry: (_ index: Int, _ latitude: String, _ longitude: String, _ photographer: String) -> String
) throws {
    var random = SeededGenerator(seed: seed)
    var file = try OutputFile(name)
    try file.write(opening)
    for index in 0..<count {
        let (latitude, longitude) = position(&random)
        let photographer = photographers[Int(random.next() % UInt64(photographers.count))]
        try file.write((index == 0 ? "" : ",\n") + entry(index, latitude, longitude, photographer))
    }
    try file.write(closing)
    try file.close()
}

func writeGeoJSON(_ name: String, features: Int, seed: UInt64) throws {
    try writeJSONList(
        name, count: features, seed: seed, opening: "{\"type\": \"FeatureCollection\", \"features\": [\n",
        closing: "\n]}\n"
    ) { index, latitude, longitude, photographer in
        let title = index % 50 == 0 ? "Caf\\u00e9 \\\"\(index)\\\"" : "Photo \(index)"
        return
            "{\"type\": \"Feature\", \"id\": \"p\(index)\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [\(longitude), \(latitude)]}, "
            + "\"properties\": {\"title\": \"\(title)\", \"photographer\": \"\(photographer)\", \"image\": \"images/\(index / 1000)/\(index).jpg\"}}"
    }
}

func writeFlickr(_ name: String, photos: Int, seed: UInt64) throws {
    try writeJSONList(
        name, count: photos, seed: seed,
        opening:
            "{\"photos\": {\"page\": 1, \"pages\": 1, \"perpage\": \(photos), \"total\": \(photos), \"photo\": [\n",
        closing: "\n]}, \"stat\": \"ok\"}\n"
    ) { index, latitude, longitude, photographer in
        let id = 50_000_000_000 + index
        let coordinates =
            index % 2 == 0
            ? "\"latitude\": \(latitude), \"longitude\": \(longitude)"
            : "\"latitude\": \"\(latitude)\", \"longitude\": \"\(longitude)\""
        let month = 1 + index % 12
        let day = 1 + index % 28
        let hour = index % 24
        let date =
            "2016-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day) \(hour < 10 ? "0" : "")\(hour):02:11"
        return
            "{\"id\": \"\(id)\", \"owner\": \"12345@N00\", \"secret\": \"abcdef\", \"server\": \"65535\", \"farm\": 66, "
            + "\"title\": \"Photo \(index)\", \"ispublic\": 1, \"description\": {\"_content\": \"A walk\\nby the sea\"}, "
            + "\(coordinates), \"accuracy\": \"16\", \"ownername\": \"\(photographer)\", \"datetaken\": \"\(date)\", "
            + "\"url_sq\": \"https://live.staticflickr.com/65535/\(id)_abcdef_s.jpg\", \"height_sq\": 75, \"width_sq\": 75, "
            + "\"url_l\": \"https://live.staticflickr.com/65535/\(id)_abcdef_b.jpg\", \"height_l\": 768, \"width_l\": 1024}"
    }
}

// MARK: - JPEGs

/// A little-endian TIFF block for EXIF: IFD0 (Artist, GPS pointer) and a GPS IFD with four tags.
func exifTIFF(latitude: Double, longitude: Double, artist: String) -> [UInt8] {
    func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    func u32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
    func rationals(_ degrees: Double) -> [UInt8] {
        let whole = degrees.rounded(.down)
        let minutes = ((degrees - whole) * 60).rounded(.down)
        let seconds = ((degrees - whole) * 60 - minutes) * 60
        return u32(Int(whole)) + u32(1) + u32(Int(minutes)) + u32(1) + u32(Int((seconds * 1000).rounded())) + u32(1000)
    }
    let artistBytes = Array(artist.utf8) + [0]
    // IFD0 at 8: 2 entries (Artist, GPS IFD pointer); its Artist text follows it.
    let ifd0Size = 2 + 2 * 12 + 4
    let artistOffset = 8 + ifd0Size
    let gpsOffset = artistOffset + artistBytes.count + artistBytes.count % 2
    let gpsSize = 2 + 4 * 12 + 4
    let latitudeOffset = gpsOffset + gpsSize
    let longitudeOffset = latitudeOffset + 24
    var bytes: [UInt8] = [0x49, 0x49] + u16(42) + u32(8)
    bytes += u16(2)
    bytes += u16(0x013B) + u16(2) + u32(artistBytes.count) + u32(artistOffset)
    bytes += u16(0x8825) + u16(4) + u32(1) + u32(gpsOffset)
    bytes += u32(0)
    bytes += artistBytes + (artistBytes.count % 2 == 1 ? [0] : [])
    bytes += u16(4)
    bytes += u16(1) + u16(2) + u32(2) + [latitude < 0 ? UInt8(ascii: "S") : UInt8(ascii: "N"), 0, 0, 0]
    bytes += u16(2) + u16(5) + u32(3) + u32(latitudeOffset)
    bytes += u16(3) + u16(2) + u32(2) + [longitude < 0 ? UInt8(ascii: "W") : UInt8(ascii: "E"), 0, 0, 0]
    bytes += u16(4) + u16(5) + u32(3) + u32(longitudeOffset)
    bytes += u32(0)
    bytes += rationals(abs(latitude)) + rationals(abs(longitude))
    return bytes
}

func writeJPEGs(_ folder: String, count: Int, seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    var image = RGBAImage(width: 32, height: 24, filledWith: RGBAPixel(red: 90, green: 140, blue: 200))
    for x in 0..<32 { image[x: x, y: 12] = RGBAPixel(red: 250, green: 250, blue: 240) }
    let jpeg = Array(try image.jpegData(quality: 80))
    let folderURL = root.appendingPathComponent(folder, isDirectory: true)
    for index in 0..<count {
        let latitude = Double.random(in: -70..<75, using: &random)
        let longitude = Double.random(in: -180..<180, using: &random)
        let payload =
            Array("Exif".utf8) + [0, 0]
            + exifTIFF(latitude: latitude, longitude: longitude, artist: photographers[index % photographers.count])
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        let subfolder = folderURL.appendingPathComponent(String(format: "%03d", index % 100), isDirectory: true)
        if index < 100 { try FileManager.default.createDirectory(at: subfolder, withIntermediateDirectories: true) }
        try Data(jpeg[0..<2] + segment + jpeg[2...]).write(to: subfolder.appendingPathComponent("IMG_\(index).jpg"))
    }
}

let start = Date()
try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
if rows > 0 { try writeCSV("photos.csv", rows: rows, seed: 2026) }
if features > 0 {
    try writeGeoJSON("photos.geojson", features: features, seed: 2027)
    try writeFlickr("flickr.json", photos: features, seed: 2028)
}
try writeCSV("features.csv", rows: 200_000, seed: 2029)
if jpegs > 0 { try writeJPEGs("jpegs", count: jpegs, seed: 2030) }
print(String(format: "inputs written to %@ in %.1f s", root.path, Date().timeIntervalSince(start)))

import GeoData
import MapCore

/// A test-only ISO WKB encoder, so the reader is checked against bytes built independently.
struct WKBWriter {
    var bigEndian = false
    var hasZ = false
    var hasM = false

    func encode(_ geometry: Geometry) -> [UInt8] {
        var bytes: [UInt8] = []
        write(geometry, into: &bytes)
        return bytes
    }

    private func write(_ geometry: Geometry, into bytes: inout [UInt8]) {
        switch geometry {
        case .point(let position):
            header(1, into: &bytes)
            write(position, into: &bytes)
        case .multiPoint(let positions):
            header(4, into: &bytes)
            count(positions.count, into: &bytes)
            for position in positions { write(.point(position), into: &bytes) }
        case .lineString(let positions):
            header(2, into: &bytes)
            write(positions, into: &bytes)
        case .multiLineString(let lines):
            header(5, into: &bytes)
            count(lines.count, into: &bytes)
            for line in lines { write(.lineString(line), into: &bytes) }
        case .polygon(let rings):
            header(3, into: &bytes)
            count(rings.count, into: &bytes)
            for ring in rings { write(ring, into: &bytes) }
        case .multiPolygon(let polygons):
            header(6, into: &bytes)
            count(polygons.count, into: &bytes)
            for polygon in polygons { write(.polygon(polygon), into: &bytes) }
        case .geometryCollection(let geometries):
            header(7, into: &bytes)
            count(geometries.count, into: &bytes)
            for member in geometries { write(member, into: &bytes) }
        }
    }

    /// `POINT EMPTY`: both ordinates NaN, as GeoPackage 1.3 §2.1.3.1.1 recommends.
    func encodeEmptyPoint() -> [UInt8] {
        var bytes: [UInt8] = []
        header(1, into: &bytes)
        write(Position(longitude: .nan, latitude: .nan), into: &bytes)
        return bytes
    }

    private func header(_ type: UInt32, into bytes: inout [UInt8]) {
        bytes.append(bigEndian ? 0 : 1)
        let dimensionCode: UInt32 = (hasZ ? 1000 : 0) + (hasM ? 2000 : 0)
        uint32(type + dimensionCode, into: &bytes)
    }

    private func write(_ positions: [Position], into bytes: inout [UInt8]) {
        count(positions.count, into: &bytes)
        for position in positions { write(position, into: &bytes) }
    }

    private func write(_ position: Position, into bytes: inout [UInt8]) {
        double(position.longitude, into: &bytes)
        double(position.latitude, into: &bytes)
        // Z and M values the reader must skip; distinctive so a misread shows.
        if hasZ { double(1234.5, into: &bytes) }
        if hasM { double(-99.25, into: &bytes) }
    }

    private func count(_ value: Int, into bytes: inout [UInt8]) {
        uint32(UInt32(value), into: &bytes)
    }

    private func uint32(_ value: UInt32, into bytes: inout [UInt8]) {
        bytes += Self.bytes(of: UInt64(value), count: 4, bigEndian: bigEndian)
    }

    private func double(_ value: Double, into bytes: inout [UInt8]) {
        bytes += Self.bytes(of: value.bitPattern, count: 8, bigEndian: bigEndian)
    }

    static func bytes(of value: UInt64, count: Int, bigEndian: Bool) -> [UInt8] {
        let little = (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        return bigEndian ? little.reversed() : little
    }
}

/// A test-only GeoPackage binary header writer (GeoPackage 1.3 §2.1.3).
struct GeoPackageBlobWriter {
    var bigEndianHeader = false
    /// The envelope contents indicator, 0–4.
    var envelopeIndicator: UInt8 = 1
    var srsID: Int32 = 4326
    var wkb = WKBWriter()

    func encode(_ geometry: Geometry) -> [UInt8] {
        header(envelope: geometry.boundingBox, empty: false) + wkb.encode(geometry)
    }

    func encodeEmpty() -> [UInt8] {
        header(envelope: nil, empty: true) + wkb.encodeEmptyPoint()
    }

    private func header(envelope: BoundingBox?, empty: Bool) -> [UInt8] {
        let indicator = empty ? 0 : envelopeIndicator
        var flags: UInt8 = indicator << 1
        if !bigEndianHeader { flags |= 1 }
        if empty { flags |= 0b0001_0000 }
        var bytes: [UInt8] = [0x47, 0x50, 0, flags]
        bytes += WKBWriter.bytes(of: UInt64(UInt32(bitPattern: srsID)), count: 4, bigEndian: bigEndianHeader)
        guard indicator > 0, let envelope else { return bytes }
        var values = [envelope.west, envelope.east, envelope.south, envelope.north]
        switch indicator {
        case 2, 3: values += [-1, 1]
        case 4: values += [-1, 1, -2, 2]
        default: break
        }
        for value in values {
            bytes += WKBWriter.bytes(of: value.bitPattern, count: 8, bigEndian: bigEndianHeader)
        }
        return bytes
    }
}

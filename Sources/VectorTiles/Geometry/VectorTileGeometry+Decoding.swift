extension VectorTileGeometry {
    /// Decodes a feature's `geometry` numbers (spec 4.3) as `type` says to read them.
    ///
    /// Strict where the data would be misread: a command the type does not allow there, a
    /// MoveTo of lines or polygons or a ClosePath whose count is not 1, a count past the numbers
    /// left, a point outside 32 bits. Lenient where encoders are sloppy and the meaning is clear:
    /// several MoveTos in a point geometry are one multipoint; a LineTo of 0 adds nothing; a line
    /// left with fewer than two points, and a ring left with fewer than three or with zero area,
    /// is dropped; a ring that a MoveTo or the end cuts off without a ClosePath is closed there;
    /// a ring's last point repeating its first is dropped.
    ///
    /// Rings are told apart by the sign of their area (the surveyor's formula in tile coordinates,
    /// spec 4.3.4.4) as MapLibre classifies them, in every version: the first ring's sign is the
    /// exterior's, each later ring of that sign starts a polygon and each of the other sign is a
    /// hole of the polygon before it. Version 2 fixes exteriors as positive, but real encoders
    /// break it (a tilemaker building whose first ring winds as a hole): read as MapLibre reads
    /// it, such a feature draws as MapLibre draws it instead of failing the tile. Rings are
    /// turned round to the version 2 winding when the first is negative.
    ///
    /// - Parameters:
    ///   - numbers: The command and parameter integers.
    ///   - type: The feature's geometry type; ``VectorTileGeometryType/unknown`` is not read.
    ///   - location: What errors name.
    init(numbers: [UInt32], type: VectorTileGeometryType, location: VectorTileError.Location) throws(VectorTileError) {
        var reader = GeometryCommandReader(numbers: numbers, type: type, location: location)
        switch type {
        case .unknown:
            self = .none
        case .point:
            let points = try reader.readPoints()
            self = points.isEmpty ? .none : .points(points)
        case .lineString:
            let lines = try reader.readParts(rings: false).filter { $0.count >= 2 }
            self = lines.isEmpty ? .none : .lines(lines)
        case .polygon:
            let polygons = Self.polygons(of: try reader.readParts(rings: true))
            self = polygons.isEmpty ? .none : .polygons(polygons)
        }
    }

    /// Rings grouped into polygons by winding: degenerate rings dropped, each exterior followed
    /// by its holes.
    private static func polygons(of rings: [[TilePoint]]) -> [[[TilePoint]]] {
        var polygons: [[[TilePoint]]] = []
        // The first ring's winding is the exteriors', whatever the version (MapLibre's classifyRings).
        var exteriorIsPositive: Bool?
        for encoded in rings {
            var ring = encoded
            while ring.count > 1, ring.last == ring.first { ring.removeLast() }
            guard ring.count >= 3 else { continue }
            let area = twiceSignedArea(of: ring)
            guard area != 0 else { continue }
            let isPositive = area > 0
            if exteriorIsPositive == nil { exteriorIsPositive = isPositive }
            if exteriorIsPositive == false { ring = [ring[0]] + ring[1...].reversed() }
            if isPositive == exteriorIsPositive {
                polygons.append([ring])
            } else {
                polygons[polygons.count - 1].append(ring)
            }
        }
        return polygons
    }

    /// Twice a ring's signed area by the surveyor's formula, Σ (xᵢ·yᵢ₊₁ − xᵢ₊₁·yᵢ), exact in 128
    /// bits; positive for a ring that winds clockwise with y down.
    static func twiceSignedArea(of ring: [TilePoint]) -> Int128 {
        var sum: Int128 = 0
        var previous = ring[ring.count - 1]
        for point in ring {
            sum += Int128(previous.x) * Int128(point.y) - Int128(point.x) * Int128(previous.y)
            previous = point
        }
        return sum
    }
}

/// Walks a geometry's command integers and parameters, carrying the cursor across commands and
/// parts (spec 4.3), each count checked against the numbers left before anything is read.
private struct GeometryCommandReader {
    let numbers: [UInt32]
    let type: VectorTileGeometryType
    let location: VectorTileError.Location
    private var index = 0
    private var cursorX: Int64 = 0
    private var cursorY: Int64 = 0

    init(numbers: [UInt32], type: VectorTileGeometryType, location: VectorTileError.Location) {
        self.numbers = numbers
        self.type = type
        self.location = location
    }

    /// A point geometry: MoveTos only, each of any count (spec 4.3.4.2).
    mutating func readPoints() throws(VectorTileError) -> [TilePoint] {
        var points: [TilePoint] = []
        while let (command, count, position) = try nextCommand() {
            guard command == .moveTo else {
                throw .unexpectedGeometryCommand(command, position: position, type: type, location: location)
            }
            try appendPoints(count, at: position, to: &points)
        }
        return points
    }

    /// The lines of a line geometry (spec 4.3.4.3: per line a MoveTo of 1, then LineTos) or the
    /// rings of a polygon geometry as encoded (spec 4.3.4.4: per ring a MoveTo of 1, LineTos, a
    /// ClosePath of 1), as `rings` says. A ring cut off by a MoveTo or the end without a
    /// ClosePath is kept.
    mutating func readParts(rings: Bool) throws(VectorTileError) -> [[TilePoint]] {
        var parts: [[TilePoint]] = []
        var part: [TilePoint]?
        while let (command, count, position) = try nextCommand() {
            switch command {
            case .moveTo:
                guard count == 1 else {
                    throw .invalidCommandCount(
                        command, count: count, position: position, type: type, location: location)
                }
                if let part { parts.append(part) }
                part = [try nextPoint(at: position)]
            case .lineTo:
                guard var open = part else {
                    throw .unexpectedGeometryCommand(command, position: position, type: type, location: location)
                }
                part = nil  // one owner of the points while they grow
                try appendPoints(count, at: position, to: &open)
                part = open
            case .closePath:
                guard rings else {
                    throw .unexpectedGeometryCommand(command, position: position, type: type, location: location)
                }
                guard count == 1 else {
                    throw .invalidCommandCount(
                        command, count: count, position: position, type: type, location: location)
                }
                guard let closed = part else {
                    throw .unexpectedGeometryCommand(command, position: position, type: type, location: location)
                }
                parts.append(closed)
                part = nil
            }
        }
        if let part { parts.append(part) }
        return parts
    }

    /// The next command integer, with its position; nil at the end. A MoveTo's or LineTo's
    /// count is checked against the numbers left (two per point).
    private mutating func nextCommand() throws(VectorTileError) -> (VectorTileGeometry.Command, UInt32, Int)? {
        guard index < numbers.count else { return nil }
        let position = index
        let integer = numbers[index]
        index += 1
        let count = integer >> 3
        guard let command = VectorTileGeometry.Command(rawValue: integer & 0x7) else {
            throw .unknownGeometryCommand(id: integer & 0x7, position: position, location: location)
        }
        let remaining = numbers.count - index
        if command != .closePath, UInt64(count) * 2 > UInt64(remaining) {
            throw .geometryCommandPastEnd(command, count: count, remainingNumbers: remaining, location: location)
        }
        return (command, count, position)
    }

    /// Appends `count` points, whose numbers ``nextCommand()`` has checked are there.
    ///
    /// Only a first command reserves room: reserving exactly for each of many commands would
    /// copy the points each time.
    private mutating func appendPoints(_ count: UInt32, at position: Int, to points: inout [TilePoint])
        throws(VectorTileError)
    {
        if points.isEmpty { points.reserveCapacity(Int(count)) }
        for _ in 0..<count {
            points.append(try nextPoint(at: position))
        }
    }

    /// The cursor moved by the next zigzag-encoded (dX, dY) pair (spec 4.3.2).
    private mutating func nextPoint(at position: Int) throws(VectorTileError) -> TilePoint {
        cursorX += Int64(Self.zigzagDecoded(numbers[index]))
        cursorY += Int64(Self.zigzagDecoded(numbers[index + 1]))
        index += 2
        guard let x = Int32(exactly: cursorX), let y = Int32(exactly: cursorY) else {
            throw .coordinateOutOfRange(position: position, location: location)
        }
        return TilePoint(x: x, y: y)
    }

    /// `(n >> 1) ^ -(n & 1)`: 0, 1, 2, 3 → 0, −1, 1, −2.
    private static func zigzagDecoded(_ number: UInt32) -> Int32 {
        Int32(bitPattern: (number >> 1) ^ (0 &- (number & 1)))
    }
}

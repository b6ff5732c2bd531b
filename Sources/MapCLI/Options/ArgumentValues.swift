import ArgumentParser
import MapCore

/// Parsers for the value formats the commands share; each error names the value and the format.
enum ArgumentValues {
    /// Parses `LAT,LON` in degrees, e.g. `48.8566,2.3522`.
    static func coordinate(_ text: String) throws -> Coordinate {
        let numbers = try doubles(text, count: 2, format: "LAT,LON")
        do {
            return try Coordinate(latitude: numbers[0], longitude: numbers[1])
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// Parses `WxH` in points, e.g. `1200x800`.
    static func size(_ text: String) throws -> ViewSize {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
              width.isFinite, height.isFinite, width > 0, height > 0
        else {
            throw ValidationError("expected WIDTHxHEIGHT with positive numbers, e.g. 1200x800")
        }
        return ViewSize(width: width, height: height)
    }

    /// Parses `X,Y` in view points, e.g. `400,300`.
    static func viewPoint(_ text: String) throws -> ViewPoint {
        let numbers = try doubles(text, count: 2, format: "X,Y")
        return ViewPoint(x: numbers[0], y: numbers[1])
    }

    /// Parses `--region`'s `LAT,LON,LATDELTA,LONDELTA` in degrees, e.g. `48.85,2.35,0.2,0.3`.
    ///
    /// - Throws: `ValidationError` naming `--region` and the format or the value out of range.
    static func region(_ text: String) throws -> CoordinateRegion {
        let numbers = try doubles(text, count: 4, format: "--region LAT,LON,LATDELTA,LONDELTA")
        return try naming("--region") {
            CoordinateRegion(
                center: try Coordinate(latitude: numbers[0], longitude: numbers[1]),
                span: try CoordinateSpan(latitudeDelta: numbers[2], longitudeDelta: numbers[3]))
        }
    }

    /// Parses `--bbox`'s `WEST,SOUTH,EAST,NORTH` in degrees, e.g. `170,-25,-165,-5`; EAST < WEST
    /// crosses the antimeridian.
    ///
    /// - Throws: `ValidationError` naming `--bbox` and the format or the value out of range.
    static func boundingBox(_ text: String) throws -> CoordinateRegion {
        let numbers = try doubles(text, count: 4, format: "--bbox WEST,SOUTH,EAST,NORTH")
        return try naming("--bbox") {
            try CoordinateRegion(west: numbers[0], south: numbers[1], east: numbers[2], north: numbers[3])
        }
    }

    /// Runs `make`, turning its error (a value out of range) into a `ValidationError` that names `option`.
    static func naming<T>(_ option: String, _ make: () throws -> T) throws -> T {
        do { return try make() } catch { throw ValidationError("\(option): \(error)") }
    }

    /// Parses `count` comma-separated finite numbers.
    static func doubles(_ text: String, count: Int, format: String) throws -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.filter(\.isFinite)
        guard parts.count == count, numbers.count == count else {
            throw ValidationError("expected \(format) as \(count) comma-separated numbers")
        }
        return numbers
    }
}

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

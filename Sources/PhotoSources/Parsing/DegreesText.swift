import Foundation
import MapCore
import MapJSON

/// Reading degrees and positions the way every text-based source writes them.
enum DegreesText {
    /// Degrees written as text, or `nil` when the text is empty: a decimal number, or degrees,
    /// minutes and seconds as exiftool and people write them (`37 deg 43' 37.20" N`,
    /// `119°38'6"W`, `37° 43.62' N`), a hemisphere letter (N, S, E, W, before or after) giving
    /// the sign.
    ///
    /// - Parameter name: The field's name for the message, e.g. `latitude`; a `latitude` takes
    ///   N or S, a `longitude` E or W.
    /// - Throws: ``EntryProblem`` when the text is not a finite number: "latitude 'abc' is not a number".
    static func degrees(_ text: String, name: String) throws(EntryProblem) -> Double? {
        // The common case, a plain decimal number, is read from the bytes without Foundation.
        var text = text
        if let value = text.withUTF8({ JSONNumberText.double(from: $0) }) { return value }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if let value = Double(trimmed), value.isFinite { return value }
        if let value = sexagesimal(trimmed, name: name) { return value }
        throw EntryProblem("\(name) '\(text)' is not a number")
    }

    /// Degrees, minutes and seconds with an optional hemisphere; nil when the text is not that.
    private static func sexagesimal(_ text: String, name: String) -> Double? {
        var numbers: [Double] = []
        var current = ""
        var hemisphere: Character?
        var rest = Substring(text.lowercased())
        func flush() -> Bool {
            guard !current.isEmpty else { return true }
            guard let number = Double(current), number.isFinite else { return false }
            numbers.append(number)
            current = ""
            return true
        }
        while let character = rest.first {
            if character.isNumber || character == "."
                || ((character == "-" || character == "+") && current.isEmpty && numbers.isEmpty)
            {
                current.append(character)
                rest = rest.dropFirst()
                continue
            }
            guard flush() else { return nil }
            if rest.hasPrefix("deg") {
                rest = rest.dropFirst(3)
            } else if "°º'′\"″ \t,".contains(character) {
                rest = rest.dropFirst()
            } else if "nsew".contains(character), hemisphere == nil {
                hemisphere = character
                rest = rest.dropFirst()
            } else {
                return nil
            }
        }
        guard flush(), (1...3).contains(numbers.count), numbers.dropFirst().allSatisfy({ (0..<60).contains($0) }) else {
            return nil
        }
        if let hemisphere {
            let axis: Set<Character> = name.lowercased().contains("lat") ? ["n", "s"] : ["e", "w"]
            guard axis.contains(hemisphere), numbers[0] >= 0 else { return nil }
        }
        let magnitude =
            abs(numbers[0]) + (numbers.count > 1 ? numbers[1] / 60 : 0) + (numbers.count > 2 ? numbers[2] / 3600 : 0)
        let negative = numbers[0] < 0 || text.hasPrefix("-") || hemisphere == "s" || hemisphere == "w"
        return negative ? -magnitude : magnitude
    }

    /// Degrees written as a JSON number or a string; `nil` when missing, null or an empty string.
    static func degrees(_ value: JSONValue?, name: String) throws(EntryProblem) -> Double? {
        switch value {
        case nil, .null?: return nil
        case .number(let number)?: return number
        case .string(let text)?: return try degrees(text, name: name)
        case let other?: throw EntryProblem("\(name) is \(other.kindDescription), expected a number or a string")
        }
    }

    /// The location for a latitude and a longitude that may each be missing.
    ///
    /// - Returns: `nil` when both are missing, or for exactly 0°, 0° (see ``PhotoLocation``).
    /// - Throws: ``EntryProblem`` when only one is given, or a value is out of range.
    static func coordinate(latitude: Double?, longitude: Double?) throws(EntryProblem) -> Coordinate? {
        switch (latitude, longitude) {
        case (nil, nil): return nil
        case (.some, nil): throw EntryProblem("has a latitude but no longitude")
        case (nil, .some): throw EntryProblem("has a longitude but no latitude")
        case (let latitude?, let longitude?):
            do { return try PhotoLocation.coordinate(latitude: latitude, longitude: longitude) } catch {
                throw EntryProblem(error)
            }
        }
    }
}

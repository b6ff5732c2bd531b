import Foundation
import MapCore
import MapJSON

/// Reading degrees and positions the way every text-based source writes them.
enum DegreesText {
    /// Degrees written as text, or `nil` when the text is empty.
    ///
    /// - Parameter name: The field's name for the message, e.g. `latitude`.
    /// - Throws: ``EntryProblem`` when the text is not a finite number: "latitude 'abc' is not a number".
    static func degrees(_ text: String, name: String) throws(EntryProblem) -> Double? {
        // The common case, a plain decimal number, is read from the bytes without Foundation.
        var text = text
        if let value = text.withUTF8({ JSONNumberText.double(from: $0) }) { return value }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        guard let value = Double(trimmed), value.isFinite else {
            throw EntryProblem("\(name) '\(text)' is not a number")
        }
        return value
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

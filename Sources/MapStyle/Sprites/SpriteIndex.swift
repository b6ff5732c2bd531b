public import Foundation
import MapJSON

/// A sprite's index file (`NAME.json`, MapLibre Style Specification, "Sprite: index file"): each
/// image's place in the sheet and how it is drawn.
public struct SpriteIndex: Hashable, Sendable {
    /// One image of the sheet.
    public struct Entry: Hashable, Sendable {
        /// The image's rectangle in the sheet, in pixels.
        public var x: Int, y: Int, width: Int, height: Int
        /// Pixels per point of the image. The default is 1.
        public var pixelRatio: Double = 1
        /// Whether the image is a signed distance field, tinted by `icon-color`. The default is false.
        public var sdf = false
        /// The ranges (image pixels) that stretch horizontally for `icon-text-fit`; empty stretches all.
        public var stretchX: [ClosedRange<Double>] = []
        /// The ranges (image pixels) that stretch vertically; empty stretches all.
        public var stretchY: [ClosedRange<Double>] = []
        /// The box text fits in, `[left, top, right, bottom]` in image pixels; nil is the whole image.
        public var content: [Double]?

        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// The images, by name.
    public var entries: [String: Entry]

    /// Reads an index file; `file` names it in errors. An entry that is not a valid rectangle
    /// is left out and its name kept in ``skipped``.
    ///
    /// - Throws: ``StyleError`` (``StyleError/Kind/invalidJSON(reason:)`` or
    ///   ``StyleError/Kind/wrongType(expected:found:)``) naming `file`.
    public init(data: Data, file: String) throws(StyleError) {
        let root: JSONValue
        do { root = try JSONValue.parse(data) } catch {
            throw StyleError(.invalidJSON(reason: error.reason), file: file)
        }
        guard case .object(let members) = root else {
            throw StyleError(
                .wrongType(expected: "an object of sprite images", found: root.kindDescription), file: file)
        }
        var entries: [String: Entry] = [:]
        var skipped: [String] = []
        for (name, value) in members {
            guard let entry = Self.entry(value) else {
                skipped.append(name)
                continue
            }
            entries[name] = entry
        }
        self.entries = entries
        self.skipped = skipped.sorted()
    }

    /// Names of entries that are not valid images (a missing or negative size, for instance).
    public var skipped: [String]

    private static func entry(_ value: JSONValue) -> Entry? {
        guard case .object(let members) = value else { return nil }
        func integer(_ key: String) -> Int? {
            guard case .number(let number)? = members[key], number.isFinite, number >= 0, number <= 65_536,
                number == number.rounded()
            else { return nil }
            return Int(number)
        }
        func ranges(_ key: String) -> [ClosedRange<Double>] {
            guard case .array(let items)? = members[key] else { return [] }
            return items.compactMap { item in
                guard case .array(let pair) = item, pair.count == 2, case .number(let low) = pair[0],
                    case .number(let high) = pair[1],
                    low <= high
                else { return nil }
                return low...high
            }
        }
        guard let x = integer("x"), let y = integer("y"), let width = integer("width"), let height = integer("height"),
            width > 0, height > 0
        else { return nil }
        var entry = Entry(x: x, y: y, width: width, height: height)
        if case .number(let ratio)? = members["pixelRatio"], ratio > 0, ratio.isFinite { entry.pixelRatio = ratio }
        if case .bool(let sdf)? = members["sdf"] { entry.sdf = sdf }
        entry.stretchX = ranges("stretchX")
        entry.stretchY = ranges("stretchY")
        if case .array(let box)? = members["content"], box.count == 4 {
            let numbers = box.compactMap { item -> Double? in
                if case .number(let n) = item { return n }
                return nil
            }
            if numbers.count == 4 { entry.content = numbers }
        }
        return entry
    }
}

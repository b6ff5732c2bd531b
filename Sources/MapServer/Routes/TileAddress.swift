import MapCore

/// A tile's address as a URL gives it, `{z}/{x}/{y}[@2x].{ext}`, checked: each part a whole
/// number, not negative, x and y below 2^z, z at most 24, a scale of 1x, 2x or 3x.
struct TileAddress: Hashable, Sendable {
    var tile: TileID
    /// Pixels per point, from `@2x`/`@3x`; 1 without.
    var scale: Int
    /// The extension, lowercased: `png`, `jpg`, …
    var fileExtension: String

    /// Parses the last three path components.
    ///
    /// - Throws: 400 with the reason.
    init(z zText: Substring, x xText: Substring, y yFile: Substring) throws(ServeError) {
        guard let dot = yFile.firstIndex(of: ".") else {
            throw .badRequest("the tile '\(yFile)' has no extension (as in 3.png)")
        }
        var yText = yFile[..<dot]
        let suffix = yFile[yFile.index(after: dot)...]
        fileExtension =
            suffix.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") || $0 >= 0x80 })
            ? suffix.lowercased() : String(suffix)
        scale = 1
        if let at = yText.firstIndex(of: "@") {
            switch yText[yText.index(after: at)...] {
            case "1x": scale = 1
            case "2x": scale = 2
            case "3x": scale = 3
            case let other: throw .badRequest("the scale '@\(other)' is not @2x or @3x")
            }
            yText = yText[..<at]
        }
        let z = try Self.number(zText, "z")
        let x = try Self.number(xText, "x")
        let y = try Self.number(yText, "y")
        guard z <= ServerConfiguration.maximumRequestZoom else {
            throw .badRequest("zoom \(z) is above \(ServerConfiguration.maximumRequestZoom)")
        }
        let side = 1 << z
        guard x < side else { throw .badRequest("x \(x) is outside the \(side) columns of zoom \(z)") }
        guard y < side else { throw .badRequest("y \(y) is outside the \(side) rows of zoom \(z)") }
        do { tile = try TileID(z: z, x: x, y: y) } catch { throw .badRequest(error.description) }
    }

    private static func number(_ text: Substring, _ name: String) throws(ServeError) -> Int {
        // Plain digits, as nearly every URL has them.
        if !text.isEmpty, text.utf8.count <= 9,
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        {
            return text.utf8.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        if text.first == "-", text.dropFirst().allSatisfy(\.isASCII), Int(text) != nil {
            throw .badRequest("\(name) \(text) is negative")
        }
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text)
        else {
            throw .badRequest("\(name) '\(text)' is not a whole number")
        }
        return value
    }
}

extension OpenTileset {
    /// The address of one of its tiles in a URL, `{z}/{x}/{y}.EXT`, checked as ``TileAddress``
    /// checks it, of one scale and the tiles' extension.
    ///
    /// - Parameter noun: What the file is served as, for messages: `tileset` or `data`.
    /// - Throws: 400 for a malformed address, a scale, another extension.
    func address(z: Substring, x: Substring, y: Substring, servedAs noun: String) throws(ServeError) -> TileAddress {
        let address = try TileAddress(z: z, x: x, y: y)
        guard address.scale == 1 else { throw .badRequest("\(noun) tiles have one scale: drop '@\(address.scale)x'") }
        guard address.fileExtension == fileExtension else {
            throw .badRequest("\(noun) '\(name)' holds .\(fileExtension) tiles, not .\(address.fileExtension)")
        }
        return address
    }
}

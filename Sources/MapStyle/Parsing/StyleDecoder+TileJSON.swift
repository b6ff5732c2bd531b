import Foundation
import MapCore
import MapJSON
import MapUtilities

extension StyleDecoder {
    /// What a TileJSON file gives a source: its tile templates (relative ones made `file://`
    /// URLs beside the file) and the members a source may also set (`minzoom`, `maxzoom`,
    /// `bounds`, `scheme`, `attribution`, `tileSize`, `encoding`).
    struct TileJSON {
        var templates: [String]
        var members: [String: JSONValue]
    }

    /// The largest TileJSON file read: 16 MiB (they are a few hundred bytes).
    static let maximumTileJSONBytes = 16 << 20

    /// Reads the TileJSON a source's `url` names: a local file (`file://` URL or path, relative to
    /// the style file) ending in `.json`, or for `raster` and `raster-dem` sources any local file
    /// that is not a tileset (`mbtiles://`, `pmtiles://`, `.mbtiles`, `.pmtiles`). Nil for other
    /// URLs, which the source's own rules read.
    ///
    /// - Throws: ``StyleError`` at `path` when the file cannot be read or is not a TileJSON object.
    func tileJSON(_ url: String, anyLocalFile: Bool = false, at path: StylePath) throws(StyleError) -> TileJSON? {
        let lowered = url.lowercased()
        guard !Self.isRemote(url),
            !["mbtiles://", "pmtiles://", "basemap://"].contains(where: { lowered.hasPrefix($0) }),
            !lowered.hasSuffix(".mbtiles"), !lowered.hasSuffix(".pmtiles"),
            anyLocalFile || lowered.hasSuffix(".json")
        else { return nil }
        let file = StyleLocation.fileURL(url, relativeTo: baseURL)
        let json: JSONValue
        do {
            json = try JSONValue.parse(try Data(readingFile: file, maximumBytes: Self.maximumTileJSONBytes))
        } catch let failure as MapUtilitiesError {
            throw error(.invalidValue("cannot read the TileJSON '\(url)': \(failure.reason)"), at: path)
        } catch {
            throw self.error(.invalidValue("the TileJSON '\(url)' is not JSON: \(error)"), at: path)
        }
        guard case .object(var members) = json else {
            throw error(.invalidValue("the TileJSON '\(url)' is not a JSON object"), at: path)
        }
        var templates: [String] = []
        if case .array(let items)? = members["tiles"] {
            let directory = file.deletingLastPathComponent()
            for case .string(let template) in items {
                templates.append(
                    template.contains("://")
                        ? template : "file://" + StyleLocation.fileURL(template, relativeTo: directory).path)
            }
        }
        let kept: Set<String> = ["minzoom", "maxzoom", "bounds", "scheme", "attribution", "tileSize", "encoding"]
        members = members.filter { kept.contains($0.key) }
        return TileJSON(templates: templates, members: members)
    }

    /// `bounds`: `[west, south, east, north]` in degrees, clamped into the world as MapLibre does.
    func bounds(_ json: JSONValue, at path: StylePath) throws(StyleError) -> BoundingBox {
        let items = try array(json, at: path)
        guard items.count == 4 else { throw error(.invalidValue("bounds is [west, south, east, north]"), at: path) }
        var edges: [Double] = []
        for (index, item) in items.enumerated() { edges.append(try number(item, at: path.appending(index: index))) }
        guard edges[0] <= edges[2], edges[1] <= edges[3] else {
            throw error(
                .invalidValue("bounds is [west, south, east, north], west not east of east, south not north of north"),
                at: path)
        }
        return BoundingBox(
            west: max(-180, edges[0]), south: max(-90, edges[1]), east: min(180, edges[2]), north: min(90, edges[3]))
    }
}

import MapJSON
import VectorTiles

/// Tiles in one JSON form that both sides can write: ours from a ``VectorTile``, the Python
/// package's from what `mapbox_vector_tile.decode` returns (``pythonFunctions`` converts it), so
/// the two are compared as whole values.
///
/// The form: a list of layers `{"name", "extent", "version", "features": [{"id", "properties",
/// "geometry"}]}`; a property is `["str", text]`, `["int", digits]` (exact past 2^53),
/// `["float", number]` or `["bool", "True"/"False"]`, as Python types them; a geometry is
/// `{"points": [[x, y]…]}`, `{"lines": [[[x, y]…]…]}` or `{"polygons": [[[[x, y]…]…]…]}` with
/// rings not repeating their first point. A missing id is 0, as the Python package reads it.
enum ReferenceTile {
    /// Python that turns `mapbox_vector_tile.decode(…)` (GeoJSON-like, decoded with
    /// `y_coord_down`) into the form; define it in a script before calling `canonical(decoded)`.
    static let pythonFunctions = #"""
        def canonical_value(value):
            if isinstance(value, bool):
                return ["bool", "True" if value else "False"]
            if isinstance(value, int):
                return ["int", str(value)]
            if isinstance(value, float):
                return ["float", value]
            if isinstance(value, str):
                return ["str", value]
            return ["unexpected", repr(value)]

        def open_ring(ring):
            return ring[:-1] if len(ring) > 1 and ring[0] == ring[-1] else ring

        def canonical_geometry(geometry):
            kind, coordinates = geometry["type"], geometry["coordinates"]
            if kind == "Point":
                return {"points": [coordinates]}
            if kind == "MultiPoint":
                return {"points": coordinates}
            if kind == "LineString":
                return {"lines": [coordinates]}
            if kind == "MultiLineString":
                return {"lines": coordinates}
            if kind == "Polygon":
                return {"polygons": [[open_ring(ring) for ring in coordinates]]}
            if kind == "MultiPolygon":
                return {"polygons": [[open_ring(ring) for ring in polygon] for polygon in coordinates]}
            return {"unexpected": kind}

        def canonical(decoded):
            return [
                {
                    "name": name,
                    "extent": layer["extent"],
                    "version": layer["version"],
                    "features": [
                        {
                            "id": feature["id"],
                            "properties": {key: canonical_value(value) for key, value in feature["properties"].items()},
                            "geometry": canonical_geometry(feature["geometry"]),
                        }
                        for feature in layer["features"]
                    ],
                }
                for name, layer in decoded.items()
            ]
        """#

    /// Our decoding of a tile in the form.
    static func json(_ tile: VectorTile) -> JSONValue {
        .array(
            tile.layers.map { layer in
                .object([
                    "name": .string(layer.name),
                    "extent": .number(Double(layer.extent)),
                    "version": .number(Double(layer.version)),
                    "features": .array(
                        layer.features.map { feature in
                            .object([
                                "id": .number(Double(feature.id ?? 0)),
                                "properties": .object(feature.properties.mapValues(json)),
                                "geometry": json(feature.geometry),
                            ])
                        }),
                ])
            })
    }

    private static func json(_ value: VectorTileValue) -> JSONValue {
        switch value {
        case .string(let text): return .array([.string("str"), .string(text)])
        case .double(let number): return .array([.string("float"), .number(number)])
        case .int(let number): return .array([.string("int"), .string(String(number))])
        case .uint(let number): return .array([.string("int"), .string(String(number))])
        case .bool(let flag): return .array([.string("bool"), .string(flag ? "True" : "False")])
        }
    }

    private static func json(_ geometry: VectorTileGeometry) -> JSONValue {
        func point(_ point: TilePoint) -> JSONValue { .array([.number(Double(point.x)), .number(Double(point.y))]) }
        func line(_ points: [TilePoint]) -> JSONValue { .array(points.map(point)) }
        switch geometry {
        case .points(let points): return .object(["points": line(points)])
        case .lines(let lines): return .object(["lines": .array(lines.map(line))])
        case .polygons(let polygons): return .object(["polygons": .array(polygons.map { .array($0.map(line)) })])
        case .none: return .object([:])
        }
    }
}

import MapJSON

extension StyleDecoder {
    /// The keys a legacy `ref` layer takes from the layer it names, whatever it has itself.
    static let refKeys = ["type", "source", "source-layer", "minzoom", "maxzoom", "filter", "layout"]

    /// A layer's members with a legacy `ref` resolved, as MapLibre resolves it when it loads a
    /// style (the style specification's `deref`): `type`, `source`, `source-layer`, `minzoom`,
    /// `maxzoom`, `filter` and `layout` come from the named layer (anywhere in `layers`, itself
    /// not a `ref` layer), and `ref` is dropped. Members without `ref` are returned as they are.
    ///
    /// - Parameter layersByID: Every layer's members, by `id`.
    /// - Throws: ``StyleError`` when `ref` is not a string, or names no layer.
    func resolvingRef(
        _ members: [String: JSONValue], layersByID: [String: [String: JSONValue]], at path: StylePath
    ) throws(StyleError) -> [String: JSONValue] {
        guard let refJSON = members["ref"] else { return members }
        let ref = try string(refJSON, at: path.appending("ref"))
        guard let parent = layersByID[ref] else {
            throw error(.invalidValue("ref '\(ref)' names no layer"), at: path.appending("ref"))
        }
        var resolved = members
        resolved["ref"] = nil
        for key in StyleDecoder.refKeys { resolved[key] = parent[key] }
        return resolved
    }
}

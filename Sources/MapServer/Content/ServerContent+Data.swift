public import Foundation

extension ServerContent {
    /// What `/data/NAME/…` serves, TileServer GL's data: every tileset file served (``tilesets``,
    /// then ``styleTilesets``), each once, by its name. The same objects as ``tilesets``: a file
    /// given with `--tiles` is opened once, and a replacement on disk is picked up for both paths.
    public var dataTilesets: [ServedTileset] { tilesets + styleTilesets }

    /// The data a URL path component names, percent-encoded or not (see ``URLPathComponent``).
    ///
    /// - Throws: 404 when no data of that name is served.
    func dataTileset(inPath component: Substring) throws(ServeError) -> ServedTileset {
        let name = URLPathComponent.decodedName(component)
        guard let tileset = name.flatMap({ name in dataTilesets.first { $0.name == name } }) else {
            throw .notFound("no data named '\(name ?? String(component))'")
        }
        return tileset
    }

    /// The data served from the file at `url` (compared with symbolic links resolved), if any.
    public func dataTileset(servingFile url: URL) -> ServedTileset? {
        dataTileset(servingFiles: [url])
    }

    /// The data served from the files `urls` read as one, in that order (compared with symbolic
    /// links resolved), if any.
    public func dataTileset(servingFiles urls: [URL]) -> ServedTileset? {
        guard !urls.isEmpty, urls.allSatisfy(\.isFileURL) else { return nil }
        func paths(_ urls: [URL]) -> [String] { urls.map { $0.standardizedFileURL.resolvingSymlinksInPath().path } }
        let wanted = paths(urls)
        return dataTilesets.first { paths($0.files) == wanted }
    }
}

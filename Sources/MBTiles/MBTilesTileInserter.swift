import Foundation
import MapCore
import MapSQLite

/// A tile on its way into an MBTiles file: its address, bytes and, for the normalized layout,
/// its image id (computed by the thread that adds it, not under the writer's lock).
struct MBTilesPendingTile: Sendable {
    let id: TileID
    let data: Data
    /// The MD5 of `data` in uppercase hexadecimal, or nil for a flat file.
    let imageID: String?

    init(id: TileID, data: Data, schema: MBTilesSchema) {
        self.id = id
        self.data = data
        imageID = schema == .normalized ? MBTilesStore.imageID(of: data) : nil
    }
}

/// The statements that store tiles in one transaction on the write connection.
///
/// Each tile replaces whatever the file had at its address: delete, then insert, which is right
/// even in files made by other tools without a unique index. In the normalized layout the image
/// is inserted only when no image has its id, so identical tiles share one row of `images`.
struct MBTilesTileInserter {
    private let schema: MBTilesSchema
    private let deleteTile: Statement
    private let insertTile: Statement
    private let insertImage: Statement?
    /// Whether a tile replaced another: its old image may now be unused.
    private(set) var replacedCount = 0

    init(database: Database, schema: MBTilesSchema) throws(SQLiteError) {
        precondition(schema.isWritable, "tiles cannot be written into a view")
        self.schema = schema
        let table = schema == .normalized ? "map" : "tiles"
        deleteTile = try database.prepare(
            "DELETE FROM \(table) WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
        if schema == .normalized {
            insertTile = try database.prepare(
                "INSERT INTO map (zoom_level, tile_column, tile_row, tile_id) VALUES (?, ?, ?, ?)")
            insertImage = try database.prepare(
                "INSERT INTO images (tile_id, tile_data) SELECT ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM images WHERE tile_id = ?1)"
            )
        } else {
            insertTile = try database.prepare(
                "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)")
            insertImage = nil
        }
    }

    /// Stores one tile.
    mutating func insert(_ tile: MBTilesPendingTile) throws(SQLiteError) {
        let key = MBTilesStore.key(tile.id)
        deleteTile.reset()
        try deleteTile.bind(key)
        try deleteTile.step()
        if deleteTile.database.changes > 0 { replacedCount += 1 }
        if let insertImage, let imageID = tile.imageID {
            insertImage.reset()
            try insertImage.bind(.text(imageID), at: 1)
            try insertImage.bind(tile.data, at: 2)
            try insertImage.step()
            insertTile.reset()
            try insertTile.bind(key + [.text(imageID)])
        } else {
            insertTile.reset()
            try insertTile.bind(key)
            try insertTile.bind(tile.data, at: 4)
        }
        try insertTile.step()
    }
}

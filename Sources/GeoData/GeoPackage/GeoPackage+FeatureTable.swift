public import MapCore

extension GeoPackage {
    /// A feature table as `gpkg_contents` and `gpkg_geometry_columns` describe it
    /// (GeoPackage 1.3 §1.1.3.1, §2.1.5).
    ///
    /// For example, the basemap's `countries` table has the geometry column `geom`
    /// (`MULTIPOLYGON`, srs_id 4326), the primary key `fid` and the spatial index
    /// `rtree_countries_geom`.
    public struct FeatureTable: Hashable, Sendable {
        /// A column of the table, as `PRAGMA table_info` reports it.
        public struct Column: Hashable, Sendable {
            /// The column name, as the table spells it (`NAME`, `ISO_A3`...).
            public var name: String
            /// The declared SQL type (`TEXT(25)`, `INTEGER`, `MULTIPOLYGON`...).
            public var declaredType: String
            /// Whether the column is the integer primary key.
            public var isPrimaryKey: Bool
        }

        /// The table name.
        public var name: String
        /// The name of the geometry column.
        public var geometryColumn: String
        /// The declared geometry type (`POINT`, `MULTIPOLYGON`, `GEOMETRY`...).
        public var geometryTypeName: String
        /// The `srs_id` of the geometry column.
        public var srsID: Int64
        /// The SRS as `ORGANIZATION:ID` (`EPSG:4326`) or its name when it has no organization.
        public var srsDefinition: String
        /// The SRS's WKT `definition` from `gpkg_spatial_ref_sys`; nil when it has none or says
        /// `undefined`. PROJ reads it for an SRS without an organization's code.
        public var srsWKT: String?
        /// The bounds `gpkg_contents` gives, in the table's SRS; `nil` when unset.
        public var bounds: BoundingBox?
        /// The R-tree virtual table, `rtree_<table>_<column>`, when the GeoPackage has one.
        public var spatialIndexTable: String?
        /// Every column, in table order.
        public var columns: [Column]

        /// The primary key column (`fid` by convention); `rowid` when none is declared.
        public var primaryKeyColumn: String {
            columns.first(where: \.isPrimaryKey)?.name ?? "rowid"
        }

        /// The columns other than the primary key and the geometry: those read as properties.
        public var attributeColumns: [String] {
            columns.filter { !$0.isPrimaryKey && $0.name.lowercased() != geometryColumn.lowercased() }.map(\.name)
        }

        /// Whether the SRS is EPSG:4326, read without PROJ.
        var isWGS84: Bool { srsDefinition == "EPSG:4326" }

        static func srsDefinition(organization: String?, identifier: Int64?, name: String?) -> String {
            if let organization, let identifier, organization.uppercased() != "NONE" {
                return "\(organization.uppercased()):\(identifier)"
            }
            return name ?? "an undefined SRS"
        }
    }
}

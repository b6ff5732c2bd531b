import MapCore
import MapProjection

extension GeoPackage {
    /// How a table's positions become longitudes and latitudes: PROJ's transformation from the
    /// table's SRS to EPSG:4326 and back (the back direction turns a query box into the table's
    /// coordinates for its R-tree). EPSG:4326 tables need none.
    struct SRSTransform: Sendable {
        /// From the table's SRS to EPSG:4326, longitude first.
        let toWGS84: Projection
        /// From EPSG:4326 to the table's SRS.
        let fromWGS84: Projection

        /// Positions along each side of a query box transformed into the table's SRS: a box's
        /// sides are not straight lines in most projections, so its corners alone would miss
        /// the bulge of a side.
        static let samplesPerSide = 16

        /// - Throws: ``GeoDataError/unsupportedSRS(path:table:srsID:definition:)`` with PROJ's
        ///   reason when PROJ cannot transform between the table's SRS and EPSG:4326.
        init(table: FeatureTable, path: String) throws(GeoDataError) {
            do throws(ProjectionError) {
                toWGS84 = try Projection(from: table.projDefinition, to: "EPSG:4326")
                fromWGS84 = try Projection(from: "EPSG:4326", to: table.projDefinition)
            } catch {
                throw .unsupportedSRS(
                    path: path, table: table.name, srsID: table.srsID, definition: table.srsDefinition)
            }
        }

        /// The geometry in longitudes and latitudes; nil when PROJ cannot place one of its
        /// positions (outside the projection's domain), which the caller counts as undrawable.
        func geographic(_ geometry: Geometry) -> Geometry? {
            func convert(_ positions: [Position]) -> [Position]? {
                guard let output = try? toWGS84.transform(positions.map { (x: $0.longitude, y: $0.latitude) }) else {
                    return nil
                }
                return output.map { Position(longitude: $0.x, latitude: $0.y) }
            }
            switch geometry {
            case .point(let position): return convert([position]).map { .point($0[0]) }
            case .multiPoint(let positions): return convert(positions).map(Geometry.multiPoint)
            case .lineString(let positions): return convert(positions).map(Geometry.lineString)
            case .multiLineString(let lines): return Self.all(lines.map(convert)).map(Geometry.multiLineString)
            case .polygon(let rings): return Self.all(rings.map(convert)).map(Geometry.polygon)
            case .multiPolygon(let polygons):
                return Self.all(polygons.map { rings in Self.all(rings.map(convert)) }).map(Geometry.multiPolygon)
            case .geometryCollection(let members):
                return Self.all(members.map(geographic)).map(Geometry.geometryCollection)
            }
        }

        /// A longitude-latitude box as a box in the table's SRS, enclosing every position of
        /// the box's sides that PROJ can place; nil when it can place none (the caller then
        /// reads every row).
        func tableBox(_ box: BoundingBox) -> BoundingBox? {
            let steps = Self.samplesPerSide
            var samples: [(x: Double, y: Double)] = []
            for step in 0...steps {
                let t = Double(step) / Double(steps)
                let longitude = box.west + (box.east - box.west) * t
                let latitude = box.south + (box.north - box.south) * t
                samples += [(longitude, box.south), (longitude, box.north), (box.west, latitude), (box.east, latitude)]
            }
            var west = Double.infinity
            var south = Double.infinity
            var east = -Double.infinity
            var north = -Double.infinity
            for sample in samples {
                guard let point = try? fromWGS84.transform(x: sample.x, y: sample.y) else { continue }
                west = min(west, point.x)
                east = max(east, point.x)
                south = min(south, point.y)
                north = max(north, point.y)
            }
            guard west.isFinite, south.isFinite else { return nil }
            return BoundingBox(west: west, south: south, east: east, north: north)
        }

        private static func all<T>(_ parts: [T?]) -> [T]? {
            var result: [T] = []
            result.reserveCapacity(parts.count)
            for part in parts {
                guard let part else { return nil }
                result.append(part)
            }
            return result
        }
    }
}

extension GeoPackage.FeatureTable {
    /// What PROJ is given for the table's SRS: `ORGANIZATION:ID` when the SRS has one, else its
    /// WKT definition from `gpkg_spatial_ref_sys`.
    var projDefinition: String {
        srsDefinition.contains(":") ? srsDefinition : (srsWKT ?? srsDefinition)
    }
}

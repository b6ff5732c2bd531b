// Decoding of the `Tile`, `Layer` and `Feature` messages of the specification's schema
// (vector_tile.proto, 2.1): field numbers, wire types and defaults as the schema gives them.

import MapUtilities

extension VectorTile {
    /// Decodes the layers of `undecoded`: those of a tile of at least ``concurrentDecodingBytes``
    /// on every core at once; the error thrown is the one reading in order would meet first.
    init(undecoded: UndecodedVectorTile, skippingBadFeatures: Bool = false) throws(VectorTileError) {
        let layer = { (index: Int) in undecoded.layer(index, skippingBadFeatures: skippingBadFeatures) }
        let results =
            undecoded.byteCount >= Self.concurrentDecodingBytes
            ? [Result<VectorTileLayer, VectorTileError>](concurrentlyComputing: undecoded.layerCount, layer)
            : (0..<undecoded.layerCount).map(layer)
        try self.init(undecoded, layers: results)
    }

    /// The size from which a tile's layers are decoded on every core at once: 32 KiB of
    /// uncompressed bytes (a dense city tile is several times that; smaller tiles decode in well
    /// under a millisecond).
    static let concurrentDecodingBytes = 32 * 1024
}

extension VectorTileLayer {
    /// Decodes a `Layer` message: its name, version and extent, keys and values first, then
    /// its features, since a feature's tags index keys and values that may come after it. With
    /// `skippingBadFeatures`, a feature that cannot be read is left out and its error kept in
    /// ``skippedFeatures``; without, it fails the layer.
    init(bytes: [UInt8], range: Range<Int>, location: VectorTileError.Location, skippingBadFeatures: Bool = false)
        throws(VectorTileError)
    {
        var reader = ProtobufReader(bytes: bytes, range: range, location: location)
        var name: String?
        var version: UInt32 = 1
        var extent = UInt32(VectorTileLayer.defaultExtent)
        var keys: [String] = []
        var valueRanges: [Range<Int>] = []
        var featureRanges: [Range<Int>] = []
        while let field = try reader.nextField() {
            switch field.number {
            case 1:
                name = try reader.readString(field, named: "Layer.name")
                reader.location.layerName = name
            case 2: featureRanges.append(try reader.readLengthDelimited(field, named: "Layer.features"))
            case 3: keys.append(try reader.readString(field, named: "Layer.keys"))
            case 4: valueRanges.append(try reader.readLengthDelimited(field, named: "Layer.values"))
            // uint32 fields keep the low 32 bits of a longer varint, as protocol buffers read them.
            case 5: extent = UInt32(truncatingIfNeeded: try reader.readVarint(field, named: "Layer.extent"))
            case 15: version = UInt32(truncatingIfNeeded: try reader.readVarint(field, named: "Layer.version"))
            default: try reader.skip(field)
            }
        }
        let location = reader.location
        guard let name else { throw .layerWithoutName(location: location) }
        guard (1...2).contains(version) else { throw .unsupportedVersion(version, location: location) }
        guard extent > 0 else { throw .invalidExtent(extent, location: location) }

        var values: [VectorTileValue] = []
        values.reserveCapacity(valueRanges.count)
        for (index, valueRange) in valueRanges.enumerated() {
            var valueLocation = location
            valueLocation.valueIndex = index
            values.append(try VectorTileValue(bytes: bytes, range: valueRange, location: valueLocation))
        }
        var features: [VectorTileFeature] = []
        var skipped: [VectorTileError] = []
        features.reserveCapacity(featureRanges.count)
        for (index, featureRange) in featureRanges.enumerated() {
            var featureLocation = location
            featureLocation.featureIndex = index
            do {
                features.append(
                    try VectorTileFeature(
                        bytes: bytes, range: featureRange, keys: keys, values: values, location: featureLocation
                    ))
            } catch {
                guard skippingBadFeatures else { throw error }
                skipped.append(error)
            }
        }
        self.init(name: name, version: Int(version), extent: Int(extent), features: features, skippedFeatures: skipped)
    }
}

extension VectorTileFeature {
    /// Decodes a `Feature` message: its id, type, properties through the layer's `keys` and
    /// `values`, and geometry.
    init(
        bytes: [UInt8], range: Range<Int>, keys: [String], values: [VectorTileValue],
        location: VectorTileError.Location
    ) throws(VectorTileError) {
        var reader = ProtobufReader(bytes: bytes, range: range, location: location)
        var id: UInt64?
        var type = VectorTileGeometryType.unknown
        var tags: [UInt32] = []
        var numbers: [UInt32] = []
        while let field = try reader.nextField() {
            switch field.number {
            case 1: id = try reader.readVarint(field, named: "Feature.id")
            case 2: try reader.readUInt32s(field, named: "Feature.tags", into: &tags)
            case 3: type = VectorTileGeometryType(fieldValue: try reader.readVarint(field, named: "Feature.type"))
            case 4: try reader.readUInt32s(field, named: "Feature.geometry", into: &numbers)
            default: try reader.skip(field)
            }
        }
        guard tags.count.isMultiple(of: 2) else { throw .oddTagCount(tags.count, location: location) }
        var properties: [String: VectorTileValue] = [:]
        // Room for two entries more: a renderer adds the feature's id and geometry type to its
        // properties (`mapValues` keeps the table as it is, without hashing the keys again).
        properties.reserveCapacity(tags.count / 2 + 2)
        for pair in stride(from: 0, to: tags.count, by: 2) {
            let keyIndex = tags[pair]
            let valueIndex = tags[pair + 1]
            guard Int(keyIndex) < keys.count else {
                throw .keyIndexOutOfRange(keyIndex, keyCount: keys.count, location: location)
            }
            guard Int(valueIndex) < values.count else {
                throw .valueIndexOutOfRange(valueIndex, valueCount: values.count, location: location)
            }
            properties[keys[Int(keyIndex)]] = values[Int(valueIndex)]
        }
        let geometry = try VectorTileGeometry(numbers: numbers, type: type, location: location)
        self.init(id: id, type: type, properties: properties, geometry: geometry)
    }
}

import GeoData
import MapCore
import MapUtilities

/// What the bands of one image share (see `MapSnapshotter.bandRows(of:)`): each layer's features
/// read once for the whole image, which every band then selects its own from by their bounds.
/// Without it each band would read, filter and join the same tiles' features again.
struct BandSharing: Sendable {
    /// The whole image's area, in map points.
    let imageMapRect: MapRect
    let features: SharedLayerFeatures
    /// The area whose pixels one band writes (its own rows, without the buffer its view reaches
    /// beyond them), in map points; the whole image's until ``band(drawing:)`` names a band.
    let drawnMapRect: MapRect

    init(imageMapRect: MapRect) {
        self.imageMapRect = imageMapRect
        features = SharedLayerFeatures()
        drawnMapRect = imageMapRect
    }

    private init(imageMapRect: MapRect, features: SharedLayerFeatures, drawnMapRect: MapRect) {
        self.imageMapRect = imageMapRect
        self.features = features
        self.drawnMapRect = drawnMapRect
    }

    /// The sharing for the band that writes the pixels of `drawnMapRect`: the same features.
    func band(drawing drawnMapRect: MapRect) -> BandSharing {
        BandSharing(imageMapRect: imageMapRect, features: features, drawnMapRect: drawnMapRect)
    }
}

/// Layer features computed once, by whichever band asks first (the others asking for the same
/// layer wait for it; layers go on independently), with each feature's bounds.
final class SharedLayerFeatures: Sendable {
    /// A layer's features and their bounds, in the same order.
    struct Features: Sendable {
        let features: [PreparedFeature]
        let bounds: [MapRect]

        /// The features whose bounds meet `rect`, in order.
        func meeting(_ rect: MapRect) -> [PreparedFeature] {
            var result: [PreparedFeature] = []
            for (feature, box) in zip(features, bounds) where box.meets(rect) { result.append(feature) }
            return result
        }
    }

    /// What was asked for: a layer's clipped or whole (unclipped, joined) features.
    struct Key: Hashable, Sendable {
        var layerID: String
        var whole: Bool
    }

    private let features = OnceCache<Key, Features>()
    private let ranks = OnceCache<String, any Sendable>()

    /// The order of a layer's looks (the first feature of the whole image with each look
    /// first), made by `make` on first use: bands draw a layer's groups of features in the order
    /// the whole image would, whichever of its features each band meets.
    func lookRanks<Look: Hashable & Sendable>(layerID: String, make: () -> [Look: Int]) -> [Look: Int] {
        ranks.value(for: layerID, make: make) as? [Look: Int] ?? make()
    }

    /// The features under `key`, made by `make` on first use.
    func features(
        _ key: Key, make: () throws(RendererError) -> [PreparedFeature]
    ) throws(RendererError) -> Features {
        try features.value(for: key) { () throws(RendererError) -> Features in
            let features = try make()
            return Features(features: features, bounds: features.map(\.geometry.bounds))
        }
    }
}

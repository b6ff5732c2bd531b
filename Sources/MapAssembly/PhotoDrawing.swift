public import MapComposer
public import MapStyle

/// How maps and tiles draw the photos: the selected photo, accuracy circles, clustering, the pin
/// colour. What `render`, `flyover`, `tiles export` and `serve` share.
public struct PhotoDrawing: Hashable, Sendable {
    /// The photo whose callout is drawn: `first`, or a photo's id, title, or the start or a part
    /// of one title; nil for none.
    public var select: String?
    /// Whether each photo's accuracy circle is drawn when known.
    public var showsAccuracy: Bool
    /// When pins cluster. The default is ``MapComposer/PhotoMapRequest/Clustering/automatic``:
    /// where two would overlap (tiles: as the cluster index groups them at each zoom).
    public var clustering: PhotoMapRequest.Clustering
    /// Which photos may share a cluster.
    public var clusterGrouping: PhotoMapRequest.ClusterGrouping
    /// The colour of every pin, as written (red, green, purple or a CSS colour); nil gives each
    /// photographer one.
    public var pinColor: String?

    public init(
        select: String? = nil, showsAccuracy: Bool = false, clustering: PhotoMapRequest.Clustering = .automatic,
        clusterGrouping: PhotoMapRequest.ClusterGrouping = .photographer, pinColor: String? = nil
    ) {
        self.select = select
        self.showsAccuracy = showsAccuracy
        self.clustering = clustering
        self.clusterGrouping = clusterGrouping
        self.pinColor = pinColor
    }

    /// The request's selection for `select`: `first`, a photo, or none.
    public static func selection(_ select: String?) -> PhotoMapRequest.Selection {
        select.map { $0 == "first" ? .first : .photo($0) } ?? .none
    }

    /// MapKit's classic pin colours by name (red, green, purple), or any CSS colour; nil for neither.
    public static func pinColor(_ text: String) -> Color? {
        let classic = ["red": "#ff3b30", "green": "#34c759", "purple": "#af52de"]
        return try? Color(css: classic[text.lowercased()] ?? text)
    }

    /// Sets the request's selection, pin colour, accuracy circles and clustering (a pin colour
    /// that is not one is left out: check it with ``pinColor(_:)`` first).
    public func apply(to request: inout PhotoMapRequest) {
        request.selection = Self.selection(select)
        request.pinColor = pinColor.flatMap(Self.pinColor)
        request.showsAccuracy = showsAccuracy
        request.clustering = clustering
        request.clusterGrouping = clusterGrouping
    }

    /// The options as text, for ``ContentFingerprint``.
    public var fingerprint: String {
        let clusters =
            switch clustering {
            case .automatic: "false"
            case .never: "true"
            case .always: "always"
            }
        return [select ?? "-", pinColor ?? "-", "\(showsAccuracy)", clusters, clusterGrouping.rawValue].joined(
            separator: ",")
    }
}

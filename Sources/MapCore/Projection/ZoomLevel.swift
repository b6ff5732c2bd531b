import Foundation

/// Conversions between zoom level, zoom scale and ground resolution.
///
/// Zoom level z shows the world as 256 × 2^z screen points, so it is continuous: 2.5 lies
/// between 2 and 3. The zoom scale is MapKit's MKZoomScale, screen points per map point.
/// Ground resolution is meters per screen point at a latitude; divide by the screen scale
/// (2 for @2x) for meters per pixel.
public enum ZoomLevel {
    /// The deepest zoom level the tile grid addresses: 30.
    public static let maximum: Double = 30

    /// Screen points per map point at a zoom level: 2^(z − 20).
    public static func zoomScale(atZoomLevel zoomLevel: Double) -> Double {
        exp2(zoomLevel - WebMercator.mapPointZoomLevel)
    }

    /// The zoom level at which one map point is `zoomScale` screen points.
    public static func zoomLevel(forZoomScale zoomScale: Double) -> Double {
        WebMercator.mapPointZoomLevel + log2(zoomScale)
    }

    /// Meters on the ground per screen point at a zoom level and latitude.
    ///
    /// For example, zoom 0 at the equator is 156,543.03 m per point.
    public static func metersPerPoint(atZoomLevel zoomLevel: Double, latitude: Double) -> Double {
        WebMercator.metersPerMapPoint(atLatitude: latitude) / zoomScale(atZoomLevel: zoomLevel)
    }

    /// Meters on the ground per pixel at a zoom level, latitude and screen scale (pixels per point).
    public static func metersPerPixel(atZoomLevel zoomLevel: Double, latitude: Double, screenScale: Double) -> Double {
        metersPerPoint(atZoomLevel: zoomLevel, latitude: latitude) / screenScale
    }

    /// The zoom level at which one screen point covers `metersPerPoint` meters at a latitude.
    public static func zoomLevel(forMetersPerPoint metersPerPoint: Double, latitude: Double) -> Double {
        zoomLevel(forZoomScale: WebMercator.metersPerMapPoint(atLatitude: latitude) / metersPerPoint)
    }
}

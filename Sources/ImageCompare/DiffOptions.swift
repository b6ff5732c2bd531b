import ImageCodec

/// An opaque colour used to paint the diff image.
public struct RGBColor: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    /// Creates a colour from 8-bit components.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// (255, 0, 0).
    public static let red = RGBColor(red: 255, green: 0, blue: 0)
    /// (255, 255, 0).
    public static let yellow = RGBColor(red: 255, green: 255, blue: 0)
}

/// How ``compare(_:_:options:makeDiffImage:)`` decides that two pixels differ, and how it paints
/// the diff image. The options and their defaults mirror pixelmatch's.
///
/// For example, to ignore small colour changes and count anti-aliased pixels as well:
/// ```swift
/// let options = DiffOptions(threshold: 0.2, includeAntiAliased: true)
/// ```
public struct DiffOptions: Hashable, Sendable {
    /// The largest colour difference still taken as equal, from 0 (exact) to 1 (anything goes),
    /// as a fraction of the largest possible YIQ distance (pixelmatch's `threshold`).
    ///
    /// The default is 0.1.
    public var threshold: Double
    /// Whether pixels that look like anti-aliasing in either image count as differences
    /// (pixelmatch's `includeAA`). When false they are painted ``antiAliasedColor`` and not counted.
    ///
    /// The default is false.
    public var includeAntiAliased: Bool
    /// The opacity, from 0 to 1, of the expected image drawn in gray under the diff (pixelmatch's `alpha`).
    ///
    /// The default is 0.1.
    public var alpha: Double
    /// The colour of anti-aliased pixels in the diff image (pixelmatch's `aaColor`).
    ///
    /// The default is yellow, (255, 255, 0).
    public var antiAliasedColor: RGBColor
    /// The colour of differing pixels in the diff image (pixelmatch's `diffColor`).
    ///
    /// The default is red, (255, 0, 0).
    public var diffColor: RGBColor
    /// When set, the colour of differing pixels that are darker in the actual image than in the
    /// expected one, so that lightened and darkened pixels can be told apart (pixelmatch's `diffColorAlt`).
    ///
    /// The default is nil: every differing pixel is painted ``diffColor``.
    public var diffColorAlt: RGBColor?
    /// Whether to paint only the differing pixels over a transparent background, without the
    /// faded expected image or the anti-aliased pixels (pixelmatch's `diffMask`).
    ///
    /// The default is false.
    public var diffMask: Bool

    /// Creates options; every parameter defaults to pixelmatch's default.
    public init(
        threshold: Double = 0.1,
        includeAntiAliased: Bool = false,
        alpha: Double = 0.1,
        antiAliasedColor: RGBColor = .yellow,
        diffColor: RGBColor = .red,
        diffColorAlt: RGBColor? = nil,
        diffMask: Bool = false
    ) {
        self.threshold = threshold
        self.includeAntiAliased = includeAntiAliased
        self.alpha = alpha
        self.antiAliasedColor = antiAliasedColor
        self.diffColor = diffColor
        self.diffColorAlt = diffColorAlt
        self.diffMask = diffMask
    }
}

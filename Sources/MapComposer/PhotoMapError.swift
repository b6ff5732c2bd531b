public import Foundation
public import GeoData
public import MapCore
public import MapRenderer
public import MapUtilities
public import PhotoSources

/// An error assembling a photo map, with a message naming the input at fault.
public enum PhotoMapError: Error, Sendable {
    /// No photo has a location (after the photographer filter): nothing to place on the map.
    case noLocatedPhotos
    /// `--select` named no photo by id, title, title prefix or part of a title; `suggestions`
    /// are the closest titles by edit distance, best first (possibly none).
    case unknownSelection(String, suggestions: [String])
    /// `--select` is the start or a part of several photos' titles; `matches` are those titles
    /// (at most ``PhotoMapBuilder/shownMatchCount``) and `count` how many there are.
    case ambiguousSelection(String, matches: [String], count: Int)
    /// `--place` matched no feature name in the style's basemap; `suggestions` are the closest
    /// names there, best first (possibly none).
    case unknownPlace(String, suggestions: [String])
    /// Nothing to show and no region given.
    case nothingToShow
    /// Photos could not be read.
    case photos(PhotoSourceError)
    /// A track or overlay file could not be read.
    case overlay(GeoDataError)
    /// The framing cannot be shown in the requested view (a size, scale or region out of range).
    case viewport(MapCoreError)
    /// A source could not be read while looking up a place.
    case renderer(RendererError)
    /// A fly-over's animated PNG, video or folder of frames could not be written.
    case animationOutput(path: String, reason: String)
    /// A fly-over video was asked for, and `ffmpeg`, which makes it, is not installed.
    case videoEncoderMissing(path: String)
}

extension PhotoMapError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .noLocatedPhotos:
            return "no photo has a location: nothing to place on the map"
        case .unknownSelection(let name, let suggestions):
            return "--select: no photo has the id or title '\(name)', or a title starting with or containing it"
                + Self.didYouMean(suggestions)
        case .ambiguousSelection(let name, let matches, let count):
            let listed = matches.map { "'\($0)'" }.joined(separator: ", ") + (count > matches.count ? ", …" : "")
            return
                "--select: '\(name)' matches \(count) photo titles: \(listed); give more of the title, or the photo's id"
        case .unknownPlace(let name, let suggestions):
            return "--place: no country, state/province or town named '\(name)' in the basemap"
                + Self.didYouMean(suggestions)
        case .nothingToShow:
            return "nothing to show: give --photos, --track, --overlay or --circle, or a region"
        case .photos(let error):
            return error.description
        case .overlay(let error):
            return error.description
        case .viewport(let error):
            return error.description
        case .renderer(let error):
            return error.description
        case .animationOutput(let path, let reason):
            return "\(path): cannot write the animation: \(reason)"
        case .videoEncoderMissing(let path):
            return "\(path): an MP4 video is made by ffmpeg, which is not installed (sudo apt-get install ffmpeg); "
                + "write an animated .png or a folder of frames (a path ending in /) instead"
        }
    }

    public var errorDescription: String? { description }

    /// `; did you mean 'A', 'B'?` for suggestions, best first; empty for none.
    public static func didYouMean(_ suggestions: [String]) -> String {
        suggestions.isEmpty ? "" : "; did you mean " + suggestions.map { "'\($0)'" }.joined(separator: ", ") + "?"
    }
}

extension PhotoMapError: ExitStatusError {
    /// 1 when no photo has a location (a negative outcome), the wrapped error's status for
    /// photos that cannot be read, else 2: bad input.
    public var exitStatus: Int32 {
        switch self {
        case .noLocatedPhotos: return 1
        case .photos(let error): return error.exitStatus
        default: return 2
        }
    }
}

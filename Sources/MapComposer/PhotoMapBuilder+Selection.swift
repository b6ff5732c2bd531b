import Foundation
import MapUtilities
import PhotoSources

extension PhotoMapBuilder {
    /// How many titles an ambiguous selection lists, and how many an unknown one suggests: 5
    /// and 3.
    public static let shownMatchCount = 5
    static let suggestedTitleCount = 3

    /// The photo a request selects, nil for none.
    ///
    /// `.photo(value)` finds, in this order, stopping at the first step that finds any: the photo
    /// whose id is `value`; the first photo whose title (``Photo/calloutTitle``) is `value`,
    /// ignoring case; the photo whose title starts with `value`, ignoring case; the photo whose
    /// title contains it. The last two must find one title (photos sharing it: the first).
    ///
    /// - Throws: ``PhotoMapError/ambiguousSelection(_:matches:count:)`` when a prefix or part
    ///   fits several titles, listing them; ``PhotoMapError/unknownSelection(_:suggestions:)``
    ///   when nothing fits, with the titles closest by edit distance.
    func selectedPhoto(in request: PhotoMapRequest) throws(PhotoMapError) -> Photo? {
        switch request.selection {
        case .none:
            return nil
        case .first:
            return request.photos.first
        case .photo(let value):
            let photos = request.photos
            if let photo = photos.first(where: { $0.id == value }) { return photo }
            let wanted = value.lowercased()
            let titles = photos.map { $0.calloutTitle.lowercased() }
            if let index = titles.firstIndex(of: wanted) { return photos[index] }
            for fits in [{ (title: String) in title.hasPrefix(wanted) }, { (title: String) in title.contains(wanted) }]
            {
                let matching = photos.indices.filter { fits(titles[$0]) }
                guard let first = matching.first else { continue }
                // One title, however many photos share it.
                var distinct: [String] = []
                for index in matching where !distinct.contains(photos[index].calloutTitle) {
                    distinct.append(photos[index].calloutTitle)
                }
                guard distinct.count == 1 else {
                    throw .ambiguousSelection(
                        value, matches: Array(distinct.prefix(Self.shownMatchCount)), count: distinct.count)
                }
                return photos[first]
            }
            throw .unknownSelection(value, suggestions: Self.closestTitles(to: wanted, in: photos))
        }
    }

    /// The photo titles closest to `wanted` (lowercased), ignoring case, best first: at most
    /// ``suggestedTitleCount``. A title holding every word of `wanted` in another order comes
    /// first ("Mirror Lake Half Dome" finds "Half Dome in Mirror Lake"); otherwise a title counts
    /// by the edit distance of the nearer of itself and its start as long as `wanted` (people type
    /// the start of a title), and only when that is within a third of `wanted`'s length (at least
    /// 2): "Tunel View" finds "Tunnel View, clearing storm", "xyz" nothing.
    private static func closestTitles(to wanted: String, in photos: [Photo]) -> [String] {
        let wantedWords = Set(words(of: wanted))
        var best: [String: Int] = [:]
        for photo in photos {
            let title = photo.calloutTitle
            let lowercased = title.lowercased()
            let distance =
                !wantedWords.isEmpty && wantedWords.isSubset(of: words(of: lowercased))
                ? 0
                : min(
                    lowercased.editDistance(to: wanted),
                    String(lowercased.prefix(wanted.count)).editDistance(to: wanted))
            guard distance <= max(2, wanted.count / 3) else { continue }
            best[title] = min(best[title] ?? .max, distance)
        }
        return best.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.prefix(suggestedTitleCount).map(\.key)
    }

    /// The words of `text`: its runs of letters and digits.
    private static func words(of text: String) -> [Substring] {
        text.split { !$0.isLetter && !$0.isNumber }
    }
}

import Foundation
import MapComposer
public import MapCore
public import MapRenderer
import MapStyle

/// Which tiles of a tileset draw differently under two contents, as
/// ``MapTileRenderer/changedTiles(comparedWith:around:zooms:)`` finds them.
public enum ChangedTiles: Hashable, Sendable {
    /// These tiles, possibly none: every other tile draws the same under both contents.
    case tiles(Set<TileID>)
    /// Every tile may have changed: a photographer's pin colour changed (a new photographer took
    /// the palette slot another had, say), so every pin and cluster of theirs is redrawn; or the
    /// overlays, whether annotations cluster, the clustering options, the style, the data or the
    /// tile options differ, or markers other than an `AnnotationSet` are drawn.
    case all
}

extension MapTileRenderer {
    /// How far beyond a marker's frame its pixels may reach, in points: 3. A pin is painted as a
    /// bitmap at whole pixels (its tip rounded to the nearest pixel corner), with a pixel of
    /// padding round the pin and shadow, whose ellipse pokes a third of a point out of the frame;
    /// 3 points hold the whole bitmap at any scale. Discs and images overhang by antialiasing only.
    static let changedMarkerMarginPoints: Double = 3

    /// The tiles at `zooms` that draw differently under `other`'s content: what a tile cache must
    /// drop when a photo library changes (photos added, removed or moved) while its tiles are
    /// served, found without rendering a tile.
    ///
    /// `self` draws the old content and `other` the new one, with the same style, data and
    /// options. At each zoom, the markers of both contents (pins, marker images, cluster discs,
    /// spread as tiles spread them) are laid out in windows around the places that changed, in
    /// the world viewport tiles are cut from, and compared by everything that sets their pixels:
    /// annotation and whether it changed, or cluster count and colour; where it stands; whether it
    /// is the selected marker, drawn last. The frames of the markers only one content has, grown
    /// by ``changedMarkerMarginPoints``, give the tiles. Where one marker changed, the pixels it
    /// shares with unchanged markers lie in its frame, whatever the drawing order; pixels outside
    /// every changed frame draw the same unchanged markers in the same order.
    ///
    /// A window reaches twice a change's reach round each place: a marker's size and, at zooms
    /// that cluster, three cluster radii and how far clusters of several photographers spread
    /// (some 330 points for 40-point clusters). Clusters are greedy, so a photo added can re-form
    /// clusters some way off, which re-form others along chains of photos: a window with a
    /// change within reach of its edge is doubled, up to the whole world, until every change lies
    /// that far inside. A cluster's change reaches only as far as chains of items within the
    /// cluster radius lead, so beyond a window's unchanged edge nothing changes. Changes at one
    /// zoom are places at the next zoom out, whose clusters are made from them (zooms deeper than
    /// `zooms`, up to where clustering stops, are compared for that). The callout (its frame,
    /// text, thumbnail and pointer) is compared at each zoom, and with
    /// ``TileRenderOptions/Layers/all`` the labels, which keep off the markers (each zoom's
    /// whole-world placement of both renderers: the costly part, as in a render, kept for it).
    ///
    /// The cost is two marker layouts per window and zoom: a few milliseconds per change for
    /// overlay tiles.
    ///
    /// The tiles found are exact up to their frames: a tile is listed when a changed marker's
    /// frame (or a changed callout's or label's) reaches into it, so it may list a tile that the
    /// transparent corner of a frame only grazes.
    ///
    /// - Parameters:
    ///   - other: The renderer of the new content.
    ///   - coordinates: Where the change happened: the old and new place of every photo added,
    ///     removed or moved. Comparing the two contents' annotations by ``MapAnnotation/id`` adds
    ///     every annotation added, removed, moved, given another marker or clustering identifier,
    ///     or moved out of its order among the others (the cluster index sweeps annotations in
    ///     their order), so this may be empty.
    ///   - zooms: The tile zooms, within 0...``TileID/maximumZoom``.
    /// - Returns: The tiles of `zooms` that differ; ``ChangedTiles/all`` when a photographer's
    ///   pin colour changed (an annotation of both contents, with the same clustering identifier,
    ///   has a pin of another colour, or a clustering identifier of marker images takes another
    ///   palette colour), when the overlays differ, when one content clusters and the other does
    ///   not or their cluster indices cluster differently (other options, or a level crossing the
    ///   size that is swept in stripes, see ``ClusterIndex/sweepsAlike(_:)``), or when the
    ///   renderers differ in anything but content. With ``TileRenderOptions/Layers/basemap`` no
    ///   tile changes.
    /// - Throws: ``RendererError/invalidTileOptions(reason:)`` for zooms outside 0-30.
    public func changedTiles(
        comparedWith other: MapTileRenderer, around coordinates: [Coordinate], zooms: ClosedRange<Int>
    ) throws(RendererError) -> ChangedTiles {
        guard zooms.lowerBound >= 0, zooms.upperBound <= TileID.maximumZoom else {
            throw .invalidTileOptions(reason: "zooms \(zooms) are outside 0-\(TileID.maximumZoom)")
        }
        guard drawsLike(other) else { return .all }
        guard options.layers != .basemap else { return .tiles([]) }
        guard content.overlays == other.content.overlays,
            content.markers == nil || content.markers is AnnotationSet,
            other.content.markers == nil || other.content.markers is AnnotationSet
        else { return .all }
        let old = content.annotationSet
        let new = other.content.annotationSet
        let clusterOptions: ClusterOptions?
        switch (old.clusterIndex, new.clusterIndex) {
        case (nil, nil):
            clusterOptions = nil
        case (let oldIndex?, let newIndex?):
            guard oldIndex.sweepsAlike(newIndex) else { return .all }
            clusterOptions = oldIndex.options
        default:
            return .all
        }
        let metadata = style.mapwright
        guard
            let changes = AnnotationChanges(
                old: old.annotations, new: new.annotations, ordered: clusterOptions != nil, pins: metadata.pins)
        else { return .all }

        // The places that changed, in map points: given, found, and the selection's.
        var places = coordinates.map(MapPoint.init) + changes.places
        if old.selectedAnnotationID != new.selectedAnnotationID {
            for (annotations, id) in [
                (old.annotations, old.selectedAnnotationID), (new.annotations, new.selectedAnnotationID),
            ] {
                guard let id else { continue }
                places += annotations.filter { $0.id == id }.map { MapPoint($0.coordinate) }
            }
        }

        // How far a change may reach, apart from clusters: the largest marker.
        let markerReach =
            max(
                AnnotationLayout.markerReachPoints(of: old.annotations),
                AnnotationLayout.markerReachPoints(of: new.annotations))
            + MapTileRenderer.changedMarkerMarginPoints
        let identifierCount = Set(
            old.annotations.compactMap(\.clusteringIdentifier) + new.annotations.compactMap(\.clusteringIdentifier)
        ).count
        let spreadingReach = AnnotationLayout.spreadingReachPoints(
            groupSize: 2 * identifierCount, style: metadata.cluster)
        let comparison = MarkerComparison(old: old, new: new, changedIDs: changes.changedIDs, style: metadata)

        // From the deepest zoom whose clusters are made from the annotations themselves, so that
        // each zoom's windows hold the changes its clusters are made from.
        var topZoom = zooms.upperBound
        if let clusterOptions {
            let deepest = clusterOptions.maximumZoom - Int(log2(Double(options.tileSizePoints) / 256))
            topZoom = max(topZoom, min(TileID.maximumZoom, deepest))
        }
        var tiles = Set<TileID>()
        var deeperChanges: [MapPoint] = []
        for zoom in stride(from: topZoom, through: zooms.lowerBound, by: -1) {
            let world = try worldViewport(forTileZoom: zoom)
            let pointsPerMapPoint = ZoomLevel.zoomScale(atZoomLevel: world.zoomLevel)
            var reach = markerReach
            if let clusterOptions {
                let level = clusterOptions.zoomLevel(forQuery: world.zoomLevel)
                if level <= clusterOptions.maximumZoom {
                    // The cluster radius at this level, in the world's points.
                    let radius =
                        clusterOptions.radiusPoints * 256 / clusterOptions.tileSizePoints
                        * exp2(world.zoomLevel - Double(level))
                    reach += 3 * radius + spreadingReach
                }
            }
            let changed = comparison.changedMarkers(
                around: places + deeperChanges, in: world, reachPoints: reach, wrapsAnnotations: clusterOptions == nil)
            if clusterOptions != nil {
                deeperChanges = changed.map {
                    MapPoint(x: $0.tip.x / pointsPerMapPoint, y: $0.tip.y / pointsPerMapPoint)
                }
            }
            guard zooms.contains(zoom) else { continue }
            var frames = changed.map {
                $0.frame.insetBy(
                    dx: -MapTileRenderer.changedMarkerMarginPoints, dy: -MapTileRenderer.changedMarkerMarginPoints)
            }
            let oldCallout = try worldCallout(atTileZoom: zoom)
            let newCallout = try other.worldCallout(atTileZoom: zoom)
            if !MapTileRenderer.drawAlike(oldCallout, newCallout) {
                frames += [oldCallout?.inkFrame, newCallout?.inkFrame].compactMap { $0 }
            }
            if options.layers == .all {
                // A region's labels move only where its candidates meet a changed marker or callout
                // (they keep clear of those alone); a label draws the same when everything it holds is the same.
                frames += try changedLabelFrames(comparedWith: other, meeting: frames, zoom: zoom)
            }
            for frame in frames { insertTiles(touching: frame, zoom: zoom, into: &tiles) }
        }
        return .tiles(tiles)
    }

    /// Whether two callouts draw the same pixels.
    private static func drawAlike(_ a: (any MarkerCalloutPlacement)?, _ b: (any MarkerCalloutPlacement)?) -> Bool {
        switch (a, b) {
        case (nil, nil):
            return true
        case (let a?, let b?):
            return a.drawsLike(b)
        default:
            return false
        }
    }

    /// Adds the tiles of ``options``' size at `zoom` that a frame in world points reaches into:
    /// columns wrapped round the antimeridian, rows cut to the world.
    private func insertTiles(touching frame: ViewRect, zoom: Int, into tiles: inout Set<TileID>) {
        guard frame.minX.isFinite, frame.maxX.isFinite, frame.minY.isFinite, frame.maxY.isFinite,
            frame.size.width > 0, frame.size.height > 0
        else { return }
        let side = Double(options.tileSizePoints)
        let count = 1 << zoom
        let firstRow = max(0, Int((frame.minY / side).rounded(.down)))
        let lastRow = min(count - 1, Int((frame.maxY / side).rounded(.up)) - 1)
        var firstColumn = Int((frame.minX / side).rounded(.down))
        var lastColumn = Int((frame.maxX / side).rounded(.up)) - 1
        guard firstRow <= lastRow, firstColumn <= lastColumn else { return }
        if lastColumn - firstColumn + 1 >= count { (firstColumn, lastColumn) = (0, count - 1) }
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn {
                let wrapped = ((column % count) + count) % count
                if let tile = try? TileID(z: zoom, x: wrapped, y: row) { tiles.insert(tile) }
            }
        }
    }
}

/// How two contents' annotations differ, compared by ``MapAnnotation/id``.
struct AnnotationChanges {
    /// The ids of both contents whose annotations draw differently: another coordinate, marker
    /// or clustering identifier (for an id several annotations share, any difference among them,
    /// or another number of them).
    var changedIDs: Set<String> = []
    /// Where annotations changed, old places and new: those of changed ids, of ids only one
    /// content has, and, when the annotations are clustered, of annotations out of their old
    /// order among the annotations of both (the fewest, the rest keeping theirs).
    var places: [MapPoint] = []

    /// Compares two contents' annotations; nil when a photographer's colour changed: an id of
    /// both with the same clustering identifier has a pin of another colour, or a clustering
    /// identifier given to marker images (whose clusters take its palette colour, see
    /// `AnnotationLayout.ClusterColors`) takes another colour among the identifiers present.
    init?(old: [MapAnnotation], new: [MapAnnotation], ordered: Bool, pins: MapwrightMetadata.Pins) {
        func indicesByID(_ annotations: [MapAnnotation]) -> [String: [Int]] {
            var result: [String: [Int]] = [:]
            for (index, annotation) in annotations.enumerated() { result[annotation.id, default: []].append(index) }
            return result
        }
        func drawAlike(_ a: MapAnnotation, _ b: MapAnnotation) -> Bool {
            a.coordinate == b.coordinate && a.clusteringIdentifier == b.clusteringIdentifier && a.marker == b.marker
        }
        let oldIndices = indicesByID(old)
        let newIndices = indicesByID(new)
        for (id, before) in oldIndices {
            guard let after = newIndices[id] else {
                places += before.map { MapPoint(old[$0].coordinate) }
                continue
            }
            for (a, b) in zip(before, after) {
                if case .pin(let oldColor) = old[a].marker, case .pin(let newColor) = new[b].marker,
                    oldColor != newColor,
                    old[a].clusteringIdentifier != nil, old[a].clusteringIdentifier == new[b].clusteringIdentifier
                {
                    return nil
                }
            }
            if before.count != after.count || zip(before, after).contains(where: { !drawAlike(old[$0], new[$1]) }) {
                changedIDs.insert(id)
                places += before.map { MapPoint(old[$0].coordinate) } + after.map { MapPoint(new[$0].coordinate) }
            }
        }
        for (id, after) in newIndices where oldIndices[id] == nil {
            places += after.map { MapPoint(new[$0].coordinate) }
        }
        guard ordered else { return }

        // Clusters of marker images take their identifier's colour among those present.
        let imageIdentifiers = Set(
            (old + new).compactMap { annotation -> String? in
                guard case .image = annotation.marker, let identifier = annotation.clusteringIdentifier,
                    !identifier.isEmpty
                else { return nil }
                return identifier
            })
        if !imageIdentifiers.isEmpty {
            let oldColors = pins.colors(forKeys: old.compactMap(\.clusteringIdentifier).filter { !$0.isEmpty })
            let newColors = pins.colors(forKeys: new.compactMap(\.clusteringIdentifier).filter { !$0.isEmpty })
            for identifier in imageIdentifiers {
                if let before = oldColors[identifier], let after = newColors[identifier], before != after { return nil }
            }
        }

        // The index sweeps annotations in their order: those of both contents whose order
        // changed count as moved. The longest run in the old order stays; the others move.
        var occurrences: [String: Int] = [:]
        var pairs: [(old: Int, new: Int)] = []
        for (index, annotation) in new.enumerated() {
            let occurrence = occurrences[annotation.id, default: 0]
            occurrences[annotation.id] = occurrence + 1
            if let before = oldIndices[annotation.id], occurrence < before.count {
                pairs.append((before[occurrence], index))
            }
        }
        let kept = Set(AnnotationChanges.longestIncreasingSubsequence(pairs.map(\.old)))
        for pair in pairs where !kept.contains(pair.old) {
            places += [MapPoint(old[pair.old].coordinate), MapPoint(new[pair.new].coordinate)]
        }
    }

    /// A longest strictly increasing subsequence of `values`, as values (patience sorting).
    static func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
        // tails[k]: the index in `values` of the smallest tail of an increasing run of k + 1.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result: [Int] = []
        var index = tails.last ?? -1
        while index >= 0 {
            result.append(values[index])
            index = previous[index]
        }
        return result.reversed()
    }
}

/// Lays out two contents' markers in windows of a world viewport and finds those only one has.
struct MarkerComparison {
    /// What sets a placed marker's pixels.
    struct Signature: Hashable {
        enum Kind: Hashable {
            /// An annotation's marker: its id, and which content's when the id's annotations
            /// changed (0 when they did not, else 1 for the old content and 2 for the new).
            case annotation(id: String, revision: Int)
            /// A cluster's disc: its count (size and text) and colour.
            case cluster(count: Int, color: Color?)
        }

        let kind: Kind
        let tip: ViewPoint
        let scale: Double
        /// Whether it is the selected marker, drawn over the others.
        let isSelected: Bool
    }

    /// A marker only one content has, in world points.
    struct Changed {
        let tip: ViewPoint
        let frame: ViewRect
    }

    let old: AnnotationSet
    let new: AnnotationSet
    let changedIDs: Set<String>
    let style: MapwrightMetadata

    /// The markers only one content has that reach into windows around `places`, each window
    /// grown until every changed marker in it lies `reachPoints` inside its edges (or the world's).
    ///
    /// - Parameter wrapsAnnotations: Whether annotations are laid out one by one, each in the
    ///   world copy nearest the world's centre (no cluster index): windows then take the
    ///   annotations of every copy.
    func changedMarkers(around places: [MapPoint], in world: Viewport, reachPoints: Double, wrapsAnnotations: Bool)
        -> [Changed]
    {
        let pointsPerMapPoint = ZoomLevel.zoomScale(atZoomLevel: world.zoomLevel)
        // Twice the reach round each place, so that what changes within the reach of a place
        // lies the reach inside the window.
        let reach = reachPoints / pointsPerMapPoint
        var pending = MarkerComparison.merged(
            places.map {
                MarkerComparison.normalized(
                    MapRect(x: $0.x - 2 * reach, y: $0.y - 2 * reach, width: 4 * reach, height: 4 * reach))
            })
        var done: [(window: MapRect, changed: [Changed])] = []
        while let window = pending.popLast() {
            let changed = changedMarkers(in: window, world: world, wrapsAnnotations: wrapsAnnotations)
            let nearEdge = changed.contains {
                !MarkerComparison.lies(
                    $0.tip, atLeast: reachPoints, inside: window, pointsPerMapPoint: pointsPerMapPoint)
            }
            guard nearEdge, window != MarkerComparison.normalized(.world) else {
                done.append((window, changed))
                continue
            }
            // Twice as wide and high, with whatever it now meets.
            var grown = MarkerComparison.normalized(window.insetBy(dx: -window.width / 2, dy: -window.height / 2))
            var absorbed = true
            while absorbed {
                absorbed = false
                if let index = pending.firstIndex(where: { $0.intersects(grown) }) {
                    grown = MarkerComparison.normalized(grown.union(pending.remove(at: index)))
                    absorbed = true
                } else if let index = done.firstIndex(where: { $0.window.intersects(grown) }) {
                    grown = MarkerComparison.normalized(grown.union(done.remove(at: index).window))
                    absorbed = true
                }
            }
            pending.append(grown)
        }
        return done.flatMap(\.changed)
    }

    /// The markers only one content has that reach into a window.
    private func changedMarkers(in window: MapRect, world: Viewport, wrapsAnnotations: Bool) -> [Changed] {
        let before = markers(of: old, revision: 1, in: window, world: world, wrapsAnnotations: wrapsAnnotations)
        let after = markers(of: new, revision: 2, in: window, world: world, wrapsAnnotations: wrapsAnnotations)
        return before.compactMap { after[$0.key] == nil ? Changed(tip: $0.key.tip, frame: $0.value) : nil }
            + after.compactMap { before[$0.key] == nil ? Changed(tip: $0.key.tip, frame: $0.value) : nil }
    }

    /// A content's markers that reach into a window, by signature, with their frames.
    private func markers(
        of content: AnnotationSet, revision: Int, in window: MapRect, world: Viewport, wrapsAnnotations: Bool
    ) -> [Signature: ViewRect] {
        let pointsPerMapPoint = ZoomLevel.zoomScale(atZoomLevel: world.zoomLevel)
        let worldPoints = WebMercator.worldSize * pointsPerMapPoint
        let area = ViewRect(
            x: window.minX * pointsPerMapPoint, y: window.minY * pointsPerMapPoint,
            width: window.width * pointsPerMapPoint, height: window.height * pointsPerMapPoint)
        func reachesIn(_ frame: ViewRect) -> Bool {
            let shifts = wrapsAnnotations ? [-worldPoints, 0, worldPoints] : [0]
            return shifts.contains { shift in
                frame.maxX + shift > area.minX && frame.minX + shift < area.maxX && frame.maxY > area.minY
                    && frame.minY < area.maxY
            }
        }
        var annotations = content.annotations
        if content.clusterIndex == nil {
            // Laid out one by one: only those that can reach the window matter.
            let reach = AnnotationLayout.markerReachPoints(of: annotations)
            annotations = annotations.filter { annotation in
                guard let tip = world.point(for: annotation.coordinate) else { return false }
                return reachesIn(ViewRect(x: tip.x - reach, y: tip.y - reach, width: 2 * reach, height: 2 * reach))
            }
        }
        let layout = AnnotationLayout(
            annotations: annotations, clusterIndex: content.clusterIndex, viewport: world, visibleMapRect: window,
            style: style)
        let selected = content.selectedAnnotationID.flatMap {
            layout.marker(showing: $0, annotations: annotations, clusterIndex: content.clusterIndex)
        }
        var result: [Signature: ViewRect] = [:]
        for marker in layout.placed where reachesIn(marker.frame) {
            let kind: Signature.Kind
            switch marker.content {
            case .annotation(let annotation):
                kind = .annotation(id: annotation.id, revision: changedIDs.contains(annotation.id) ? revision : 0)
            case .cluster(let cluster):
                kind = .cluster(count: cluster.count, color: marker.clusterColor)
            }
            let signature = Signature(
                kind: kind, tip: marker.tip, scale: marker.scale, isSelected: marker.sortKey == selected?.sortKey)
            result[signature] = marker.frame
        }
        return result
    }

    /// Whether a point in world points lies `distance` points or more inside a window's edges,
    /// edges on the world's edge (and the sides of a window as wide as the world) not counting:
    /// nothing lies beyond them.
    private static func lies(
        _ point: ViewPoint, atLeast distance: Double, inside window: MapRect, pointsPerMapPoint: Double
    ) -> Bool {
        let world = WebMercator.worldSize
        let wholeWidth = window.width >= world
        let west = wholeWidth ? -Double.infinity : window.minX * pointsPerMapPoint + distance
        let east = wholeWidth ? Double.infinity : window.maxX * pointsPerMapPoint - distance
        let north = window.minY <= 0 ? -Double.infinity : window.minY * pointsPerMapPoint + distance
        let south = window.maxY >= world ? Double.infinity : window.maxY * pointsPerMapPoint - distance
        return point.x >= west && point.x <= east && point.y >= north && point.y <= south
    }

    /// A window cut to the world's height, and made the whole world's width when it is as wide.
    private static func normalized(_ rect: MapRect) -> MapRect {
        let world = WebMercator.worldSize
        let top = max(0, rect.minY)
        let bottom = min(world, rect.maxY)
        var west = rect.minX
        var east = rect.maxX
        if east - west >= world { (west, east) = (0, world) }
        return MapRect(x: west, y: top, width: east - west, height: max(0, bottom - top))
    }

    /// Windows with those that overlap merged into their bounding rect, until none overlap.
    private static func merged(_ windows: [MapRect]) -> [MapRect] {
        var result: [MapRect] = []
        for window in windows {
            var window = window
            var absorbed = true
            while absorbed {
                absorbed = false
                if let index = result.firstIndex(where: { $0.intersects(window) }) {
                    window = normalized(window.union(result.remove(at: index)))
                    absorbed = true
                }
            }
            result.append(window)
        }
        return result
    }
}

import MapCore
import Testing

@testable import MapRenderer

/// Dashes laid from each line's first vertex, whatever part of the line is drawn.
struct DashPatternTests {
    /// The pieces `pattern` adds along `points` within `area`, as lists of points.
    private func pieces(_ pattern: DashPattern, _ points: [MapPoint], closed: Bool = false, area: MapRect)
        -> [[MapPoint]]
    {
        var result: [[MapPoint]] = []
        pattern.addDashes(
            along: points, closed: closed, in: area, pointsPerMapPoint: 1, moveTo: { result.append([$0]) },
            lineTo: { result[result.count - 1].append($0) })
        return result
    }

    @Test func dashesStartAtTheFirstVertexWhateverTheArea() throws {
        let pattern = try #require(DashPattern([3, 2], lineWidth: 2))  // 6 on, 4 off
        #expect(pattern.lengthsPoints == [6, 4] && pattern.periodPoints == 10)
        let line = [MapPoint(x: 0, y: 0), MapPoint(x: 100, y: 0)]
        let all = pieces(pattern, line, area: MapRect(x: -10, y: -10, width: 200, height: 20))
        #expect(all.count == 10)
        #expect(all[0] == [MapPoint(x: 0, y: 0), MapPoint(x: 6, y: 0)])
        #expect(all[9] == [MapPoint(x: 90, y: 0), MapPoint(x: 96, y: 0)])
        // A window from 33 to 57 gets the same dashes, whole: 30-36, 40-46, 50-56.
        let window = pieces(pattern, line, area: MapRect(x: 33, y: -10, width: 24, height: 20))
        #expect(window == Array(all[3...5]))
    }

    /// An odd-length array as MapLibre reads it: the last dash runs on into the first, so one
    /// length is a solid line and [2, 1, 3] a dash of 5 and a gap of 1, the line starting 3
    /// into the dash (Cairo would repeat the list: 2 on, 1 off, 3 on, 2 off, ...).
    @Test func anOddArraysLastDashRunsOnIntoItsFirst() throws {
        #expect(DashPattern([2, 0], lineWidth: 2) == nil)
        let pattern = try #require(DashPattern([2, 1, 3], lineWidth: 1))
        #expect(pattern.lengthsPoints == [5, 1] && pattern.phasePoints == 3)
        let dashes = pieces(
            pattern, [MapPoint(x: 0, y: 0), MapPoint(x: 14, y: 0)], area: MapRect(x: -10, y: -10, width: 40, height: 20)
        )
        // On 0-2, off 2-3, on 3-8 (3 then 2), off 8-9, on 9-14.
        #expect(
            dashes == [
                [MapPoint(x: 0, y: 0), MapPoint(x: 2, y: 0)], [MapPoint(x: 3, y: 0), MapPoint(x: 8, y: 0)],
                [MapPoint(x: 9, y: 0), MapPoint(x: 14, y: 0)],
            ])
    }

    @Test func aDashThroughACornerIsOnePieceAndARingsFirstDashJoinsItsLast() throws {
        let pattern = try #require(DashPattern([6, 4], lineWidth: 1))
        let area = MapRect(x: -100, y: -100, width: 300, height: 300)
        // 8 along x, then down: the second dash (10-16) turns the corner at 8.
        let bent = pieces(pattern, [MapPoint(x: 0, y: 0), MapPoint(x: 13, y: 0), MapPoint(x: 13, y: 20)], area: area)
        #expect(bent[1] == [MapPoint(x: 10, y: 0), MapPoint(x: 13, y: 0), MapPoint(x: 13, y: 3)])
        // A square of side 12 (48 around): the last dash (40-46) ends 2 short, so no join; one of
        // side 13 (52 around): the dash from 50 runs through the first vertex into the first dash.
        let square12 = pieces(
            pattern, [MapPoint(x: 0, y: 0), MapPoint(x: 12, y: 0), MapPoint(x: 12, y: 12), MapPoint(x: 0, y: 12)],
            closed: true, area: area)
        #expect(square12.count == 5 && square12[0].first == MapPoint(x: 0, y: 0))
        let square13 = pieces(
            pattern, [MapPoint(x: 0, y: 0), MapPoint(x: 13, y: 0), MapPoint(x: 13, y: 13), MapPoint(x: 0, y: 13)],
            closed: true, area: area)
        #expect(square13.count == 5)
        #expect(square13.last == [MapPoint(x: 0, y: 2), MapPoint(x: 0, y: 0), MapPoint(x: 6, y: 0)])
    }

    @Test func solidPatternsAreNoPattern() {
        #expect(DashPattern([], lineWidth: 1) == nil)
        #expect(DashPattern([0, 0], lineWidth: 1) == nil)
        // One length: a dash that runs on into itself, as MapLibre draws it.
        #expect(DashPattern([2], lineWidth: 1) == nil)
    }
}

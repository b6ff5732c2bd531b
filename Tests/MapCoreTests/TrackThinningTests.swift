import Foundation
import MapCore
import Testing

struct TrackThinningTests {
    /// Points along the equator 0.0001° (about 11.1 m) apart.
    private func equatorTrack(count: Int) throws -> [Coordinate] {
        try (0..<count).map { try Coordinate(latitude: 0, longitude: Double($0) * 0.0001) }
    }

    @Test func thinnedKeepsPointsAtLeastTheMinimumApart() throws {
        let track = try equatorTrack(count: 11)
        let thinned = track.thinned(minimumDistanceMeters: 30)
        // 11.1 m steps: the third point after a kept one is the first 30 m or more away.
        #expect(thinned == [track[0], track[3], track[6], track[9], track[10]])
    }

    @Test func thinnedAlwaysKeepsTheFinalPoint() throws {
        let track = try equatorTrack(count: 5)
        #expect(track.thinned(minimumDistanceMeters: 1_000) == [track[0], track[4]])
    }

    @Test func thinnedWithZeroOrNegativeDistanceKeepsEveryPoint() throws {
        let track = try equatorTrack(count: 5)
        #expect(track.thinned(minimumDistanceMeters: 0) == track)
        #expect(track.thinned(minimumDistanceMeters: -5) == track)
        #expect(track.thinned(minimumDistanceMeters: .nan) == track)
    }

    @Test func thinnedShortTracksAreUnchanged() throws {
        let point = try Coordinate(latitude: 1, longitude: 1)
        #expect([Coordinate]().thinned(minimumDistanceMeters: 10).isEmpty)
        #expect([point].thinned(minimumDistanceMeters: 10) == [point])
        #expect([point, point].thinned(minimumDistanceMeters: 10) == [point, point])
    }
}

import ImageCodec
import MapTestSupport
import XCTest

/// `assertRenderMatches` outside Swift Testing, where it reports through XCTest.
final class AssertRenderMatchesXCTests: XCTestCase {
    func testMatchingRenderPassesUnderXCTest() {
        var checkerboard = RGBAImage(width: 16, height: 16, filledWith: .white)
        for y in 0..<16 {
            for x in 0..<16 where (x / 4 + y / 4) % 2 == 0 { checkerboard[x: x, y: y] = .black }
        }
        assertRenderMatches(checkerboard, named: "checkerboard")
    }
}

import Foundation
import MapUtilities
import Testing

struct URLDisplayPathTests {
    @Test func aFileBelowTheWorkingDirectoryIsShownRelative() {
        let current = FileManager.default.currentDirectoryPath
        let file = URL(fileURLWithPath: current).appendingPathComponent("photos/a b.jpg")
        #expect(file.displayPath == "photos/a b.jpg")
    }

    @Test func aFileElsewhereIsShownAbsoluteAndStandardized() {
        let file = URL(fileURLWithPath: "/nonexistent-root/x/../photos/a.jpg")
        #expect(file.displayPath == "/nonexistent-root/photos/a.jpg")
    }
}

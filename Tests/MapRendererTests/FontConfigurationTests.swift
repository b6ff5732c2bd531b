import Foundation
import MapTestSupport
import Testing

@testable import MapRenderer

/// Where the renderer's fonts and fontconfig's cache come from, read from an environment given
/// to it (the process's is never changed), and the cache folder made safely.
struct FontConfigurationTests {
    @Test func thePinnedFoldersFollowTheFontsFolderGiven() throws {
        let withFonts = FontConfiguration(
            fontsDirectory: URL(fileURLWithPath: "/data/Fonts"), environment: ["XDG_CACHE_HOME": "/c"])
        #expect(withFonts.fontDirectories == ["/data/Fonts"] + FontConfiguration.systemFontDirectories)
        #expect(withFonts.cacheDirectory.path == "/c/mapwright/fontconfig")
        #expect(withFonts.configurationFile == nil)

        let plain = FontConfiguration(fontsDirectory: nil, environment: ["HOME": "/h"])
        #expect(plain.fontDirectories == FontConfiguration.systemFontDirectories)
        #expect(plain.cacheDirectory.path == "/h/.cache/mapwright/fontconfig")
        #expect(
            FontConfiguration(fontsDirectory: nil, environment: ["MAPWRIGHT_FONTCONFIG_FILE": "/etc/my.conf"])
                .configurationFile == "/etc/my.conf")
    }

    @Test func theDocumentListsOnlyThePinnedFoldersEscaped() {
        var configuration = FontConfiguration(fontsDirectory: nil, environment: ["HOME": "/h"])
        configuration.fontDirectories = ["/fonts/a&b"]
        let document = configuration.document(cacheDirectory: URL(fileURLWithPath: "/c/<x>"))
        #expect(document.contains("<dir>/fonts/a&amp;b</dir>"))
        #expect(document.contains("<cachedir>/c/&lt;x&gt;</cachedir>"))
        #expect(!configuration.document(cacheDirectory: nil).contains("cachedir"))
        #expect(document.components(separatedBy: "<dir>").count == 2)
    }

    @Test func theCacheFolderIsMadePrivateAndAPlantedOneIsRefused() throws {
        let home = try TemporaryDirectory()
        let configuration = FontConfiguration(fontsDirectory: nil, environment: ["XDG_CACHE_HOME": home.url.path])
        let made = try #require(configuration.privateCacheDirectory())
        #expect(made.path == home.file("mapwright/fontconfig").path)
        let attributes = try FileManager.default.attributesOfItem(atPath: made.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        // Again: the folder is there and still fine.
        #expect(configuration.privateCacheDirectory() != nil)

        // A folder others may write, or a link planted in its place, is not used.
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: made.path)
        #expect(configuration.privateCacheDirectory() == nil)
        try FileManager.default.removeItem(at: made)
        try FileManager.default.createDirectory(at: home.file("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: made, withDestinationURL: home.file("elsewhere"))
        #expect(configuration.privateCacheDirectory() == nil)
    }
}

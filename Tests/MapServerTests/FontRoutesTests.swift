import FontGlyphs
import Foundation
import HTTPTypes
import HummingbirdTesting
import MapServer
import MapTestSupport
import Testing
import VectorTiles

/// `/fonts/{fontstack}/{range}.pbf` and `/fonts.json` from a fonts folder laid out as TileServer
/// GL's: one font's range is its file's bytes, a stack's is its fonts' glyphs combined, each code
/// point from the first font that has it; names are only looked up among the folder's fonts.
@Suite struct FontRoutesTests {
    /// `Font A` has A and B; `Font B` has another B and C, and a second range; a hidden folder, a
    /// folder without ranges and a stray file are not fonts.
    private func fontsFolder(_ folder: TemporaryDirectory) throws -> (url: URL, files: [String: Data]) {
        let fonts = folder.url.appendingPathComponent("my fonts")
        var files: [String: Data] = [:]
        func write(_ path: String, _ glyphs: [TestGlyphs.Glyph], name: String) throws {
            let url = fonts.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let data = Data(
                TestGlyphs.rangeFile(
                    fontstack: name, range: url.deletingPathExtension().lastPathComponent, glyphs: glyphs))
            try data.write(to: url)
            files[path] = data
        }
        try write(
            "Font A/0-255.pbf",
            [
                TestGlyphs.Glyph(id: 0x41, size: 8, advance: 10, ink: 201),
                TestGlyphs.Glyph(id: 0x42, size: 9, advance: 11, ink: 202),
            ], name: "Font A")
        try write(
            "Font B/0-255.pbf",
            [
                TestGlyphs.Glyph(id: 0x42, size: 12, advance: 14, ink: 203),
                TestGlyphs.Glyph(id: 0x43, size: 6, advance: 7, ink: 204),
            ], name: "Font B")
        try write("Font B/256-511.pbf", [TestGlyphs.Glyph(id: 0x100, size: 7, advance: 8)], name: "Font B")
        try write("Font A,Font B/0-255.pbf", [TestGlyphs.Glyph(id: 0x44, size: 5, advance: 6)], name: "Font A,Font B")
        try write(".hidden/0-255.pbf", [TestGlyphs.Glyph(id: 0x41, size: 8, advance: 10)], name: "hidden")
        try FileManager.default.createDirectory(
            at: fonts.appendingPathComponent("notes"), withIntermediateDirectories: true)
        try Data("not a font".utf8).write(to: fonts.appendingPathComponent("notes/readme.txt"))
        try Data().write(to: fonts.appendingPathComponent("stray.pbf"))
        return (fonts, files)
    }

    @Test func theFoldersFontsAreListed() throws {
        let folder = try TemporaryDirectory()
        #expect(ServedFonts(directory: try fontsFolder(folder).url).names == ["Font A", "Font A,Font B", "Font B"])
        #expect(ServedFonts(directory: folder.url.appendingPathComponent("missing")).names.isEmpty)
    }

    @Test func oneFontIsItsFileAndAStackIsItsFontsCombined() async throws {
        let folder = try TemporaryDirectory()
        let (fonts, files) = try fontsFolder(folder)
        var content = ServerContent()
        content.fonts = ServedFonts(directory: fonts)
        try await ServerFixtures.test(ServerFixtures.server(content, folder: folder)) { client in
            try await client.execute(uri: "/fonts.json", method: .get) { response in
                let names = try JSONSerialization.jsonObject(with: response.data) as? [String]
                #expect(names == ["Font A", "Font A,Font B", "Font B"])
            }
            try await client.execute(uri: "/fonts/Font%20A/0-255.pbf", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/x-protobuf")
                #expect(response.headers[.eTag] != nil && response.headers[.cacheControl] == "public, max-age=600")
                #expect(response.data == files["Font A/0-255.pbf"])
            }
            // A folder named as the whole stack is that stack, as GL's render tests keep combined stacks.
            try await client.execute(uri: "/fonts/Font%20A,Font%20B/0-255.pbf", method: .get) { response in
                #expect(response.data == files["Font A,Font B/0-255.pbf"])
            }
            let ab = try await client.execute(uri: "/fonts/Font%20A,%20Font%20B/0-255.pbf", method: .get) { response in
                #expect(response.status == .ok)
                return try GlyphRange(data: [UInt8](response.data))
            }
            #expect(ab.glyphs.keys.sorted() == [0x41, 0x42, 0x43])
            #expect(
                ab.glyphs[0x42]?.advance == 11 && ab.glyphs[0x42]?.bitmap.first == 202,
                "B from Font A, the first that has it")
            #expect(ab.glyphs[0x43]?.advance == 7, "C from Font B")
            let ba = try await client.execute(uri: "/fonts/Font%20B,%20Font%20A/0-255.pbf", method: .get) { response in
                try GlyphRange(data: [UInt8](response.data))
            }
            #expect(ba.glyphs[0x42]?.advance == 14 && ba.glyphs[0x42]?.bitmap.first == 203, "B from Font B, now first")
            #expect(ba.glyphs.keys.sorted() == [0x41, 0x42, 0x43])
            // Only Font B has the second range; a name not served is passed over.
            try await client.execute(uri: "/fonts/Font%20A,Font%20B/256-511.pbf", method: .get) { response in
                #expect(response.data == files["Font B/256-511.pbf"])
            }
            try await client.execute(uri: "/fonts/Noto%20Sans%20Regular,Font%20A/0-255.pbf", method: .get) { response in
                #expect(response.data == files["Font A/0-255.pbf"])
            }
            let notFound = [
                ("/fonts/Nope/0-255.pbf", "no font named 'Nope' is served\n"),
                ("/fonts/.hidden/0-255.pbf", "no font named '.hidden' is served\n"),
                ("/fonts/notes/0-255.pbf", "no font named 'notes' is served\n"),
                ("/fonts/..%2FFont%20A/0-255.pbf", "no font named '../Font A' is served\n"),
                ("/fonts/Font%20A/512-767.pbf", "no font of the stack 'Font A' has the glyphs 512-767\n"),
                ("/fonts/Font%20A", "glyphs are /fonts/{fontstack}/{range}.pbf\n"),
            ]
            for (uri, reason) in notFound {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(response.text == reason, "\(uri)")
                }
            }
            for uri in [
                "/fonts/Font%20A/1-256.pbf", "/fonts/Font%20A/0-256.pbf", "/fonts/Font%20A/0-255x.pbf",
                "/fonts/Font%20A/65536-65791.pbf", "/fonts/%2C/0-255.pbf",
            ] {
                try await client.execute(uri: uri, method: .get) { #expect($0.status == .badRequest, "\(uri)") }
            }
        }
    }

    /// With the installed fonts: a name the folder lacks is the installed face's range, generated;
    /// a folder's font wins in a stack; a stack of no served font is drawn by the fallback face;
    /// `/fonts.json` lists the folder's fonts and the installed faces.
    @Test func installedFontsAreGeneratedAndTheFoldersFontsWin() async throws {
        let folder = try TemporaryDirectory()
        let (fonts, files) = try fontsFolder(folder)
        let installed = try InstalledFonts(directories: [
            "/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/noto",
        ])
        let dejaVu = try #require(installed.font(named: "DejaVu Sans Bold"))
        let noto = try #require(installed.font(named: "Noto Sans Regular"))
        let dejaVuRange = try GlyphGenerator.rangeFile(of: dejaVu, start: 0)
        let notoRange = try GlyphGenerator.rangeFile(of: noto, start: 0)
        var content = ServerContent()
        content.fonts = ServedFonts(directory: fonts, installed: installed)
        try await ServerFixtures.test(ServerFixtures.server(content, folder: folder)) { client in
            try await client.execute(uri: "/fonts.json", method: .get) { response in
                let names = try #require(try JSONSerialization.jsonObject(with: response.data) as? [String])
                #expect(names == names.sorted() && Set(names).count == names.count)
                #expect(Set(["Font A", "Font B", "DejaVu Sans Bold", "Noto Sans Regular"]).isSubset(of: names))
            }
            try await client.execute(uri: "/fonts/DejaVu%20Sans%20Bold/0-255.pbf", method: .get) { response in
                #expect(response.status == .ok)
                #expect([UInt8](response.data) == dejaVuRange)
            }
            let stack = try await client.execute(
                uri: "/fonts/Font%20A,DejaVu%20Sans%20Bold/0-255.pbf", method: .get
            ) { response in
                try GlyphRange(data: [UInt8](response.data))
            }
            #expect(stack.glyphs[0x41]?.advance == 10, "A from Font A, the folder's")
            #expect(stack.glyphs[0x43]?.bitmap.isEmpty == false, "C from DejaVu Sans Bold, generated")
            #expect(files["Font A/0-255.pbf"] != nil)
            // No served font in the stack: the fallback, Noto Sans of the nearest weight.
            try await client.execute(uri: "/fonts/Metropolis%20Light/0-255.pbf", method: .get) { response in
                #expect(response.status == .ok)
                #expect([UInt8](response.data) == notoRange)
            }
            try await client.execute(
                uri: "/fonts/Metropolis%20Light,Noto%20Sans%20Regular/0-255.pbf", method: .get
            ) { response in
                #expect([UInt8](response.data) == notoRange)
            }
        }
    }

    @Test func withoutAFontsFolderThereAreNoFonts() async throws {
        let folder = try TemporaryDirectory()
        try await ServerFixtures.test(ServerFixtures.server(ServerContent(), folder: folder)) { client in
            try await client.execute(uri: "/fonts/Font%20A/0-255.pbf", method: .get) { response in
                #expect(
                    response.status == .notFound
                        && response.text == "no fonts are served: start the server with --fonts\n")
            }
            try await client.execute(uri: "/fonts.json", method: .get) { response in
                let names = try JSONSerialization.jsonObject(with: response.data) as? [String]
                #expect(names == [])
            }
        }
    }
}

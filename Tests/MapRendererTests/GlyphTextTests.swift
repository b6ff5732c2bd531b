import Foundation
import ImageCodec
import MapCore
import MapData
import MapStyle
import MapTestSupport
import Testing
import VectorTiles

@testable import MapRenderer

/// Text drawn from a style's local SDF glyphs (its root `glyphs`), shaped as GL shapes it: the
/// GL suite's text tests judge the looks; these pin the rules on a made-up font.
struct GlyphTextTests {
    /// A glyph range file holding `A` and `B`, 10 × 14-pixel squares (`B` 20 pixels wide) of
    /// full SDF ink, advancing 12 (`B` 22) pixels, their tops at −3 (GL's glyph tops are below
    /// its 24-point line's top, as node-fontnik writes them), and a space
    /// advancing 6: `glyphs.proto` written out by hand.
    ///
    /// `extra` adds glyphs of the same kind (for a range file of other code points).
    static func glyphRange(extra: [(id: UInt32, width: Int, height: Int, advance: Int)] = []) -> [UInt8] {
        func varint(_ value: UInt64) -> [UInt8] {
            var value = value
            var bytes: [UInt8] = []
            repeat {
                bytes.append(UInt8(value & 0x7F) | (value >= 0x80 ? 0x80 : 0))
                value >>= 7
            } while value > 0
            return bytes
        }
        func field(_ number: UInt64, _ value: UInt64) -> [UInt8] { varint(number << 3) + varint(value) }
        func bytes(_ number: UInt64, _ content: [UInt8]) -> [UInt8] {
            varint(number << 3 | 2) + varint(UInt64(content.count)) + content
        }
        func glyph(_ id: UInt32, width: Int, height: Int, advance: Int) -> [UInt8] {
            var message = field(1, UInt64(id))
            if width > 0 {
                // Distance 255 inside the outline, falling to 0 across the 3-pixel border.
                var bitmap: [UInt8] = []
                for y in 0..<(height + 6) {
                    for x in 0..<(width + 6) {
                        let inside = min(x - 3, width + 2 - x, y - 3, height + 2 - y)
                        bitmap.append(inside >= 0 ? 255 : UInt8(max(0, 192 + inside * 64)))
                    }
                }
                message += bytes(2, bitmap)
            }
            message += field(3, UInt64(width)) + field(4, UInt64(height))
            message += field(5, 0) + field(6, 5)  // left 0; top −3, zigzag-encoded
            message += field(7, UInt64(advance))
            return bytes(3, message)
        }
        let stack =
            bytes(1, Array("Test Sans".utf8)) + bytes(2, Array("0-255".utf8))
            + glyph(0x41, width: 10, height: 14, advance: 12) + glyph(0x42, width: 20, height: 14, advance: 22)
            + glyph(0x20, width: 0, height: 0, advance: 6)
            + extra.flatMap { glyph($0.id, width: $0.width, height: $0.height, advance: $0.advance) }
        return bytes(1, stack)
    }

    /// A folder with a space in its name holding `fonts/Test Sans/0-255.pbf`.
    /// `label` in red at 24 points on white, centred in a 64x64 map, by a style whose `glyphs`
    /// is the made-up font in `folder`: the loaded style and the image.
    private func renderLabel(_ label: String, glyphsIn folder: TemporaryDirectory) throws -> (
        loaded: (style: Style, warnings: [StyleWarning]), image: RGBAImage
    ) {
        let json = """
            {"version": 8, "glyphs": "my fonts/{fontstack}/{range}.pbf",
             "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
             "layers": [{"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "label", "type": "symbol", "source": "p",
                         "layout": {"text-field": "\(label)", "text-font": ["Test Sans"], "text-size": 24}, "paint": {"text-color": "#ff0000"}}]}
            """
        let loaded = try Style.parse(Data(json.utf8), file: "glyphs.json", baseURL: folder.url)
        let viewport = try Viewport(
            center: try Coordinate(latitude: 0, longitude: 0), zoomLevel: 2, size: ViewSize(width: 64, height: 64))
        let image = try MapSnapshotter(data: MapData(basemapDirectory: RepositoryFiles.basemap))
            .snapshot(MapSnapshotOptions(viewport: viewport, style: loaded.style, showsAttribution: false)).image
        return (loaded, image)
    }

    private func fontsFolder() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let fonts = directory.url.appendingPathComponent("my fonts/Test Sans", isDirectory: true)
        try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
        try Data(Self.glyphRange()).write(to: fonts.appendingPathComponent("0-255.pbf"))
        return directory
    }

    @Test func aGlyphRangeIsDecoded() throws {
        let range = try GlyphRange(data: Self.glyphRange())
        #expect(range.glyphs.keys.sorted() == [0x20, 0x41, 0x42])
        let a = try #require(range.glyphs[0x41])
        #expect(
            a.width == 10 && a.height == 14 && a.left == 0 && a.top == -3 && a.advance == 12
                && a.bitmap.count == 16 * 20)
        #expect(range.glyphs[0x20]?.bitmap.isEmpty == true && range.glyphs[0x20]?.advance == 6)
        #expect(throws: VectorTileError.self) { try GlyphRange(data: [0x0A, 0xFF]) }
    }

    /// GL's shaping: advances along the line, the block centred on the anchor by default, lines
    /// broken where the raggedness is least, `text-anchor` and `text-offset` moving the block.
    @Test func textIsShapedAsGLShapesIt() throws {
        let range = try GlyphRange(data: Self.glyphRange())
        func shape(
            _ text: String, maximumWidthEms: Double = 10, anchor: SymbolAnchor = .center, offset: Translation = .zero
        ) -> ShapedText? {
            ShapedText.shape(
                text, glyph: { range.glyphs[$0] }, maximumWidthEms: maximumWidthEms, lineHeightEms: 1.2,
                letterSpacingEms: 0, anchor: anchor,
                justify: .center, offsetEms: offset, sizePoints: 24, rotationDegrees: 0, color: .black,
                haloColor: .transparent,
                haloWidthPoints: 0, haloBlurPoints: 0, opacity: 1)
        }
        let ab = try #require(shape("AB"))
        // 12 + 22 = 34 units wide, one 28.8-unit line, centred.
        func close(_ a: ViewRect, _ b: ViewRect) -> Bool {
            abs(a.minX - b.minX) < 1e-9 && abs(a.minY - b.minY) < 1e-9 && abs(a.maxX - b.maxX) < 1e-9
                && abs(a.maxY - b.maxY) < 1e-9
        }
        #expect(close(ab.box, ViewRect(x: -17, y: -14.4, width: 34, height: 28.8)), "\(ab.box)")
        // A at x = -17, B 12 further; quads start 4 units (border and padding) left of the pen and above the top.
        #expect(ab.quads.map(\.x) == [-21, -9])
        #expect(ab.quads[0].y == -17 + 3 - 4)
        // Two words wider than one em together break into two lines.
        let broken = try #require(shape("AB AB", maximumWidthEms: 1))
        #expect(close(broken.box, ViewRect(x: -17, y: -28.8, width: 34, height: 57.6)), "\(broken.box)")
        #expect(shape(" ") == nil)
        // Anchored at its top-left corner and moved one em right.
        let anchored = try #require(shape("A", anchor: .topLeft, offset: Translation(xPoints: 1, yPoints: 0)))
        #expect(close(anchored.box, ViewRect(x: 24, y: 0, width: 12, height: 28.8)), "\(anchored.box)")
    }

    /// A style whose `glyphs` is a local folder draws its text from those glyphs: solid squares
    /// where the letters are, in the text's colour, and the label's box keeps others away.
    @Test func aStyleWithLocalGlyphsDrawsFromThem() throws {
        let folder = try fontsFolder()
        let (loaded, image) = try renderLabel("A", glyphsIn: folder)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        #expect(loaded.style.glyphs == folder.url.appendingPathComponent("my fonts").path + "/{fontstack}/{range}.pbf")
        // The block is 12 wide, centred on (32, 32): the pen starts at x = 26, and the line's
        // glyphs hang from y = 32 − 17 (GL's baseline offset) + 3 (the glyph's top): the ink is
        // columns 26...35, rows 18...31.
        let red = RGBAPixel(red: 255, green: 0, blue: 0, alpha: 255)
        let white = RGBAPixel(red: 255, green: 255, blue: 255, alpha: 255)
        for (x, y) in [(30, 25), (26, 18), (35, 31)] { #expect(image[x: x, y: y] == red, "(\(x), \(y))") }
        for (x, y) in [(25, 25), (36, 25), (30, 17), (30, 32)] { #expect(image[x: x, y: y] == white, "(\(x), \(y))") }
    }

    /// Arabic cannot be drawn glyph by glyph (its letters join and run right to left), and a
    /// label with a character the glyphs lack would lose it: with local glyphs in the style, such
    /// labels are drawn with the installed fonts, shaped by Pango.
    @Test(arguments: ["سلام", "AZ"])
    func labelsTheGlyphsCannotDrawUseTheInstalledFonts(_ label: String) throws {
        #expect(
            ShapedText.needsComplexShaping("سلام") && ShapedText.needsComplexShaping("नमस्ते")
                && ShapedText.needsComplexShaping("שלום"))
        #expect(!ShapedText.needsComplexShaping("Αθήνα 北京 Zürich"))
        let (_, image) = try renderLabel(label, glyphsIn: try fontsFolder())
        // The made-up font has no Arabic and no Z: the installed fonts draw the whole label, a
        // good 30 points wide round the centre (the glyphs alone would draw nothing, or A's
        // square in columns 26...35 only).
        var inked = 0
        var inkedRight = 0
        for y in 0..<64 {
            for x in 0..<64 where image[x: x, y: y].green < 128 {
                inked += 1
                if x >= 37 { inkedRight += 1 }
            }
        }
        #expect(inked > 20 && inkedRight > 0, "the label drawn whole with the installed fonts")
    }

    /// A label along a line sets each glyph on the line at its distance from the anchor; on a
    /// line drawn east to west it is flipped to read left to right (`text-keep-upright`, the
    /// default), or drawn upside down without it.
    @Test func aLabelAlongALineReadsLeftToRight() throws {
        let folder = try fontsFolder()
        func render(keepUpright: Bool) throws -> RGBAImage {
            let json = """
                {"version": 8, "glyphs": "my fonts/{fontstack}/{range}.pbf",
                 "sources": {"p": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[20, 0], [-20, 0]]}}},
                 "layers": [{"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
                            {"id": "label", "type": "symbol", "source": "p",
                             "layout": {"text-field": "AB", "text-font": ["Test Sans"], "text-size": 24, "symbol-placement": "line-center",
                                        "text-keep-upright": \(keepUpright)},
                             "paint": {"text-color": "#ff0000"}}]}
                """
            let loaded = try Style.parse(Data(json.utf8), file: "line.json", baseURL: folder.url)
            #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
            let viewport = try Viewport(
                center: try Coordinate(latitude: 0, longitude: 0), zoomLevel: 2, size: ViewSize(width: 64, height: 64))
            return try MapSnapshotter(data: MapData(basemapDirectory: RepositoryFiles.basemap))
                .snapshot(MapSnapshotOptions(viewport: viewport, style: loaded.style, showsAttribution: false)).image
        }
        let red = RGBAPixel(red: 255, green: 0, blue: 0, alpha: 255)
        let white = RGBAPixel(red: 255, green: 255, blue: 255, alpha: 255)
        // Upright: A's ink at columns 15...24 left of B's at 27...46, rows 18...31 above the line.
        let upright = try render(keepUpright: true)
        for (x, y) in [(20, 25), (30, 25), (38, 25)] { #expect(upright[x: x, y: y] == red, "(\(x), \(y))") }
        for (x, y) in [(25, 25), (26, 25), (20, 40)] { #expect(upright[x: x, y: y] == white, "(\(x), \(y))") }
        // Upside down: B's ink at 17...36 left of A's at 39...48, rows 33...46 below the line.
        let upsideDown = try render(keepUpright: false)
        for (x, y) in [(25, 40), (45, 40)] { #expect(upsideDown[x: x, y: y] == red, "(\(x), \(y))") }
        for (x, y) in [(37, 40), (38, 40), (25, 25)] { #expect(upsideDown[x: x, y: y] == white, "(\(x), \(y))") }
    }

    /// CJK text along a steep line is written vertically, as GL writes it: each ideograph stands
    /// upright and advances one em down the line, read from the top whichever way the line
    /// runs; punctuation takes its vertical form; Latin text stays along the line.
    @Test(arguments: [true, false])
    func cjkTextOnASteepLineStandsUpright(drawnNorthToSouth: Bool) throws {
        #expect(ShapedText.allowsVerticalWriting("身 1") && !ShapedText.allowsVerticalWriting("AB 1"))
        // the last comma is beside a rotated letter
        #expect(ShapedText.verticalizingPunctuation("身：身,身,A") == "身︓身︐身,A")
        #expect(ShapedText.verticalizingPunctuation("A:B") == "A:B")  // between rotated letters, kept
        // 身 (U+8EAB): a glyph 20 wide and 8 high, so upright and lying down differ.
        let folder = try cjkFontsFolder()
        // Shaped vertically, the ideographs (advancing 22) are upright and advance one em (24).
        let range = try GlyphRange(data: Self.glyphRange(extra: [(0x8EAB, 20, 8, 22)]))
        func shape(vertically: Bool) throws -> ShapedText {
            try #require(
                ShapedText.shape(
                    [ShapedText.Run(text: "身身A", glyph: { range.glyphs[$0] })], maximumWidthEms: .infinity,
                    lineHeightEms: 1.2, letterSpacingEms: 0,
                    anchor: .center, justify: .center, offsetEms: .zero, sizePoints: 24, rotationDegrees: 0,
                    color: .black, haloColor: .transparent,
                    haloWidthPoints: 0, haloBlurPoints: 0, opacity: 1, writesVertically: vertically))
        }
        let vertical = try shape(vertically: true)
        let horizontal = try shape(vertically: false)
        #expect(vertical.quads.map(\.isUpright) == [true, true, false])
        #expect(horizontal.quads.map(\.isUpright) == [false, false, false])
        #expect(vertical.quads[1].x - vertical.quads[0].x == 24 && horizontal.quads[1].x - horizontal.quads[0].x == 22)
        let coordinates = drawnNorthToSouth ? "[[0, 30], [0, -30]]" : "[[0, -30], [0, 30]]"
        let json = """
            {"version": 8, "glyphs": "my fonts/{fontstack}/{range}.pbf",
             "sources": {"p": {"type": "geojson", "data": {"type": "LineString", "coordinates": \(coordinates)}}},
             "layers": [{"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "label", "type": "symbol", "source": "p",
                         "layout": {"text-field": "身身", "text-font": ["Test Sans"], "text-size": 24, "symbol-placement": "line-center"},
                         "paint": {"text-color": "#ff0000"}}]}
            """
        let image = try Self.render96(json, folder: folder).image
        // The red ink: two 20 x 8 squares one em apart in a column.
        let (columns, rows) = Self.redInk(in: image)
        let width = (columns.max() ?? 0) - (columns.min() ?? 0) + 1
        let height = (rows.max() ?? 0) - (rows.min() ?? 0) + 1
        #expect((18...23).contains(width), "ink \(width) wide")
        #expect((30...38).contains(height), "ink \(height) high")
        // A gap between the two glyphs, across the column's middle.
        #expect(rows.count < height, "rows \(rows.sorted())")
    }

    /// GL lays line labels out per tile: a line is cut into each tile's piece, and a piece that
    /// starts on its tile's edge runs on from the neighbour.
    @Test func linesAreCutIntoTilePieces() throws {
        let viewport = try Viewport(
            center: try Coordinate(latitude: 0, longitude: 0), zoomLevel: 2, size: ViewSize(width: 512, height: 512))
        // Tiles of zoom 3 are 128 view points wide at zoom 2, one corner at the view's centre:
        // a line from x = 100 to 400 is cut in four.
        let across = TilePiece.pieces(
            of: [ViewPoint(x: 100, y: 200), ViewPoint(x: 400, y: 200)], viewport: viewport, tileZoom: 3)
        #expect(across.map(\.isContinued) == [false, true, true, true])
        #expect(across.map { $0.points.first!.x.rounded() } == [100, 128, 256, 384])
        #expect(
            across[0].holds(ViewPoint(x: 127.9, y: 200), in: viewport)
                && !across[0].holds(ViewPoint(x: 128, y: 200), in: viewport))
        // Turned views keep lines whole.
        let turned = try Viewport(
            center: try Coordinate(latitude: 0, longitude: 0), zoomLevel: 2, size: ViewSize(width: 512, height: 512),
            headingDegrees: 30)
        #expect(
            TilePiece.pieces(of: [ViewPoint(x: 100, y: 200), ViewPoint(x: 400, y: 200)], viewport: turned, tileZoom: 1)
                .count == 1)
    }

    /// `text-writing-mode: ["vertical"]` writes CJK text at a point in a column read from the
    /// top, each character upright (compared by eye with MapLibre Native's render through
    /// mapli: 7 of 90,000 pixels off by more than 40 levels); text without CJK stays in a line.
    @Test(arguments: ["身身", "AA"])
    func verticalWritingAtAPointMakesAColumn(_ label: String) throws {
        let folder = try cjkFontsFolder()
        let json = """
            {"version": 8, "glyphs": "my fonts/{fontstack}/{range}.pbf",
             "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
             "layers": [{"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "label", "type": "symbol", "source": "p",
                         "layout": {"text-field": "\(label)", "text-font": ["Test Sans"], "text-size": 24, "text-writing-mode": ["vertical"]},
                         "paint": {"text-color": "#ff0000"}}]}
            """
        let (image, warnings) = try Self.render96(json, folder: folder)
        #expect(warnings.isEmpty, "\(warnings)")
        let (columns, rows) = Self.redInk(in: image)
        let width = (columns.max() ?? 0) - (columns.min() ?? 0) + 1
        let height = (rows.max() ?? 0) - (rows.min() ?? 0) + 1
        if label == "AA" {
            // Two 10 x 14 letters side by side, 12 apart.
            #expect((20...25).contains(width) && (12...16).contains(height), "ink \(width) x \(height)")
        } else {
            // Two upright 20 x 8 ideographs one em apart, down a column.
            #expect((18...23).contains(width) && (30...38).contains(height), "ink \(width) x \(height)")
            // Over the point, one em of column each side of it (where in its em box the ink
            // sits is the glyph's own: this one's is high and left).
            #expect(
                columns.contains(48) && rows.min()! >= 24 - 6 && rows.max()! <= 72 - 18,
                "columns \(columns.min()!)...\(columns.max()!), rows \(rows.min()!)...\(rows.max()!)")
        }
    }

    /// The fonts folder with 身 (U+8EAB) too: a glyph 20 wide and 8 high, so upright and lying
    /// down differ.
    private func cjkFontsFolder() throws -> TemporaryDirectory {
        let folder = try fontsFolder()
        let fonts = folder.url.appendingPathComponent("my fonts/Test Sans", isDirectory: true)
        try Data(Self.glyphRange(extra: [(0x8EAB, 20, 8, 24)])).write(
            to: fonts.appendingPathComponent("36352-36607.pbf"))
        return folder
    }

    /// A style drawn into a 96x96 map at zoom 2 round (0, 0): the image and the style's warnings.
    private static func render96(_ json: String, folder: TemporaryDirectory) throws -> (
        image: RGBAImage, warnings: [StyleWarning]
    ) {
        let loaded = try Style.parse(Data(json.utf8), file: "style.json", baseURL: folder.url)
        let viewport = try Viewport(
            center: try Coordinate(latitude: 0, longitude: 0), zoomLevel: 2, size: ViewSize(width: 96, height: 96))
        let image = try MapSnapshotter(data: MapData(basemapDirectory: RepositoryFiles.basemap))
            .snapshot(MapSnapshotOptions(viewport: viewport, style: loaded.style, showsAttribution: false)).image
        return (image, loaded.warnings)
    }

    /// The columns and rows holding red ink.
    private static func redInk(in image: RGBAImage) -> (columns: Set<Int>, rows: Set<Int>) {
        var columns = Set<Int>()
        var rows = Set<Int>()
        for y in 0..<image.height {
            for x in 0..<image.width where image[x: x, y: y].red > 200 && image[x: x, y: y].green < 60 {
                columns.insert(x)
                rows.insert(y)
            }
        }
        return (columns, rows)
    }

    /// An image section inside text (`["format", "AB", {}, ["image", "square"], {}]`) draws the
    /// sprite's image at its own size after the text, its bottom on the text's baseline, in its
    /// own colours; a missing image is left out and named once.
    @Test func imagesInsideTextDrawAtTheirOwnSize() throws {
        let folder = try fontsFolder()
        let icons = folder.url.appendingPathComponent("icons", isDirectory: true)
        try FileManager.default.createDirectory(at: icons, withIntermediateDirectories: true)
        try Data(
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="12" height="12"><rect width="12" height="12" fill="#0000ff"/></svg>"##
                .utf8
        )
        .write(to: icons.appendingPathComponent("square.svg"))
        func render(_ image: String) throws -> (image: RGBAImage, warnings: [StyleWarning]) {
            let json = """
                {"version": 8, "glyphs": "my fonts/{fontstack}/{range}.pbf", "sprite": "icons",
                 "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
                 "layers": [{"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
                            {"id": "label", "type": "symbol", "source": "p",
                             "layout": {"text-field": ["format", "AB", {}, ["image", "\(image)"], {}], "text-font": ["Test Sans"], "text-size": 24},
                             "paint": {"text-color": "#ff0000"}}]}
                """
            return try Self.render96(json, folder: folder)
        }
        let (image, warnings) = try render("square")
        #expect(warnings.isEmpty, "\(warnings)")
        let text = Self.redInk(in: image)
        var blue = (columns: Set<Int>(), rows: Set<Int>())
        for y in 0..<image.height {
            for x in 0..<image.width where image[x: x, y: y].blue > 200 && image[x: x, y: y].red < 60 {
                blue.columns.insert(x)
                blue.rows.insert(y)
            }
        }
        // The square: 12 points wide and high, right of the letters, on their line. (Where its
        // bottom sits against real glyphs was compared with MapLibre Native's render through
        // mapli: level with the text's baseline, as there; this made-up font has no baseline.)
        #expect(
            (11...13).contains(blue.columns.count) && (11...13).contains(blue.rows.count),
            "\(blue.columns.sorted()) \(blue.rows.sorted())")
        #expect(blue.columns.min()! > text.columns.max()!)
        #expect(
            blue.rows.min()! < text.rows.max()! && blue.rows.max()! > text.rows.min()!,
            "square rows \(blue.rows.sorted()), text rows \(text.rows.min()!)...\(text.rows.max()!)")
        // The letters and the square, centred together on the point.
        #expect(abs(Double(text.columns.min()! + blue.columns.max()!) / 2 - 48) <= 1.5)
        // Without the image, the text alone, and no image.
        let missing = try render("nothing")
        #expect(Self.redInk(in: missing.image).columns.count > 0)
    }

    /// A label of an image alone (`["format", ["image", "square"], {}]`) draws the image centred
    /// on its point; `vertical-align: top` sets a smaller section level with the line's top.
    @Test func imageAloneAndVerticalAlignment() throws {
        let folder = try fontsFolder()
        let icons = folder.url.appendingPathComponent("icons", isDirectory: true)
        try FileManager.default.createDirectory(at: icons, withIntermediateDirectories: true)
        try Data(
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="12" height="12"><rect width="12" height="12" fill="#0000ff"/></svg>"##
                .utf8
        )
        .write(to: icons.appendingPathComponent("square.svg"))
        func render(_ field: String) throws -> RGBAImage {
            let json = """
                {"version": 8, "glyphs": "my fonts/{fontstack}/{range}.pbf", "sprite": "icons",
                 "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
                 "layers": [{"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
                            {"id": "label", "type": "symbol", "source": "p",
                             "layout": {"text-field": \(field), "text-font": ["Test Sans"], "text-size": 24},
                             "paint": {"text-color": "#ff0000"}}]}
                """
            let rendered = try Self.render96(json, folder: folder)
            #expect(rendered.warnings.isEmpty, "\(rendered.warnings)")
            return rendered.image
        }
        let alone = try render(#"["format", ["image", "square"], {}]"#)
        var blue = (columns: Set<Int>(), rows: Set<Int>())
        for y in 0..<alone.height {
            for x in 0..<alone.width where alone[x: x, y: y].blue > 200 && alone[x: x, y: y].red < 60 {
                blue.columns.insert(x)
                blue.rows.insert(y)
            }
        }
        #expect((11...13).contains(blue.columns.count) && (11...13).contains(blue.rows.count), "\(blue)")
        #expect(abs(Double(blue.columns.min()! + blue.columns.max()!) / 2 - 48) <= 1.5)
        // "A" at half scale after "A" at full: its ink on the baseline by default, half an em
        // higher (6 points at 24 x 0.5) with top.
        func small(_ alignment: String) throws -> Int {
            let image = try render(
                ##"["format", "A", {"text-color": "#0000ff"}, "A", {"font-scale": 0.5, "vertical-align": "\##(alignment)"}]"##
            )
            return Self.redInk(in: image).rows.max()!
        }
        let bottom = try small("bottom")
        let center = try small("center")
        let top = try small("top")
        #expect(
            (5...7).contains(bottom - center) && (5...7).contains(center - top),
            "bottom \(bottom), center \(center), top \(top)")
    }
}

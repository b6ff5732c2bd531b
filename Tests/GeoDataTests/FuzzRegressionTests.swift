import Foundation
import GeoData
import MapTestSupport
import Testing

/// Inputs that crashed the GPX fuzz target (scripts/fuzz/, FuzzGPX), kept in
/// Tests/Fixtures/fuzz/FuzzGPX/ and read through the API the target calls: each is now a
/// `GeoDataError` naming the line.
struct FuzzRegressionTests {
    private static let folder = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/fuzz/FuzzGPX")

    private func readGPX(_ name: String) throws -> GPXDocument {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        return try GPXReader.read(data: data, path: name)
    }

    /// `00 00 00 3C` makes libxml2 read UCS-4; the bytes after it are no UCS-4 character. The
    /// reader stopped libxml2 from inside its error callback, which then read freed memory (a
    /// segmentation fault in `xmlParseChunk`).
    @Test func aCharacterThatDoesNotConvertIsAnError() {
        #expect(
            throws: GeoDataError.invalidGPX(
                path: "ucs4-invalid-character.gpx", line: 1,
                reason:
                    "the XML is not well-formed: its bytes are not valid text in the encoding its first bytes or XML declaration name"
            )
        ) { try readGPX("ucs4-invalid-character.gpx") }
    }

    /// `<\xFFx>`: an element name that is not UTF-8 stopped FoundationXML (a force unwrap).
    @Test func aNameThatIsNotUTF8IsAnError() {
        #expect(
            throws: GeoDataError.invalidGPX(
                path: "element-name-not-utf8.gpx", line: 1,
                reason: "the XML is not well-formed: it is not valid UTF-8 (or the encoding its XML declaration names)"
            )
        ) { try readGPX("element-name-not-utf8.gpx") }
    }

    /// `<D</`: were libxml2 left to recover from the first error, it would go on to the element
    /// `D`, which is not `gpx`, and close it: the reader removed an element from its empty stack.
    @Test func elementsAfterAnErrorAreNotRead() {
        #expect(
            throws: GeoDataError.invalidGPX(
                path: "error-then-other-root.gpx", line: 1, reason: "the XML is not well-formed: a tag has no name"
            )
        ) { try readGPX("error-then-other-root.gpx") }
    }

    /// An encoding name libxml2 cannot read (`UTF!-8`), then a name that is not UTF-8: libxml2
    /// recovers and reads on as UTF-8, so the reader must stop it at the first error, before
    /// FoundationXML meets the name (the UTF-8 check leaves a document naming an encoding alone).
    @Test func aBrokenDeclarationStopsTheReader() {
        #expect(
            throws: GeoDataError.invalidGPX(
                path: "bad-declaration-then-not-utf8.gpx", line: 1,
                reason: "the XML is not well-formed: a quoted value is not closed"
            )
        ) { try readGPX("bad-declaration-then-not-utf8.gpx") }
    }

    /// `<?pi?>`: a processing instruction with nothing after its target, whose NULL data
    /// FoundationXML hands to `strlen` (a segmentation fault).
    @Test func aProcessingInstructionWithoutDataIsRefused() {
        #expect(
            throws: GeoDataError.invalidGPX(
                path: "processing-instruction-without-data.gpx", line: 2,
                reason: "the processing instruction <?pi?> has nothing after its name, which is not read: remove it"
            )
        ) { try readGPX("processing-instruction-without-data.gpx") }
    }

    /// What the checks before parsing must not refuse: Latin-1 bytes in a document that declares
    /// ISO-8859-1, which libxml2 converts; a processing instruction with data, and an empty one
    /// inside a comment; UTF-16 with a byte order mark.
    @Test func latin1DeclaredIsStillRead() throws {
        var data = Data("<?xml version='1.0' encoding='ISO-8859-1'?>\n<gpx><wpt lat=\"1\" lon=\"2\"><name>".utf8)
        data += [0xE9, 0x74, 0xE9]  // "été" in Latin-1
        data += Data("</name></wpt><?pi data?><!-- <?pi?> --></gpx>".utf8)
        let document = try GPXReader.read(data: data, path: "latin1.gpx")
        #expect(document.waypoints.first?.name == "été")
        let utf16 = try #require("<gpx><wpt lat=\"1\" lon=\"2\"><name>été</name></wpt></gpx>".data(using: .utf16))
        #expect(try GPXReader.read(data: utf16, path: "utf16.gpx").waypoints.first?.name == "été")
    }
}

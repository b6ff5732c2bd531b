import Foundation
import MapTestSupport
import MapUtilities
import Testing

@testable import PhotoSources

/// The byte-level CSV reader against RFC 4180, on hand-made cases and on seeded random records
/// written as the RFC says (fields quoted when they hold a comma, quote or line break).
struct CSVReaderTests {
    private func records(_ text: String) throws(CSVReader.Failure) -> [CSVRecord] {
        try CSVReader.records(of: Array(text.utf8))
    }

    @Test func rfc4180Examples() throws {
        #expect(
            try records("aaa,bbb,ccc\r\nzzz,yyy,xxx\r\n") == [
                CSVRecord(line: 1, fields: ["aaa", "bbb", "ccc"]), CSVRecord(line: 2, fields: ["zzz", "yyy", "xxx"]),
            ])
        #expect(
            try records("aaa,bbb,ccc\nzzz,yyy,xxx") == [
                CSVRecord(line: 1, fields: ["aaa", "bbb", "ccc"]), CSVRecord(line: 2, fields: ["zzz", "yyy", "xxx"]),
            ])
        #expect(
            try records("\"aaa\",\"b\r\nbb\",\"ccc\"\r\nzzz,yyy,xxx") == [
                CSVRecord(line: 1, fields: ["aaa", "b\r\nbb", "ccc"]),
                CSVRecord(line: 3, fields: ["zzz", "yyy", "xxx"]),
            ])
        #expect(try records("\"aaa\",\"b\"\"bb\",\"ccc\"") == [CSVRecord(line: 1, fields: ["aaa", "b\"bb", "ccc"])])
    }

    @Test func emptyFieldsBlankLinesAndOldMacLineBreaks() throws {
        #expect(
            try records("a,,\n\n,\n\"\"\r\"\",b\r") == [
                CSVRecord(line: 1, fields: ["a", "", ""]), CSVRecord(line: 3, fields: ["", ""]),
                CSVRecord(line: 5, fields: ["", "b"]),
            ])
        #expect(try records("a,b,") == [CSVRecord(line: 1, fields: ["a", "b", ""])])
        #expect(try records("\u{FEFF}x\n") == [CSVRecord(line: 1, fields: ["x"])])
        #expect(try records("") == [])
    }

    @Test func problemsNameTheLineAndField() {
        #expect(throws: CSVReader.Failure.self) { try records("a\nb,c\"d\n") }
        do throws(CSVReader.Failure) {
            _ = try records("a,b\n1,\"x\ny\"z\n")
            Issue.record("expected a failure")
        } catch {
            #expect(error.line == 3 && error.message == "field 2 has text after its closing quote")
        }
        do throws(CSVReader.Failure) {
            _ = try records("a,b\n1,2\n3,\"open\n\n")
            Issue.record("expected a failure")
        } catch {
            #expect(error.line == 3 && error.message == "field 2 opens a quote that is never closed")
        }
        do throws(CSVReader.Failure) {
            _ = try CSVReader.records(of: Array("a,b\n1,".utf8) + [0xC3, 0x28])
            Issue.record("expected a failure")
        } catch {
            #expect(error.line == 2 && error.message == "field 2 is not valid UTF-8")
        }
    }

    @Test func randomRecordsRoundTrip() throws {
        var random = SeededGenerator(seed: 14)
        let pieces = ["a", "b", "42", ",", "\"", "\n", "\r\n", "\r", " ", "é", "中", "😀", "x y"]
        for round in 0..<500 {
            var expected: [CSVRecord] = []
            var text = ""
            var line = 1
            let recordCount = 1 + Int(random.next() % 8)
            for number in 0..<recordCount {
                let fieldCount = 1 + Int(random.next() % 5)
                var fields: [String] = []
                for _ in 0..<fieldCount {
                    fields.append(
                        (0..<Int(random.next() % 4)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
                            .joined())
                }
                if fields == [""] { fields = ["z"] }  // a lone empty field is a blank line
                expected.append(CSVRecord(line: line, fields: fields))
                let written = fields.map { field -> String in
                    let needsQuotes = field.contains {
                        $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n"
                    }
                    return needsQuotes || random.next() % 5 == 0
                        ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
                }
                text += written.joined(separator: ",")
                line += fields.reduce(0) { count, field in
                    count
                        + field.unicodeScalars.indices.filter { index in
                            let scalar = field.unicodeScalars[index]
                            let next = field.unicodeScalars.index(after: index)
                            return scalar == "\n"
                                || (scalar == "\r"
                                    && (next == field.unicodeScalars.endIndex || field.unicodeScalars[next] != "\n"))
                        }.count
                }
                if number < recordCount - 1 || random.next() % 2 == 0 {
                    text += ["\n", "\r\n", "\r"][Int(random.next() % 3)]
                    line += 1
                }
            }
            #expect(try records(text) == expected, "round \(round): \(text.debugDescription)")
        }
    }
}

/// Files large enough to be read in parts on several cores give what one pass gives.
struct CSVPartsTests {
    /// About 400 kB of rows with quoted titles holding commas, quotes and line breaks, CRLF and LF,
    /// read in parts of 64 kB or more (up to one per core, at most four).
    private func load(_ file: URL) throws -> PhotoCollection {
        try CSVPhotoSource(url: file, minimumBytesPerPart: 65_536).load()
    }

    /// Rows with quoted titles holding commas, quotes and line breaks, CRLF and LF.
    private func bigCSV(seed: UInt64) -> (text: String, titles: [String], lines: [Int]) {
        var random = SeededGenerator(seed: seed)
        var text = "latitude,longitude,title,photographer\r\n"
        var titles: [String] = []
        var lines: [Int] = []
        var line = 2
        var byteCount = 0
        while byteCount < 400_000 {
            let title: String
            switch random.next() % 6 {
            case 0: title = "Two\nlines \(line)"
            case 1: title = "A \"quoted\", word \(line)"
            case 2: title = "Three\r\nlines\n\(line)"
            default: title = "Photo \(line) \(String(repeating: "x", count: 1 + Int(random.next() % 40)))"
            }
            let written =
                title.contains { "\",\n\r\r\n".contains($0) }
                ? "\"" + title.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : title
            let row =
                "\(Double(random.next() % 1000) / 20 + 1),\(Double(random.next() % 1000) / 10 - 50),\(written),Ansel\(random.next() % 2 == 0 ? "\r\n" : "\n")"
            text += row
            byteCount += row.utf8.count
            titles.append(title)
            lines.append(line)
            line +=
                1 + title.unicodeScalars.filter { $0 == "\n" }.count + title.unicodeScalars.filter { $0 == "\r" }.count
                - title.components(separatedBy: "\r\n").count + 1
        }
        return (text, titles, lines)
    }

    @Test func partsGiveWhatOnePassGives() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (text, titles, lines) = bigCSV(seed: 17)
        let photos = try load(writeFile("big.csv", in: folder, text)).photos
        #expect(photos.map(\.title) == titles.map { Photo.nonEmpty($0) })
        #expect(photos.map(\.id) == lines.map { "big.csv:\($0)" })
        let records = try CSVReader.records(of: Array(text.utf8))
        #expect(records.dropFirst().map(\.line) == lines)
    }

    @Test func repeatedNamesAreSharedAndEachStaysRight() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 90 photographers, more than the 64 names kept, some quoted, one non-ASCII.
        let rows = (0..<300).map { row in
            let name = row % 90 == 7 ? "\"Lange, \"\"D.\"\"\"" : row % 90 == 8 ? "李明" : "P\(row % 90)"
            return "1,\(Double(row) / 10),\(name),Same subtitle"
        }
        let photos = try load(
            writeFile(
                "names.csv", in: folder, "latitude,longitude,photographer,subtitle\n" + rows.joined(separator: "\n"))
        ).photos
        #expect(
            photos.map(\.photographer)
                == (0..<300).map { row in row % 90 == 7 ? "Lange, \"D.\"" : row % 90 == 8 ? "李明" : "P\(row % 90)" })
        #expect(photos.allSatisfy { $0.subtitle == "Same subtitle" })
    }

    @Test func theFirstProblemInTheFileIsReported() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (text, _, lines) = bigCSV(seed: 18)
        // Break a row near the end, then also one near the start: each time the earliest is reported.
        var rows = text.components(separatedBy: "Ansel")
        let late = rows.count - 10
        let early = 10
        rows[late] += ",extra"
        let lateOnly = rows.joined(separator: "Ansel")
        let file = try writeFile("late.csv", in: folder, lateOnly)
        let lateError = #expect(throws: PhotoSourceError.self) { try load(file) }
        #expect(
            lateError?.description.hasSuffix("late.csv:\(lines[late]): has 5 fields, the header has 4") == true,
            "\(String(describing: lateError))")
        rows[early] += ",extra"
        let both = try writeFile("both.csv", in: folder, rows.joined(separator: "Ansel"))
        let earlyError = #expect(throws: PhotoSourceError.self) { try load(both) }
        #expect(
            earlyError?.description.hasSuffix("both.csv:\(lines[early]): has 5 fields, the header has 4") == true,
            "\(String(describing: earlyError))")
    }
}

import Foundation
import MapJSON
import MapTestSupport
import Testing

struct JSONWriterTests {
    /// A random string of the characters escaping must get right.
    private func randomString(_ random: inout SeededGenerator) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int(random.next() % 20) {
            switch random.next() % 6 {
            case 0: scalars.append(Unicode.Scalar(UInt8(random.next() % 0x20)))
            case 1: scalars.append(["\"", "\\", "/", "\u{7F}", "\u{2028}"][Int(random.next() % 5)])
            case 2: scalars.append(Unicode.Scalar(UInt32(0x1F300 + random.next() % 0x300))!)
            case 3: scalars.append(Unicode.Scalar(UInt32(0x4E00 + random.next() % 0x100))!)
            default: scalars.append(Unicode.Scalar(UInt8(0x20 + random.next() % 0x5F)))
            }
        }
        return String(scalars)
    }

    @Test func stringsRoundTripThroughFoundation() throws {
        var random = SeededGenerator(seed: 11)
        for _ in 0..<5_000 {
            let string = randomString(&random)
            var writer = JSONWriter()
            writer.beginArray()
            writer.string(string)
            writer.endArray()
            let parsed = try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String]
            #expect(parsed == [string], "\(writer.text)")
            #expect(try JSONValue.parse(Data(writer.bytes)) == .array([.string(string)]))
        }
    }

    @Test func escapesAsJSONEncoderDoesButKeepsSlashes() throws {
        var writer = JSONWriter()
        writer.string("a\"b\\c/d\n\r\t\u{08}\u{0C}\u{01}\u{1F}é😀")
        #expect(writer.text == #""a\"b\\c/d\n\r\t\b\f\u0001\u001fé😀""#)
    }

    @Test func containersPlaceTheirCommas() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("a")
        writer.beginArray()
        writer.number(1)
        writer.number(-2.5)
        writer.beginObject()
        writer.endObject()
        writer.beginArray()
        writer.endArray()
        writer.null()
        writer.endArray()
        writer.key("b")
        writer.bool(true)
        writer.key("c")
        writer.number(1e300)
        writer.endObject()
        writer.newline()
        #expect(writer.text == "{\"a\":[1,-2.5,{},[],null],\"b\":true,\"c\":1e+300}\n")
    }

    @Test func drainedPiecesJoinToTheWholeOutput() throws {
        var whole = JSONWriter()
        var pieces = JSONWriter()
        var drained: [UInt8] = []
        for writer in [0, 1] {
            func write(_ writer: inout JSONWriter, drainEvery: Int?) {
                writer.beginArray()
                for number in 0..<100 {
                    writer.beginObject()
                    writer.key("n")
                    writer.number(Double(number))
                    writer.endObject()
                    if let drainEvery, number % drainEvery == 0 { writer.drain { drained.append(contentsOf: $0) } }
                }
                writer.endArray()
            }
            if writer == 0 { write(&whole, drainEvery: nil) } else { write(&pieces, drainEvery: 7) }
        }
        pieces.drain { drained.append(contentsOf: $0) }
        #expect(pieces.bytes.isEmpty)
        #expect(drained == whole.bytes)
        #expect(try JSONValue.parse(Data(drained)) == .array((0..<100).map { .object(["n": .number(Double($0))]) }))
    }

    @Test func numbersAreWrittenAsTextOfWritesThem() throws {
        var random = SeededGenerator(seed: 12)
        for _ in 0..<5_000 {
            let number: Double
            switch random.next() % 3 {
            case 0: number = Double(Int64(bitPattern: random.next()) >> Int64(random.next() % 64))
            case 1: number = Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
            default: number = Double(Int(random.next() % 2_000_000) - 1_000_000) / 64
            }
            var writer = JSONWriter()
            writer.number(number)
            #expect(writer.text == JSONValue.text(of: number))
            #expect(try JSONValue.parse(Data(writer.bytes)) == .number(number))
        }
    }

    /// Rounded numbers are written as Swift's `String` writes the rounded value (scaled, rounded
    /// half away from zero, scaled back, as `Double.rounded(toDecimalPlaces:)` in MapCore does):
    /// its shortest text, with no trailing zeros.
    @Test func numbersRoundedToDecimalPlacesAreWrittenAsTheirShortestText() throws {
        var writer = JSONWriter()
        writer.beginArray()
        for (number, places) in [
            (37.810599999999994, 7), (-122.4783, 7), (-0.00000004, 7), (18.0, 7), (-33.9, 1),
            (0.000_000_05, 7), (-179.99999999, 7), (12.5, 0), (2.675, 2), (1e20, 3),
        ] {
            writer.number(number, decimalPlaces: places)
        }
        writer.endArray()
        // 0.00000005 rounds half away from zero to 0.0000001; 12.5 to 13; 2.675 * 100 is 267.5 in
        // binary arithmetic, so 2.68; 1e20 is too large to scale and is written as number(_:) writes it.
        #expect(writer.text == "[37.8106,-122.4783,0,18,-33.9,0.0000001,-180,13,2.68,1e+20]")

        var random = SeededGenerator(seed: 31)
        for _ in 0..<20_000 {
            let number = Double(bitPattern: random.next() % (1 << 62)).truncatingRemainder(dividingBy: 400) - 200
            let places = Int(random.next() % 10)
            var one = JSONWriter()
            one.number(number, decimalPlaces: places)
            let scale = pow(10, Double(places))
            let rounded = (number * scale).rounded() / scale
            #expect(one.text == JSONValue.text(of: rounded == 0 ? 0 : rounded), "\(number) to \(places) places")
        }
    }

    @Test func randomValuesRoundTripThroughJSONText() throws {
        var samples = JSONParserTests.SampleWriter(random: SeededGenerator(seed: 13))
        for _ in 0..<2_000 {
            let value = samples.value(depth: 0).value
            #expect(try JSONValue.parse(Data(value.jsonText.utf8)) == value, "\(value.jsonText)")
        }
    }
}

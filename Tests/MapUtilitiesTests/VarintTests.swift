import MapUtilities
import Testing

struct VarintTests {
    /// The protobuf encoding guide's examples: 1 is `01`, 150 is `96 01`, 300 is `AC 02`.
    @Test func valuesAreWrittenSevenBitsAByteLeastSignificantFirst() {
        var bytes: [UInt8] = []
        for value: UInt64 in [0, 1, 127, 150, 300] { Varint.append(value, to: &bytes) }
        #expect(bytes == [0x00, 0x01, 0x7F, 0x96, 0x01, 0xAC, 0x02])
        var maximum: [UInt8] = []
        Varint.append(.max, to: &maximum)
        #expect(maximum == [UInt8](repeating: 0xFF, count: 9) + [0x01])
        #expect(maximum.count == Varint.maximumByteCount)
    }

    @Test func readingGivesTheValuesBackAndMovesPastEach() {
        var bytes: [UInt8] = []
        let values: [UInt64] = [0, 1, 300, 1 << 35, .max]
        for value in values { Varint.append(value, to: &bytes) }
        var offset = 0
        let read = values.map { _ in Varint.read(bytes, at: &offset, end: bytes.count) }
        #expect(read == values)
        #expect(offset == bytes.count)
    }

    @Test func aVarintCutByTheEndIsNilWithTheOffsetAtTheEnd() {
        let bytes: [UInt8] = [0x96, 0x01, 0xAC, 0x02]
        var offset = 2
        #expect(Varint.read(bytes, at: &offset, end: 3) == nil, "the end falls inside AC 02")
        #expect(offset == 3)
        var empty = 0
        #expect(Varint.read([], at: &empty, end: 0) == nil)
    }

    @Test func aVarintOverflowing64BitsIsNilWithTheOffsetAtItsTenthByte() {
        var offset = 1
        #expect(Varint.read([0x00] + [UInt8](repeating: 0xFF, count: 9) + [0x02], at: &offset, end: 11) == nil)
        #expect(offset == 10)
        var endless = 0
        #expect(Varint.read([UInt8](repeating: 0x80, count: 20), at: &endless, end: 20) == nil)
        #expect(endless == 9)
    }
}

import ImageCodec
import Testing

struct ImageMemoryTests {
    /// Small and large buffers (a mapping from 2 MiB on, its length not a whole number of pages)
    /// come zeroed, hold what is written to their last byte, and are freed with their last reference.
    @Test(arguments: [1, 4_096, (2 << 20) - 1, 2 << 20, 15_360_001])
    func memoryComesZeroedAndHoldsItsBytes(count: Int) throws {
        let memory = try #require(ImageMemory(count: count))
        #expect(memory.count == count)
        let bytes = memory.bytes.assumingMemoryBound(to: UInt8.self)
        #expect((0..<count).allSatisfy { bytes[$0] == 0 })
        for index in stride(from: 0, to: count, by: 4_093) { bytes[index] = UInt8(truncatingIfNeeded: index) }
        bytes[count - 1] = 0xAB
        #expect(bytes[count - 1] == 0xAB)
        #expect(bytes[0] == 0 || count == 1)
    }

    @Test func largeMemoryIsAlignedToHugePages() throws {
        let memory = try #require(ImageMemory(count: 15_360_000))
        #expect(Int(bitPattern: memory.bytes) % (2 << 20) == 0)
    }
}

import Foundation
import ImageCodec
import Testing

struct PNGWritingTests {
    /// A 64 × 32 image of soft gradients and flat blocks; `alpha` for every pixel.
    private func makeImage(alpha: UInt8) -> RGBAImage {
        var image = RGBAImage(width: 64, height: 32)
        for y in 0..<32 {
            for x in 0..<64 {
                image[x: x, y: y] =
                    x < 32
                    ? RGBAPixel(red: UInt8(x * 4), green: UInt8(y * 8), blue: 200, alpha: alpha)
                    : RGBAPixel(red: 242, green: 239, blue: 233, alpha: alpha)
            }
        }
        return image
    }

    /// The IHDR colour type byte: 2 RGB, 6 RGBA.
    private func colorType(_ png: Data) -> UInt8 { png[png.startIndex + 25] }

    @Test(arguments: [PNGFiltering.adaptive, .none])
    func opaqueImagesAreWrittenAsRGBAndReadBackExactly(filtering: PNGFiltering) throws {
        let image = makeImage(alpha: 255)
        let png = try image.pngData(filtering: filtering)
        #expect(colorType(png) == 2)
        #expect(try RGBAImage(pngData: png) == image)
    }

    @Test(arguments: [PNGFiltering.adaptive, .none])
    func translucentImagesKeepTheirAlpha(filtering: PNGFiltering) throws {
        var image = makeImage(alpha: 255)
        image[x: 3, y: 3] = RGBAPixel(red: 10, green: 20, blue: 30, alpha: 128)
        let png = try image.pngData(filtering: filtering)
        #expect(colorType(png) == 6)
        #expect(try RGBAImage(pngData: png) == image)
    }

    /// Level 1 deflates with ISA-L, a large image in bands of 256 rows filtered and deflated on
    /// every core and joined into one zlib stream: libpng (which checks the stream and its
    /// Adler-32) reads back every pixel, at every level, and the bytes are the same each time.
    @Test(arguments: [PNGFiltering.adaptive, .none])
    func largeImagesDeflatedInBandsReadBackExactly(filtering: PNGFiltering) throws {
        // 1100 x 1000: over a million pixels, so four bands; noise in the lower half, so some
        // bands store and some compress.
        var image = RGBAImage(width: 1100, height: 1000)
        var state: UInt32 = 2026
        for y in 0..<1000 {
            for x in 0..<1100 {
                state = state &* 1_664_525 &+ 1_013_904_223
                image[x: x, y: y] =
                    y < 500
                    ? RGBAPixel(red: UInt8(x % 256), green: UInt8(y % 256), blue: 120, alpha: x % 7 == 0 ? 200 : 255)
                    : RGBAPixel(
                        red: UInt8(state >> 24), green: UInt8((state >> 16) & 0xFF), blue: UInt8((state >> 8) & 0xFF),
                        alpha: 255)
            }
        }
        let fast = try image.pngData(compressionLevel: 1, filtering: filtering)
        #expect(try RGBAImage(pngData: fast) == image)
        #expect(try image.pngData(compressionLevel: 1, filtering: filtering) == fast)
        for level in [0, 6] {
            #expect(
                try RGBAImage(pngData: try image.pngData(compressionLevel: level, filtering: filtering)) == image,
                "level \(level)")
        }
        // A small image (one band) at level 1 too.
        let small = makeImage(alpha: 255)
        #expect(try RGBAImage(pngData: try small.pngData(compressionLevel: 1, filtering: filtering)) == small)
    }

    /// Level 1's bytes depend on the image alone, not on what was deflated before in the
    /// process: ISA-L's state and hash table live in buffers the encoder allocates for each image
    /// (reused heap memory holding another image's entries must not change a match).
    @Test
    func levelOneBytesDoNotDependOnWhatWasEncodedBefore() throws {
        func image(seed: UInt32) -> RGBAImage {
            var image = RGBAImage(width: 512, height: 512)
            var state = seed
            for y in 0..<512 {
                for x in 0..<512 {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    // Flat blocks with a little noise: long matches, many hash entries.
                    let noise = UInt8(state >> 30)
                    image[x: x, y: y] = RGBAPixel(
                        red: UInt8((x / 16) % 256) &+ noise, green: UInt8((y / 8) % 256), blue: UInt8(seed % 256),
                        alpha: 255)
                }
            }
            return image
        }
        let first = image(seed: 1)
        let other = image(seed: 7)
        let before = try first.pngData(compressionLevel: 1)
        for _ in 0..<3 { _ = try other.pngData(compressionLevel: 1) }
        let after = try first.pngData(compressionLevel: 1)
        let same = before == after
        #expect(same, "\(before.count) bytes, then \(after.count)")
    }

    /// Level 1's bytes do not depend on the thread that encodes: ISA-L's level-1 body hashed the
    /// address of its stream state (rcx, not the input) at a stream's first byte, so the third
    /// byte's hash slot, and now and then the matches, followed bits 16-47 of that address (one
    /// 512-pixel tile in a few thousand differed between runs of an export). Each image is encoded
    /// on 256 threads alive at once, each with its own stack (where the state used to lie), and
    /// every encoding must equal this thread's. Tiny images show it most: before the fix, about 3
    /// in 100 stack addresses changed these images' bytes.
    @Test
    func levelOneBytesDoNotDependOnTheEncodingThread() throws {
        let color = RGBAPixel(red: 30, green: 60, blue: 120, alpha: 255)
        for (width, height) in [(3, 2), (4, 4)] {
            let image = RGBAImage(width: width, height: height, filledWith: color)
            let expected = try image.pngData(compressionLevel: 1, filtering: .none)
            let threads = 256
            let lock = NSLock()
            nonisolated(unsafe) var encodings: [Data?] = Array(repeating: nil, count: threads)
            let encoded = DispatchGroup()
            let release = DispatchSemaphore(value: 0)
            for index in 0..<threads {
                encoded.enter()
                let thread = Thread {
                    let data = try? image.pngData(compressionLevel: 1, filtering: .none)
                    lock.withLock { encodings[index] = data }
                    encoded.leave()
                    // Alive until every thread has encoded, so that no two share a stack.
                    release.wait()
                }
                thread.stackSize = 1 << 20
                thread.start()
            }
            encoded.wait()
            for _ in 0..<threads { release.signal() }
            let differing = lock.withLock { encodings.filter { $0 != expected }.count }
            #expect(differing == 0, "\(width)x\(height): \(differing) of \(threads) threads wrote other bytes")
        }
    }
}

import CTurboJPEG
import Foundation

/// Real JPEG files for tests: pixels compressed by libjpeg-turbo, with an EXIF APP1 segment spliced in.
enum JPEGFixture {
    /// A JPEG of `width` × `height` pixels colored by `color`, with `exif` after the SOI marker.
    static func jpeg(
        width: Int = 64, height: Int = 48, exif: ExifFixture? = nil,
        color: (_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) = { x, y in (UInt8(x * 4 % 256), UInt8(y * 4 % 256), 128) }
    ) -> Data {
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (red, green, blue) = color(x, y)
                rgb += [red, green, blue]
            }
        }
        let handle = tjInitCompress()!
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = tjCompress2(
            handle, rgb, Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue), &buffer, &size,
            Int32(TJSAMP_444.rawValue), 95, 0)
        precondition(status == 0, String(cString: tjGetErrorStr2(handle)))
        defer { tjFree(buffer) }
        let jpeg = [UInt8](UnsafeBufferPointer(start: buffer, count: Int(size)))
        guard let exif else { return Data(jpeg) }
        let payload = Array("Exif".utf8) + [0, 0] + exif.tiff()
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Data(jpeg[0..<2] + segment + jpeg[2...])
    }

    /// Writes a JPEG to `folder/name`, creating intermediate folders, and returns its URL.
    @discardableResult
    static func write(
        _ name: String, in folder: URL, exif: ExifFixture?, width: Int = 64, height: Int = 48
    ) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try jpeg(width: width, height: height, exif: exif).write(to: url)
        return url
    }
}

/// Writes `text` as UTF-8 to `folder/name` and returns its URL.
@discardableResult
func writeFile(_ name: String, in folder: URL, _ text: String) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url
}

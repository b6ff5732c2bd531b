import CZlib
import Foundation

/// gzip and zlib streams through zlib (`CZlib`), and zlib's CRC-32: PMTiles directories and
/// metadata, compressed vector tiles, the PMTiles writer's deduplication.
///
/// For example:
///
/// ```swift
/// let packed = Gzip.compress(Array("ocean ocean ocean".utf8))
/// Gzip.isGzip(packed)                // true
/// try Gzip.decompress(packed)         // the bytes again
/// ```
///
/// gzip is RFC 1952, zlib RFC 1950; both wrap deflate (RFC 1951).
public enum Gzip {
    /// The most bytes ``decompress(_:limitBytes:)`` makes by default: 256 MiB, far more than any
    /// PMTiles directory or metadata a writer makes (a directory entry takes at most 40 bytes),
    /// and a guard against a small damaged or hostile stream asking for gigabytes.
    public static let defaultLimitBytes = 256 << 20

    /// `bytes` as a gzip stream: a gzip header with no name and modification time 0, so the
    /// same input always gives the same output, then deflate at zlib's default level (6).
    public static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        guard czlib_deflate_init_gzip(&stream, Z_DEFAULT_COMPRESSION) == Z_OK else {
            preconditionFailure("zlib could not start a gzip stream (out of memory)")
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        let written: Int = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                let status = deflate(&stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "deflateBound left too little room")
                return out.count - Int(stream.avail_out)
            }
        }
        output.removeSubrange(written...)
        return output
    }

    /// The bytes a gzip or zlib stream holds, whichever header it has.
    ///
    /// - Parameter limitBytes: The most bytes to make. The default is ``defaultLimitBytes``.
    /// - Throws: ``MapUtilitiesError/invalidGzip(reason:)`` for bytes that are not a gzip or zlib
    ///   stream, end before it does, or would make more than `limitBytes`.
    public static func decompress(_ bytes: [UInt8], limitBytes: Int = defaultLimitBytes) throws(MapUtilitiesError)
        -> [UInt8]
    {
        var stream = z_stream()
        guard czlib_inflate_init_gzip_or_zlib(&stream) == Z_OK else {
            throw .invalidGzip(reason: "zlib could not start (out of memory)")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(max(bytes.count * 4, 4096), 1 << 20))
        let result: Result<Void, MapUtilitiesError> = bytes.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, out.count - Int(stream.avail_out))
                }
                guard output.count + produced <= limitBytes else {
                    return .failure(
                        .invalidGzip(reason: "it decompresses to more than \(Data.byteCountText(limitBytes))"))
                }
                output += chunk[..<produced]
                switch status {
                case Z_STREAM_END:
                    return .success(())
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    return .failure(.invalidGzip(reason: "its gzip stream is cut short"))
                case Z_BUF_ERROR:
                    continue
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                    return .failure(.invalidGzip(reason: "it is not valid gzip: \(message)"))
                }
            }
        }
        try result.get()
        return output
    }

    /// Whether `bytes` start as a gzip stream does (`1F 8B`, RFC 1952 §2.3.1).
    public static func isGzip(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0x1F, 0x8B])
    }

    /// Whether `bytes` start as a zlib stream with zlib's usual 32 KiB window does (RFC 1950
    /// §2.2): `78`, then a flag byte that makes the pair a multiple of 31 (`78 01`, `78 5E`,
    /// `78 9C`, `78 DA`).
    public static func isZlib(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        guard let method = iterator.next(), let flags = iterator.next() else { return false }
        return method == 0x78 && (UInt16(method) << 8 | UInt16(flags)) % 31 == 0
    }

    /// zlib's CRC-32 of `bytes`: the package's one CRC-32 (PNG chunks, PMTiles' deduplication,
    /// the server's entity tags).
    public static func crc32(of bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return 0 }
        return UInt32(CZlib.crc32_z(0, base.assumingMemoryBound(to: Bytef.self), bytes.count))
    }

    /// zlib's Adler-32 of `bytes` (1 for none).
    public static func adler32(of bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return 1 }
        return UInt32(CZlib.adler32_z(1, base.assumingMemoryBound(to: Bytef.self), bytes.count))
    }
}

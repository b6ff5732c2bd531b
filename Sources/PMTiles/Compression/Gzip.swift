import CZlib
import Foundation

/// gzip streams through zlib, for PMTiles directories and metadata, and zlib's CRC-32 for the
/// writer's deduplication.
enum Gzip {
    /// Why bytes did not decompress, in plain words.
    struct Failure: Error, Hashable, Sendable {
        var reason: String
    }

    /// The most bytes ``decompress(_:limitBytes:)`` makes by default: 256 MiB, far more than any
    /// directory or metadata a writer makes (a directory entry takes at most 40 bytes), and a
    /// guard against a small damaged or hostile section asking for gigabytes.
    static let defaultLimitBytes = 256 << 20

    /// `bytes` as a gzip stream: a gzip header with no name and modification time 0, so the
    /// same input always gives the same output, then deflate at zlib's default level (6).
    static func compress(_ bytes: [UInt8]) -> [UInt8] {
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

    /// The bytes a gzip (or zlib) stream holds.
    ///
    /// - Parameter limitBytes: The most bytes to make. The default is ``defaultLimitBytes``.
    /// - Throws: ``Failure`` for bytes that are not a gzip stream, end before it does, or would
    ///   make more than `limitBytes`.
    static func decompress(_ bytes: [UInt8], limitBytes: Int = defaultLimitBytes) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard czlib_inflate_init_gzip_or_zlib(&stream) == Z_OK else {
            throw Failure(reason: "zlib could not start (out of memory)")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(max(bytes.count * 4, 4096), 1 << 20))
        let result: Result<Void, Failure> = bytes.withUnsafeBufferPointer { input in
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
                    return .failure(Failure(reason: "it decompresses to more than \(byteCountText(limitBytes))"))
                }
                output += chunk[..<produced]
                switch status {
                case Z_STREAM_END:
                    return .success(())
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    return .failure(Failure(reason: "its gzip stream is cut short"))
                case Z_BUF_ERROR:
                    continue
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                    return .failure(Failure(reason: "it is not valid gzip: \(message)"))
                }
            }
        }
        try result.get()
        return output
    }

    /// A size as `N MiB` when a whole number of them, else `N bytes`.
    static func byteCountText(_ byteCount: Int) -> String {
        byteCount > 0 && byteCount % (1 << 20) == 0 ? "\(byteCount >> 20) MiB" : "\(byteCount) bytes"
    }

    /// Whether `bytes` start as a gzip stream does (`1F 8B`).
    static func isGzip(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0x1F, 0x8B])
    }

    /// zlib's CRC-32 of `bytes`.
    static func crc32(of bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return 0 }
        return UInt32(CZlib.crc32_z(0, base.assumingMemoryBound(to: Bytef.self), bytes.count))
    }
}

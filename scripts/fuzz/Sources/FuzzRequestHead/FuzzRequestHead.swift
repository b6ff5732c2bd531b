import FuzzSupport
import NIOCore
import RequestHeads

/// Bytes read on a connection, as `serve`'s kept-tile fast path takes them before NIO's decoder
/// (`RequestHead.next(in:maximumHeadBytes:)`): pipelined heads one after the other, and the same
/// bytes again cut in two (a head split across packets), until the fast path waits or gives the
/// connection to the decoder. Checked besides not crashing: a head's end is the first
/// "\r\n\r\n" a plain search finds; a head read holds no control character but tabs and its
/// lines' CRLFs, and its target no space; splitting the bytes never changes what is read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let limit = 4096
    let whole = steps(bytes, limit: limit)
    // The same bytes arriving in two reads, cut where the first byte says.
    if let first = bytes.first, bytes.count > 1 {
        let cut = Int(first) % bytes.count
        var split: [String] = []
        var waiting = steps(Array(bytes[..<cut]), limit: limit)
        if waiting.last == "partial" {
            waiting.removeLast()
            split = waiting
            let consumed = consumedBytes(Array(bytes[..<cut]), limit: limit)
            split += steps(Array(bytes[consumed...]), limit: limit)
            precondition(split == whole, "split at \(cut): \(split) != \(whole)")
        }
    }
    return 0
}

/// What the fast path takes from `bytes`, in order, as text: each head (`head LENGTH TARGET`,
/// `unreadable LENGTH`), then `partial` or `decoder` when it stops.
private func steps(_ bytes: [UInt8], limit: Int) -> [String] {
    var buffer = ByteBuffer()
    buffer.writeBytes(bytes)
    var taken: [String] = []
    while buffer.readableBytes > 0 {
        switch RequestHead.next(in: buffer, maximumHeadBytes: limit) {
        case .partial:
            precondition(buffer.readableBytes <= limit)
            taken.append("partial")
            return taken
        case .passEverything:
            taken.append("decoder")
            return taken
        case .head(let head, let length):
            let readable = buffer.readableBytesView
            precondition(length >= 4 && length <= readable.count && length <= limit)
            let plain = firstBlankLine(Array(readable))
            precondition(plain == length, "head ends at \(length), a plain search says \(String(describing: plain))")
            if let head {
                precondition(!head.target.isEmpty && !head.target.utf8.contains(UInt8(ascii: " ")))
                precondition(!head.target.utf8.contains { $0 < 0x20 || $0 == 0x7F })
                precondition(!(head.origin ?? "").utf8.contains { ($0 < 0x20 && $0 != 9) || $0 == 0x7F })
                taken.append("head \(length) \(head.target) \(head.isPlainGet) \(head.passesConnection)")
                if head.passesConnection {
                    taken.append("decoder")
                    return taken
                }
            } else {
                taken.append("unreadable \(length)")
                taken.append("decoder")
                return taken
            }
            buffer.moveReaderIndex(forwardBy: length)
        }
    }
    return taken
}

/// How many bytes of `bytes` the whole heads at its start take.
private func consumedBytes(_ bytes: [UInt8], limit: Int) -> Int {
    var buffer = ByteBuffer()
    buffer.writeBytes(bytes)
    var consumed = 0
    while case .head(let head?, let length) = RequestHead.next(in: buffer, maximumHeadBytes: limit),
        !head.passesConnection
    {
        consumed += length
        buffer.moveReaderIndex(forwardBy: length)
    }
    return consumed
}

/// The end of the first "\r\n\r\n" in `bytes`, found plainly.
private func firstBlankLine(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    for index in 0...(bytes.count - 4)
    where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
        return index + 4
    }
    return nil
}

@main
enum FuzzRequestHeadMain {
    static func main() { FuzzDriver.run() }
}

public import NIOCore

/// What the server's kept-tile fast path reads of an HTTP/1.1 request head, from its bytes, before
/// NIO's HTTP decoder sees them: its request line and the few headers that decide whether it may
/// be answered there. Anything it does not understand is the decoder's (and the router's) to
/// answer or refuse.
public struct RequestHead: Sendable, Equatable {
    /// Whether it is a `GET` in HTTP/1.1 that may be answered from its bytes: no `Connection`
    /// other than `keep-alive`, no `Expect`, one `Origin` at most, header lines of `name: value`
    /// only, at most ``maximumHeaderFieldCount`` of them.
    public var isPlainGet = true
    /// Whether the HTTP decoder must read the rest of the connection: a body follows
    /// (`Content-Length` or `Transfer-Encoding` is given) or it asks for an `Upgrade`.
    public var passesConnection = false
    /// The request target as sent (origin form, or whatever else the line holds).
    public var target = ""
    /// The `If-None-Match` values, joined with ", " when given more than once.
    public var ifNoneMatch: String?
    /// The `Origin` header's value.
    public var origin: String?

    /// The most header fields a head may have: NIO's decoder is given the same limit, and
    /// refuses a head with more (the fast path hands it on).
    public static let maximumHeaderFieldCount = 100

    /// Reads a head's bytes (ending in its blank line); `nil`, leaving it to NIO's decoder (which
    /// answers or refuses it), when its request line is not `METHOD SP TARGET SP HTTP/x.y` (a tab
    /// in it included), or
    /// when it holds a control character other than a tab and its lines' CRLFs: a bare LF (RFC
    /// 9112 lets a server accept it; NIO refuses it), a bare CR (a header or a path smuggling a
    /// line break), NUL, DEL.
    public init?(_ head: UnsafeRawBufferPointer) {
        guard !Self.holdsControlCharacters(head) else { return nil }
        var lines = Lines(head)
        guard let requestLine = lines.next(), !requestLine.contains(UInt8(ascii: "\t")),
            let first = requestLine.firstIndex(of: UInt8(ascii: " ")),
            let last = requestLine.lastIndex(of: UInt8(ascii: " ")),
            first > requestLine.startIndex, last > first + 1,
            !requestLine[(first + 1)..<last].contains(UInt8(ascii: " "))
        else { return nil }
        let method = requestLine[..<first]
        let version = requestLine[(last + 1)...]
        guard version.starts(with: "HTTP/".utf8) else { return nil }
        isPlainGet = method.elementsEqual("GET".utf8) && version.elementsEqual("HTTP/1.1".utf8)
        target = String(decoding: requestLine[(first + 1)..<last], as: UTF8.self)
        var fieldCount = 0
        while let line = lines.next(), !line.isEmpty {
            fieldCount += 1
            if fieldCount > Self.maximumHeaderFieldCount { isPlainGet = false }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[line.startIndex] != UInt8(ascii: " "), line[line.startIndex] != UInt8(ascii: "\t"),
                !line.contains(UInt8(ascii: "\n"))
            else {
                isPlainGet = false
                continue
            }
            let name = line[..<colon]
            let value = { String(decoding: Self.trimmed(line[(colon + 1)...]), as: UTF8.self) }
            if Self.named(name, "content-length") || Self.named(name, "transfer-encoding")
                || Self.named(name, "upgrade")
            {
                passesConnection = true
            } else if Self.named(name, "connection") {
                if value().lowercased() != "keep-alive" { isPlainGet = false }
            } else if Self.named(name, "expect") {
                isPlainGet = false
            } else if Self.named(name, "if-none-match") {
                ifNoneMatch = ifNoneMatch.map { $0 + ", " + value() } ?? value()
            } else if Self.named(name, "origin") {
                if origin != nil { isPlainGet = false }
                origin = value()
            }
        }
    }

    /// Whether `head` holds a control character other than a tab and the CR LF pairs that end
    /// its lines.
    private static func holdsControlCharacters(_ head: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index < head.count {
            let byte = head[index]
            if byte == UInt8(ascii: "\r") {
                guard index + 1 < head.count, head[index + 1] == UInt8(ascii: "\n") else { return true }
                index += 2
                continue
            }
            if (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F { return true }
            index += 1
        }
        return false
    }

    /// Whether a header's name is `lowercased`, in any case.
    private static func named(_ name: Slice<UnsafeRawBufferPointer>, _ lowercased: StaticString) -> Bool {
        guard name.count == lowercased.utf8CodeUnitCount else { return false }
        let wanted = UnsafeRawBufferPointer(start: lowercased.utf8Start, count: lowercased.utf8CodeUnitCount)
        return zip(name, wanted).allSatisfy { byte, lower in byte | 0x20 == lower }
    }

    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        var bytes = bytes
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            bytes = bytes.dropFirst()
        }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            bytes = bytes.dropLast()
        }
        return bytes
    }

    /// A head's lines, split at each "\r\n".
    private struct Lines {
        let bytes: UnsafeRawBufferPointer
        var start = 0

        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func next() -> Slice<UnsafeRawBufferPointer>? {
            var index = start
            while index + 1 < bytes.count {
                if bytes[index] == UInt8(ascii: "\r"), bytes[index + 1] == UInt8(ascii: "\n") {
                    defer { start = index + 2 }
                    return bytes[start..<index]
                }
                index += 1
            }
            return nil
        }
    }
}

public import NIOCore

extension RequestHead {
    /// What the bytes read so far on a connection start with, as the fast path takes them.
    public enum Next: Sendable, Equatable {
        /// A head not read whole yet: wait for more bytes.
        case partial
        /// Bytes the fast path does not read: the connection is the HTTP decoder's from here on
        /// (a head longer than the limit, whole or not; a line ending in a bare LF).
        case passEverything
        /// A whole head, `length` bytes with its blank line; `head` is nil when it cannot be read
        /// (not a request line), and the connection is then the decoder's too.
        case head(RequestHead?, length: Int)
    }

    /// What `bytes` start with: a whole head (read), the start of one, or bytes for the decoder.
    ///
    /// - Parameter maximumHeadBytes: The longest head waited for (the server's header limit).
    public static func next(in bytes: ByteBuffer, maximumHeadBytes: Int) -> Next {
        guard let length = headLength(bytes) else {
            return bytes.readableBytes <= maximumHeadBytes && !hasBareLineFeed(bytes) ? .partial : .passEverything
        }
        // A head past the limit is the decoder's to refuse, whole or not.
        guard length <= maximumHeadBytes else { return .passEverything }
        let head = bytes.withUnsafeReadableBytes { RequestHead(UnsafeRawBufferPointer(rebasing: $0.prefix(length))) }
        return .head(head, length: length)
    }

    /// The length of the request head at the start of `bytes` up to and with its blank line
    /// ("\r\n\r\n"), or `nil` when it has not come whole.
    public static func headLength(_ bytes: ByteBuffer) -> Int? {
        bytes.withUnsafeReadableBytes { raw -> Int? in
            guard raw.count >= 4 else { return nil }
            var index = 3
            while index < raw.count {
                // Steps of up to 4 bytes: the byte at `index` ends "\r\n\r\n" only if it is "\n".
                switch raw[index] {
                case UInt8(ascii: "\n"):
                    if raw[index - 1] == UInt8(ascii: "\r"), raw[index - 2] == UInt8(ascii: "\n"),
                        raw[index - 3] == UInt8(ascii: "\r")
                    {
                        return index + 1
                    }
                    index += 2
                case UInt8(ascii: "\r"):
                    index += 1
                default:
                    index += 4
                }
            }
            return nil
        }
    }

    /// Whether `bytes` hold a line feed not preceded by a carriage return: a head whose lines
    /// end in bare LF is the HTTP decoder's to answer or refuse, never waited for (its blank
    /// line is never "\r\n\r\n").
    public static func hasBareLineFeed(_ bytes: ByteBuffer) -> Bool {
        bytes.withUnsafeReadableBytes { raw in
            var previous: UInt8 = 0
            for byte in raw {
                if byte == UInt8(ascii: "\n"), previous != UInt8(ascii: "\r") { return true }
                previous = byte
            }
            return false
        }
    }
}

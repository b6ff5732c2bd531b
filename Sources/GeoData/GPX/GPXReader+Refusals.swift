import Foundation

// FoundationXML on Linux stops the process on two kinds of well-formed or nearly well-formed
// input: an element, attribute or namespace name that is not UTF-8 (a force unwrap; libxml2 hands
// such names on from a document it reads as UTF-8 without converting it), and a processing
// instruction with nothing after its target, `<?pi?>` (a `strlen` of its NULL data). Documents
// holding either are refused here, before they reach the parser.

extension GPXReader {
    /// Why `data` is refused before parsing, and the 1-based line it is on; `nil` when it may be
    /// parsed.
    static func refusal(of data: Data) -> (line: Int, reason: String)? {
        let head = [UInt8](data.prefix(4))
        if head == [0x4C, 0x6F, 0xA7, 0x94] {
            return (1, "it is EBCDIC text, which is not read: save it as UTF-8")
        }
        let text: [UInt8]
        if let unicode = wideEncoding(of: head) {
            // UTF-16 or UCS-4, which libxml2 converts: looked at as the UTF-8 it becomes.
            guard let decoded = String(data: data, encoding: unicode) else {
                return (1, "the XML is not well-formed: \(GPXParserDelegate.notValidInItsEncoding)")
            }
            text = Array(decoded.utf8)
        } else {
            if isReadAsUTF8(data), let line = lineNotUTF8(in: data) {
                return (line, "the XML is not well-formed: \(GPXParserDelegate.notUTF8)")
            }
            text = [UInt8](data)  // UTF-8, or an encoding that keeps ASCII as it is
        }
        if let (line, target) = emptyProcessingInstruction(in: text) {
            return (
                line,
                "the processing instruction <?\(target)?> has nothing after its name, which is not read: remove it"
            )
        }
        return nil
    }

    /// The encoding of a document whose first bytes are a UTF-16 or UCS-4 byte order mark or `<`
    /// in UTF-16 or UCS-4 (XML 1.0 appendix F.1); `nil` for any other.
    static func wideEncoding(of head: [UInt8]) -> String.Encoding? {
        switch head {
        case [0x00, 0x00, 0xFE, 0xFF], [0x00, 0x00, 0x00, 0x3C]: return .utf32BigEndian
        case [0xFF, 0xFE, 0x00, 0x00], [0x3C, 0x00, 0x00, 0x00]: return .utf32LittleEndian
        case _ where head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0x00, 0x3C]): return .utf16BigEndian
        case _ where head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0x3C, 0x00]): return .utf16LittleEndian
        default: return nil
        }
    }

    /// The line and target of the first processing instruction with nothing after its target
    /// (`<?pi?>`) outside comments and CDATA sections.
    static func emptyProcessingInstruction(in bytes: [UInt8]) -> (line: Int, target: String)? {
        let commentEnd = Array("-->".utf8)
        let cdataEnd = Array("]]>".utf8)
        var index = 0
        var line = 1
        func skip(past end: [UInt8]) {
            while index < bytes.count, !bytes[index...].starts(with: end) {
                if bytes[index] == 0x0A { line += 1 }
                index += 1
            }
            index += end.count
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A { line += 1 }
            guard byte == 0x3C, index + 1 < bytes.count else {
                index += 1
                continue
            }
            if bytes[index...].starts(with: Array("<!--".utf8)) {
                index += 4
                skip(past: commentEnd)
            } else if bytes[index...].starts(with: Array("<![CDATA[".utf8)) {
                index += 9
                skip(past: cdataEnd)
            } else if bytes[index + 1] == 0x3F {
                // "<?", a target (no white space, '?' or '>'), then "?>" at once.
                var end = index + 2
                while end < bytes.count, ![0x20, 0x09, 0x0A, 0x0D, 0x3F, 0x3E].contains(bytes[end]) { end += 1 }
                if end > index + 2, end + 1 < bytes.count, bytes[end] == 0x3F, bytes[end + 1] == 0x3E {
                    return (line, String(decoding: bytes[(index + 2)..<end], as: UTF8.self))
                }
                index += 2
            } else {
                index += 1
            }
        }
        return nil
    }

    /// The 1-based line of the first byte of `data` that is not UTF-8; `nil` when all are.
    static func lineNotUTF8(in data: Data) -> Int? {
        return data.withUnsafeBytes { raw -> Int? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            var line = 1
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    if scalar == "\n" { line += 1 }
                case .emptyInput:
                    return nil
                case .error:
                    return line
                }
            }
        }
    }

    /// Whether libxml2 reads an 8-bit document as UTF-8 as it stands: unless an XML declaration at
    /// its very start names an encoding other than UTF-8 or UTF-16 (libxml2 reads a document
    /// labelled UTF-16 whose first bytes are 8-bit as UTF-8).
    static func isReadAsUTF8(_ data: Data) -> Bool {
        guard let encoding = declaredEncoding(in: data)?.uppercased() else { return true }
        return ["UTF-8", "UTF8", "UTF-16", "UTF16"].contains(encoding)
    }

    /// The `encoding` of an XML declaration that starts the document (after a UTF-8 byte order
    /// mark, if any), as written; `nil` when there is no such declaration or it names none.
    static func declaredEncoding(in data: Data) -> String? {
        var bytes = [UInt8](data.prefix(256))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        // "<?xml" and white space, up to the "?>" that ends the declaration.
        guard bytes.starts(with: Array("<?xml".utf8)), bytes.count > 5, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[5]),
            let end = (0..<bytes.count - 1).first(where: { bytes[$0] == 0x3F && bytes[$0 + 1] == 0x3E })
        else { return nil }
        let declaration = String(decoding: bytes[..<end], as: UTF8.self)
        guard let name = declaration.range(of: "encoding") else { return nil }
        var rest = declaration[name.upperBound...].drop { $0.isWhitespace }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0.isWhitespace }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote }
        return value.isEmpty ? nil : String(value)
    }
}

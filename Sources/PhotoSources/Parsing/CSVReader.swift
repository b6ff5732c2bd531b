import Foundation
import MapJSON

/// One field of a CSV record: where its text lies in the file's bytes.
struct CSVField: Hashable, Sendable {
    /// The byte range of the text, without the surrounding quotes of a quoted field.
    var range: Range<Int>
    /// Whether the text holds doubled quotes (`""`) that stand for one quote.
    var hasEscapedQuotes: Bool
    /// Whether every byte of the text is ASCII (so it is valid UTF-8 as is).
    var isASCII: Bool
}

/// One record of a CSV file: its fields and the line it starts on, counting from 1.
struct CSVRecord: Hashable, Sendable {
    var line: Int
    var fields: [String]
}

/// Splits CSV bytes into records, as RFC 4180 writes them, without copying them.
///
/// Fields are separated by commas and records by line breaks (`\n`, `\r\n` or `\r`). A field in
/// double quotes may hold commas, line breaks and quotes, a quote being written twice (`""`).
/// A UTF-8 byte order mark is ignored; blank lines are skipped. Records are handed out one at a
/// time as byte ranges (``CSVField``), and a field becomes a `String` (checked as UTF-8) only
/// when asked for with ``text(of:in:)``; ``records(of:)`` gives them all as text.
enum CSVReader {
    /// What went wrong, and on which line.
    struct Failure: Error {
        var line: Int
        var message: String
    }

    /// Calls `body` with each record's first line and fields, in order.
    ///
    /// The fields array is reused from one record to the next: `body` must not keep it.
    static func forEachRecord(
        in bytes: UnsafeBufferPointer<UInt8>,
        _ body: (_ line: Int, _ fields: [CSVField]) throws(Failure) -> Void
    ) throws(Failure) {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n")
        let carriageReturn = UInt8(ascii: "\r")
        let count = bytes.count
        var fields: [CSVField] = []
        var line = 1
        var index = count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0

        /// Ends a record at `index`, the byte after its line break or the end; a lone empty field is a blank line.
        func endRecord(recordLine: Int) throws(Failure) {
            if !(fields.count == 1 && fields[0].range.isEmpty) { try body(recordLine, fields) }
            fields.removeAll(keepingCapacity: true)
        }

        while index < count {
            let recordLine = line
            // One field per pass; the record ends at a line break or the end of the bytes.
            var endsRecord = false
            while !endsRecord {
                var nonASCII: UInt8 = 0
                if index < count, bytes[index] == quote {
                    let start = index + 1
                    var cursor = start
                    var escaped = false
                    while true {
                        guard cursor < count else {
                            throw Failure(
                                line: recordLine, message: "field \(fields.count + 1) opens a quote that is never closed")
                        }
                        let byte = bytes[cursor]
                        if byte == quote {
                            if cursor + 1 < count, bytes[cursor + 1] == quote {
                                escaped = true
                                cursor += 2
                                continue
                            }
                            break
                        }
                        if byte == newline || (byte == carriageReturn && (cursor + 1 >= count || bytes[cursor + 1] != newline)) {
                            line += 1
                        }
                        nonASCII |= byte
                        cursor += 1
                    }
                    fields.append(CSVField(range: start..<cursor, hasEscapedQuotes: escaped, isASCII: nonASCII < 0x80))
                    index = cursor + 1
                    guard index < count else { endsRecord = true; break }
                    let next = bytes[index]
                    if next == comma {
                        index += 1
                        if index == count { fields.append(CSVField(range: index..<index, hasEscapedQuotes: false, isASCII: true)); endsRecord = true }
                    } else if next == newline || next == carriageReturn {
                        index += next == carriageReturn && index + 1 < count && bytes[index + 1] == newline ? 2 : 1
                        line += 1
                        endsRecord = true
                    } else {
                        throw Failure(line: line, message: "field \(fields.count) has text after its closing quote")
                    }
                } else {
                    let start = index
                    while index < count {
                        let byte = bytes[index]
                        if byte == comma || byte == newline || byte == carriageReturn { break }
                        if byte == quote {
                            throw Failure(
                                line: line,
                                message: "field \(fields.count + 1) has a quote inside an unquoted field; "
                                    + "quote the whole field and write the quote twice"
                            )
                        }
                        nonASCII |= byte
                        index += 1
                    }
                    fields.append(CSVField(range: start..<index, hasEscapedQuotes: false, isASCII: nonASCII < 0x80))
                    guard index < count else { endsRecord = true; break }
                    let next = bytes[index]
                    if next == comma {
                        index += 1
                        if index == count { fields.append(CSVField(range: index..<index, hasEscapedQuotes: false, isASCII: true)); endsRecord = true }
                    } else {
                        index += next == carriageReturn && index + 1 < count && bytes[index + 1] == newline ? 2 : 1
                        line += 1
                        endsRecord = true
                    }
                }
            }
            try endRecord(recordLine: recordLine)
        }
    }

    /// How many `\n` bytes `bytes` hold, counted eight bytes at a time: an upper bound of the
    /// records of a file written with `\n` or `\r\n` line breaks, plus one.
    static func lineBreakCount(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let newlines = ones &* UInt64(UInt8(ascii: "\n"))
        var count = 0
        var index = 0
        while index + 8 <= bytes.count {
            // A zero byte of word ^ newlines is a line break (the classic "has zero byte" test, exact per byte).
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) ^ newlines
            let zeros = ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word | 0x7F7F_7F7F_7F7F_7F7F)
            count += zeros.nonzeroBitCount
            index += 8
        }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") { count += 1 }
            index += 1
        }
        return count + 1
    }

    /// The text of `field`, its doubled quotes made single.
    ///
    /// - Returns: `nil` when the bytes are not valid UTF-8.
    static func text(of field: CSVField, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let slice = UnsafeBufferPointer(rebasing: bytes[field.range])
        if !field.hasEscapedQuotes {
            return field.isASCII ? String(decoding: slice, as: UTF8.self) : UTF8Text.string(slice)
        }
        var unescaped: [UInt8] = []
        unescaped.reserveCapacity(slice.count)
        var index = 0
        while index < slice.count {
            unescaped.append(slice[index])
            index += slice[index] == UInt8(ascii: "\"") ? 2 : 1
        }
        return unescaped.withUnsafeBufferPointer { UTF8Text.string($0) }
    }

    /// Every record of `bytes` with its fields as text, for small files and tests.
    static func records(of bytes: [UInt8]) throws(Failure) -> [CSVRecord] {
        var records: [CSVRecord] = []
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<Void, Failure> in
            do throws(Failure) {
                try forEachRecord(in: buffer) { line, fields throws(Failure) in
                    var texts: [String] = []
                    for (number, field) in fields.enumerated() {
                        guard let text = text(of: field, in: buffer) else {
                            throw Failure(line: line, message: "field \(number + 1) is not valid UTF-8")
                        }
                        texts.append(text)
                    }
                    records.append(CSVRecord(line: line, fields: texts))
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
        return records
    }
}

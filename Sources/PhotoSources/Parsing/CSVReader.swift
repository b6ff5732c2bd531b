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

    /// Calls `body` with each record's first line, fields and end (the offset after its line
    /// break), in order, until `body` returns false.
    ///
    /// The fields array is reused from one record to the next: `body` must not keep it.
    ///
    /// - Parameters:
    ///   - range: The part of `bytes` to read, which must start at a record (default: all);
    ///     field ranges are offsets into `bytes`.
    ///   - startLine: The line `range` starts on (default 1).
    static func forEachRecord(
        in bytes: UnsafeBufferPointer<UInt8>,
        range: Range<Int>? = nil,
        startLine: Int = 1,
        _ body: (_ line: Int, _ fields: [CSVField], _ end: Int) throws(Failure) -> Bool
    ) throws(Failure) {
        let quote = UInt8(ascii: "\"")
        let comma = UInt8(ascii: ",")
        let newline = UInt8(ascii: "\n")
        let carriageReturn = UInt8(ascii: "\r")
        let range = range ?? 0..<bytes.count
        let count = range.upperBound
        var fields: [CSVField] = []
        var line = startLine
        var index = range.lowerBound
        if index == 0, count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }

        /// Ends a record at `index`, the byte after its line break or the end; a lone empty field is
        /// a blank line. False when `body` asks to stop.
        func endRecord(recordLine: Int) throws(Failure) -> Bool {
            defer { fields.removeAll(keepingCapacity: true) }
            if fields.count == 1 && fields[0].range.isEmpty { return true }
            return try body(recordLine, fields, index)
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
                                line: recordLine,
                                message: "field \(fields.count + 1) opens a quote that is never closed")
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
                        if byte == newline
                            || (byte == carriageReturn && (cursor + 1 >= count || bytes[cursor + 1] != newline))
                        {
                            line += 1
                        }
                        nonASCII |= byte
                        cursor += 1
                    }
                    fields.append(CSVField(range: start..<cursor, hasEscapedQuotes: escaped, isASCII: nonASCII < 0x80))
                    index = cursor + 1
                    guard index < count else {
                        endsRecord = true
                        break
                    }
                    let next = bytes[index]
                    if next == comma {
                        index += 1
                        if index == count {
                            fields.append(CSVField(range: index..<index, hasEscapedQuotes: false, isASCII: true))
                            endsRecord = true
                        }
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
                    guard index < count else {
                        endsRecord = true
                        break
                    }
                    let next = bytes[index]
                    if next == comma {
                        index += 1
                        if index == count {
                            fields.append(CSVField(range: index..<index, hasEscapedQuotes: false, isASCII: true))
                            endsRecord = true
                        }
                    } else {
                        index += next == carriageReturn && index + 1 < count && bytes[index + 1] == newline ? 2 : 1
                        line += 1
                        endsRecord = true
                    }
                }
            }
            guard try endRecord(recordLine: recordLine) else { return }
        }
    }

    /// Where the first record after `target` starts: just after the first line break at or past
    /// `target` that is outside quotes (RFC 4180 quotes always pair, so their count before
    /// `target` says whether it is inside a quoted field); `nil` when there is none.
    ///
    /// Only meaningful when the bytes before `target` are valid CSV; a reader that starts at 0
    /// finds any error there first.
    static func recordStart(after target: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var insideQuotes = count(of: UInt8(ascii: "\""), in: UnsafeBufferPointer(rebasing: bytes[0..<target])) % 2 == 1
        var index = target
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                insideQuotes.toggle()
            } else if !insideQuotes, byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                let end =
                    byte == UInt8(ascii: "\r") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n")
                    ? index + 2 : index + 1
                return end < bytes.count ? end : nil
            }
            index += 1
        }
        return nil
    }

    /// How many line breaks `bytes` hold as the reader counts lines: `\n`, `\r\n` and a lone `\r` each once.
    static func lineBreaks(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let newlines = count(of: UInt8(ascii: "\n"), in: bytes)
        var loneReturns = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\r") {
            if index + 1 >= bytes.count || bytes[index + 1] != UInt8(ascii: "\n") { loneReturns += 1 }
        }
        return newlines + loneReturns
    }

    /// How many times `target` occurs in `bytes`, counted eight bytes at a time.
    static func count(of target: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let pattern = ones &* UInt64(target)
        var count = 0
        var index = 0
        while index + 8 <= bytes.count {
            // A zero byte of word ^ pattern is a match (the classic "has zero byte" test, exact per byte).
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) ^ pattern
            let zeros = ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word | 0x7F7F_7F7F_7F7F_7F7F)
            count += zeros.nonzeroBitCount
            index += 8
        }
        while index < bytes.count {
            if bytes[index] == target { count += 1 }
            index += 1
        }
        return count
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
                try forEachRecord(in: buffer) { line, fields, _ throws(Failure) in
                    var texts: [String] = []
                    for (number, field) in fields.enumerated() {
                        guard let text = text(of: field, in: buffer) else {
                            throw Failure(line: line, message: "field \(number + 1) is not valid UTF-8")
                        }
                        texts.append(text)
                    }
                    records.append(CSVRecord(line: line, fields: texts))
                    return true
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

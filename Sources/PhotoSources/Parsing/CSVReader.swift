import Foundation

/// One record of a CSV file: its fields and the line it starts on, counting from 1.
struct CSVRecord: Hashable, Sendable {
    var line: Int
    var fields: [String]
}

/// Splits CSV text into records, as RFC 4180 writes them.
///
/// Fields are separated by commas and records by line breaks (`\n`, `\r\n` or `\r`). A field in
/// double quotes may hold commas, line breaks and quotes, a quote being written twice (`""`).
/// A UTF-8 byte order mark is ignored; blank lines are skipped.
enum CSVReader {
    /// What went wrong, and on which line.
    struct Failure: Error {
        var line: Int
        var message: String
    }

    private enum State { case fieldStart, unquoted, quoted, afterClosingQuote }

    /// The records of `bytes`, which must be UTF-8.
    static func records(of bytes: [UInt8]) throws(Failure) -> [CSVRecord] {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n")
        let carriageReturn = UInt8(ascii: "\r")
        var records: [CSVRecord] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var state = State.fieldStart
        var line = 1
        var recordLine = 1
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0

        func endField() throws(Failure) {
            guard let text = String(validating: field, as: UTF8.self) else {
                throw Failure(line: recordLine, message: "field \(fields.count + 1) is not valid UTF-8")
            }
            fields.append(text)
            field.removeAll(keepingCapacity: true)
        }
        func endRecord() {
            if fields != [""] { records.append(CSVRecord(line: recordLine, fields: fields)) }
            fields.removeAll()
            state = .fieldStart
        }
        /// Ends the field at a comma, and the record too at a line break; false for any other byte.
        func endsFieldOrRecord(_ byte: UInt8, isLineBreak: Bool) throws(Failure) -> Bool {
            guard byte == comma || isLineBreak else { return false }
            try endField()
            if isLineBreak {
                endRecord()
                line += 1
                recordLine = line
            }
            return true
        }

        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            let isLineBreak = byte == newline || byte == carriageReturn
            if byte == carriageReturn, index < bytes.count, bytes[index] == newline { index += 1 }
            switch state {
            case .fieldStart where byte == quote:
                state = .quoted
            case .fieldStart, .unquoted:
                if try endsFieldOrRecord(byte, isLineBreak: isLineBreak) {
                    state = .fieldStart
                } else if byte == quote {
                    throw Failure(
                        line: line,
                        message: "field \(fields.count + 1) has a quote inside an unquoted field; "
                            + "quote the whole field and write the quote twice"
                    )
                } else {
                    field.append(byte)
                    state = .unquoted
                }
            case .quoted:
                if byte == quote {
                    if index < bytes.count, bytes[index] == quote {
                        field.append(quote)
                        index += 1
                    } else {
                        state = .afterClosingQuote
                    }
                } else {
                    if isLineBreak { line += 1 }
                    field.append(byte)
                    if byte == carriageReturn, bytes[index - 1] == newline { field.append(newline) }
                }
            case .afterClosingQuote:
                if try endsFieldOrRecord(byte, isLineBreak: isLineBreak) {
                    state = .fieldStart
                } else {
                    throw Failure(
                        line: line,
                        message: "field \(fields.count + 1) has text after its closing quote"
                    )
                }
            }
        }
        switch state {
        case .quoted:
            throw Failure(line: recordLine, message: "field \(fields.count + 1) opens a quote that is never closed")
        case .fieldStart where fields.isEmpty:
            break
        default:
            try endField()
            endRecord()
        }
        return records
    }
}

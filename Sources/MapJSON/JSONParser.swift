#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A recursive-descent JSON parser (RFC 8259) over UTF-8 bytes, producing ``JSONValue``s.
///
/// One pass, no intermediate tokens: strings without escapes become `String`s straight from the
/// bytes (validated as UTF-8), numbers are read by ``JSONNumberText``. What `JSONDecoder` (the
/// reader before this one) accepts is accepted alike: top-level scalars, one trailing comma in
/// an array or object, duplicate object keys (the first value is kept). A UTF-8 byte order mark
/// is skipped. Nesting is limited to ``maximumDepth`` arrays and objects, as Foundation's.
/// Arrays at chosen member paths can be handed out element by element instead of being kept
/// (see ``JSONValue/parse(_:streamingArraysAt:visit:)``).
struct JSONParser {
    /// Why and where parsing stopped: a byte offset into the data.
    struct Failure: Error {
        var offset: Int
        var problem: String
    }

    /// The deepest nesting of arrays and objects accepted: 512, as `JSONSerialization`'s.
    static let maximumDepth = 512

    /// What the stream visitor is told: which path, the element's index in its array, the element.
    typealias Visitor = (_ path: Int, _ index: Int, _ element: JSONValue) -> Void

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0
    private(set) var depth = 0
    /// Per nesting level, the members of the object being read there, reused from one object
    /// to the next so that each dictionary is made once at its final size.
    private var memberScratch: [[(String, JSONValue)]] = []
    /// Per nesting level, the elements of the array being read there, reused likewise.
    private var elementScratch: [[JSONValue]] = []
    /// Reads a streamed array itself (the index at its `[`, to be left after its `]`) instead of
    /// handing its elements to the visitor; see `JSONValue.parse(_:streamingArraysAt:keepingMembers:into:add:)`.
    var arrayReader: ((inout JSONParser, _ path: Int) throws(Failure) -> Void)?

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    /// A parser for the elements of an array from `index`, nested `depth` deep, as `parent` keeps members.
    init(elementsOf parent: JSONParser, at index: Int) {
        bytes = parent.bytes
        self.index = index
        depth = parent.depth
    }

    /// The one value of the document, with nothing but whitespace after it.
    ///
    /// - Parameters:
    ///   - paths: Member paths (`["features"]`, `["photos", "photo"]`) whose arrays are streamed:
    ///     each element goes to `visit` and the array is kept empty in the result.
    ///   - visit: Called once per streamed element, in document order.
    mutating func parseDocument(streaming paths: [[String]] = [], visit: Visitor = { _, _, _ in }) throws(Failure)
        -> JSONValue
    {
        let value: JSONValue
        if paths.isEmpty {
            value = try parseValue()
        } else {
            value = try parseValue(candidates: paths.indices.map { ($0, paths[$0][...]) }, visit: visit)
        }
        skipWhitespace()
        guard index == bytes.count else { throw Failure(offset: index, problem: "unexpected text after the document") }
        return value
    }

    // MARK: - Values

    mutating func parseValue() throws(Failure) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw endOfData() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        default: return try parseScalar()
        }
    }

    /// A value that may lie on the way to a streamed array: `candidates` are the paths (by index)
    /// with what remains of each below this value.
    private mutating func parseValue(
        candidates: [(path: Int, rest: ArraySlice<String>)], visit: Visitor
    ) throws(Failure) -> JSONValue {
        if candidates.isEmpty { return try parseValue() }
        skipWhitespace()
        guard index < bytes.count else { throw endOfData() }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return try parseObject(candidates: candidates.filter { !$0.rest.isEmpty }, visit: visit)
        case UInt8(ascii: "["):
            guard let streamed = candidates.first(where: { $0.rest.isEmpty }) else { return try parseArray() }
            if let arrayReader {
                try arrayReader(&self, streamed.path)
            } else {
                try parseArray(streamingTo: streamed.path, visit: visit)
            }
            return .array([])
        default:
            return try parseValue()
        }
    }

    private mutating func parseScalar() throws(Failure) -> JSONValue {
        switch bytes[index] {
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            switch JSONNumberText.scanNumber(bytes, from: index) {
            case .success(let (value, end)):
                index = end
                return .number(value)
            case .failure(.invalid(let offset)):
                throw offset < bytes.count ? Failure(offset: offset, problem: "invalid number") : endOfData()
            case .failure(.outOfRange):
                throw Failure(offset: index, problem: "number is out of range")
            }
        default:
            throw invalidValue()
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(Failure) {
        let count = literal.utf8CodeUnitCount
        for offset in 0..<count {
            guard index + offset < bytes.count else { throw endOfData() }
            guard bytes[index + offset] == literal.utf8Start[offset] else {
                throw Failure(offset: index + offset, problem: "invalid value")
            }
        }
        index += count
    }

    // MARK: - Containers

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw Failure(offset: index, problem: "too many nested arrays or objects")
        }
    }

    private mutating func parseArray() throws(Failure) -> JSONValue {
        let level = depth
        while elementScratch.count <= level { elementScratch.append([]) }
        var values = elementScratch[level]
        elementScratch[level] = []
        try parseElements { parser throws(Failure) in values.append(try parser.parseValue()) }
        // A copy at the exact size; the scratch keeps its capacity for the next array.
        let array = [JSONValue](unsafeUninitializedCapacity: values.count) { buffer, initialized in
            _ = buffer.initialize(from: values)
            initialized = values.count
        }
        values.removeAll(keepingCapacity: true)
        elementScratch[level] = values
        return .array(array)
    }

    mutating func parseArray(streamingTo path: Int, visit: Visitor) throws(Failure) {
        try parseArray(reading: { parser throws(Failure) in try parser.parseValue() }) { index, element in
            visit(path, index, element)
        }
    }

    /// Walks the array at the index, making each element with `read` and handing it to `visit` with its index.
    mutating func parseArray<Element>(
        reading read: (inout JSONParser) throws(Failure) -> Element, visit: (_ index: Int, _ element: Element) -> Void
    ) throws(Failure) {
        var count = 0
        try parseElements { parser throws(Failure) in
            visit(count, try read(&parser))
            count += 1
        }
    }

    /// The values at `picks`' paths in the value at the index (see ``JSONPicks``), the value left behind.
    mutating func pick(_ picks: JSONPicks) throws(Failure) -> JSONPicked {
        var values = [JSONValue?](repeating: nil, count: picks.nodes.count)
        try picks.nodes.withUnsafeBufferPointer { nodes throws(Failure) in
            try picks.keyBytes.withUnsafeBufferPointer { keyBytes throws(Failure) in
                try picks.lookup.withUnsafeBufferPointer { lookup throws(Failure) in
                    try picks.nextInSlot.withUnsafeBufferPointer { nextInSlot throws(Failure) in
                        try values.withUnsafeMutableBufferPointer { values throws(Failure) in
                            let tree = PickTree(
                                nodes: nodes, keyBytes: keyBytes, lookup: lookup, nextInSlot: nextInSlot)
                            try pick(node: 0, tree: tree, into: values)
                        }
                    }
                }
            }
        }
        return JSONPicked(element: values[0]!, values: values, slots: picks.slots)
    }

    /// ``JSONPicks``' tables, lent for one element.
    private struct PickTree {
        let nodes: UnsafeBufferPointer<JSONPicks.Node>
        let keyBytes: UnsafeBufferPointer<UInt8>
        let lookup: UnsafeBufferPointer<Int32>
        let nextInSlot: UnsafeBufferPointer<Int32>

        /// The child of `node` named by `key`'s bytes, if any.
        @inline(__always)
        func child(of node: Int, named key: UnsafeBufferPointer<UInt8>) -> Int? {
            let first = key.isEmpty ? 0 : key[0]
            var candidate = Int(
                lookup[node * JSONPicks.lookupSlots + JSONPicks.lookupSlot(count: key.count, first: first)])
            while candidate != 0 {
                let child = candidate - 1
                let name = nodes[child].name
                if name.count == key.count
                    && (key.isEmpty
                        || (keyBytes[name.lowerBound] == first
                            && memcmp(keyBytes.baseAddress! + name.lowerBound, key.baseAddress!, key.count) == 0))
                {
                    return child
                }
                candidate = Int(nextInSlot[child])
            }
            return nil
        }
    }

    /// Picks from the value at the index as the tree's node `node` says (its value goes to
    /// `values[node]`).
    private mutating func pick(node: Int, tree: PickTree, into values: UnsafeMutableBufferPointer<JSONValue?>)
        throws(Failure)
    {
        skipWhitespace()
        guard index < bytes.count else { throw endOfData() }
        guard !tree.nodes[node].children.isEmpty, bytes[index] == UInt8(ascii: "{") else {
            values[node] = try parseValue()
            return
        }
        values[node] = .object([:])
        guard try !opensEmpty(closedBy: UInt8(ascii: "}")) else { return }
        repeat {
            skipWhitespace()
            guard index < bytes.count else { throw endOfData() }
            guard bytes[index] == UInt8(ascii: "\"") else { throw invalidValue() }
            // The child named by the key, matched on its bytes (a key with escapes is decoded first).
            var child: Int?
            let keyStart = index
            if let raw = try skipString() {
                child = tree.child(of: node, named: UnsafeBufferPointer(rebasing: bytes[raw]))
            } else {
                index = keyStart
                var text = try parseString()
                child = text.withUTF8 { tree.child(of: node, named: $0) }
            }
            skipWhitespace()
            guard index < bytes.count else { throw endOfData() }
            guard bytes[index] == UInt8(ascii: ":") else { throw invalidValue() }
            index += 1
            // The first of duplicate members is the one kept, as parse(_:) keeps it.
            if let child, values[child] == nil {
                try pick(node: child, tree: tree, into: values)
            } else {
                try skipValue()
            }
        } while try !closes(UInt8(ascii: "}"))
    }

    // MARK: - Arrays read in parts

    /// How a part of an array's elements ended.
    enum PartEnd {
        /// At the array's closing bracket; the index is after it.
        case closed
        /// Exactly at the next part's first element, after a comma.
        case reachedNextPart
        /// Not where the next part was guessed to start: the guess was wrong.
        case missedNextPart
    }

    /// Enters the array whose `[` is at the index; true when it is empty (and then left again).
    mutating func enterArray() throws(Failure) -> Bool {
        try opensEmpty(closedBy: UInt8(ascii: "]"))
    }

    /// Reads the elements of the streamed array of `path` from the index (an element's start)
    /// until the closing bracket or `nextPart`, the guessed start of the next part's first element.
    mutating func parseElements<Element>(
        until nextPart: Int?, reading read: (inout JSONParser) throws(Failure) -> Element, _ element: (Element) -> Void
    ) throws(Failure) -> PartEnd {
        while true {
            skipWhitespace()
            element(try read(&self))
            skipWhitespace()
            if let nextPart, index > nextPart { return .missedNextPart }
            guard index < bytes.count else { throw endOfData() }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                guard let nextPart else { continue }
                if index == nextPart { return .reachedNextPart }
                if index > nextPart { return .missedNextPart }
            case UInt8(ascii: "]"):
                guard nextPart == nil else { return .missedNextPart }
                index += 1
                depth -= 1
                return .closed
            default:
                throw invalidValue()
            }
        }
    }

    /// Leaves the parser after a streamed array read in parts, which ended at `end`.
    mutating func leaveArray(at end: Int) {
        index = end
        depth -= 1
    }

    /// Up to `count - 1` guessed starts of later elements of an array of objects, the index being
    /// at its first element: after a `}`, `,` and `{` (with white space) found past equal shares
    /// of the rest of the bytes. Guesses are checked by reading; a wrong one costs a re-read.
    func guessedPartStarts(count: Int) -> [Int] {
        var starts: [Int] = []
        var previous = index
        for part in 1..<max(count, 1) {
            var cursor = max(previous + 1, index + (bytes.count - index) * part / count)
            let limit = min(bytes.count, cursor + (1 << 20))
            var found: Int?
            while cursor < limit, found == nil {
                if bytes[cursor] == UInt8(ascii: "}") {
                    var next = cursor + 1
                    while next < limit, Self.isWhitespace(bytes[next]) { next += 1 }
                    if next < limit, bytes[next] == UInt8(ascii: ",") {
                        next += 1
                        while next < limit, Self.isWhitespace(bytes[next]) { next += 1 }
                        if next < limit, bytes[next] == UInt8(ascii: "{") { found = next }
                    }
                }
                cursor += 1
            }
            guard let found else { break }
            starts.append(found)
            previous = found
        }
        return starts
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\t")
    }

    /// Walks `[ value, value ]` from the opening bracket, calling `element` with the index on each value.
    private mutating func parseElements(_ element: (inout JSONParser) throws(Failure) -> Void) throws(Failure) {
        guard try !opensEmpty(closedBy: UInt8(ascii: "]")) else { return }
        repeat {
            try element(&self)
        } while try !closes(UInt8(ascii: "]"))
    }

    /// Enters the container whose opening bracket is at the index and skips it; true (and left
    /// again) when `close` follows at once.
    private mutating func opensEmpty(closedBy close: UInt8) throws(Failure) -> Bool {
        try enter()
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == close else { return false }
        index += 1
        depth -= 1
        return true
    }

    /// After an element or member: false at a comma, true (and the container left) at `close`,
    /// also after one trailing comma (`[1, 2,]`), which `JSONDecoder` accepts too.
    private mutating func closes(_ close: UInt8) throws(Failure) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw endOfData() }
        switch bytes[index] {
        case UInt8(ascii: ","):
            index += 1
            skipWhitespace()
            guard index < bytes.count, bytes[index] == close else { return false }
            index += 1
            depth -= 1
            return true
        case close:
            index += 1
            depth -= 1
            return true
        default:
            throw invalidValue()
        }
    }

    private mutating func parseObject() throws(Failure) -> JSONValue {
        let level = depth
        while memberScratch.count <= level { memberScratch.append([]) }
        var members = memberScratch[level]
        memberScratch[level] = []
        try parseMembers { parser, key throws(Failure) in members.append((key, try parser.parseValue())) }
        var object = [String: JSONValue](minimumCapacity: members.count)
        object.merge(members) { first, _ in first }
        members.removeAll(keepingCapacity: true)
        memberScratch[level] = members
        return .object(object)
    }

    /// Checks the value at the index as JSON, with the errors parsing gives, without making it.
    private mutating func skipValue() throws(Failure) {
        skipWhitespace()
        guard index < bytes.count else { throw endOfData() }
        switch bytes[index] {
        case UInt8(ascii: "{"): try parseMembers(keeping: []) { _, _ throws(Failure) in }
        case UInt8(ascii: "["): try parseElements { parser throws(Failure) in try parser.skipValue() }
        case UInt8(ascii: "\""): try skipString()
        default: _ = try parseScalar()
        }
    }

    /// Checks the string whose opening quote is at the index; returns its raw bytes when it has no escapes.
    @discardableResult
    private mutating func skipString() throws(Failure) -> Range<Int>? {
        let start = index + 1
        var wordsNonASCII: UInt64 = 0
        var cursor = plainRun(from: start, nonASCII: &wordsNonASCII)
        var nonASCII: UInt8 = wordsNonASCII & 0x8080_8080_8080_8080 == 0 ? 0 : 0x80
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") {
                if nonASCII >= 0x80, !UTF8Text.isValid(UnsafeBufferPointer(rebasing: bytes[start..<cursor])) {
                    throw Failure(offset: start, problem: "invalid UTF-8 in string")
                }
                index = cursor + 1
                return start..<cursor
            }
            if byte == UInt8(ascii: "\\") {
                // Escapes are rare: the full reading checks them.
                _ = try parseString()
                return nil
            }
            if byte < 0x20 { throw Failure(offset: cursor, problem: "unescaped control character in string") }
            nonASCII |= byte
            cursor += 1
        }
        throw endOfData()
    }

    private mutating func parseObject(
        candidates: [(path: Int, rest: ArraySlice<String>)], visit: Visitor
    ) throws(Failure) -> JSONValue {
        var members: [String: JSONValue] = [:]
        try parseMembers { parser, key throws(Failure) in
            let below = candidates.filter { $0.rest.first == key }.map { ($0.path, $0.rest.dropFirst()) }
            let value = try parser.parseValue(candidates: below, visit: visit)
            if members[key] == nil { members[key] = value }
        }
        return .object(members)
    }

    /// Walks `{ "key": value, ... }` from the opening brace, calling `member` with the index on each value.
    ///
    /// With `keys`, only members named by one of them are handed to `member`; the others are
    /// checked by ``skipValue()``.
    private mutating func parseMembers(
        keeping keys: [[UInt8]]? = nil, _ member: (inout JSONParser, String) throws(Failure) -> Void
    ) throws(Failure) {
        guard try !opensEmpty(closedBy: UInt8(ascii: "}")) else { return }
        repeat {
            skipWhitespace()
            guard index < bytes.count else { throw endOfData() }
            guard bytes[index] == UInt8(ascii: "\"") else { throw invalidValue() }
            var key: String?
            if let keys {
                let keyStart = index
                if let raw = try skipString() {
                    let rawKey = UnsafeBufferPointer(rebasing: bytes[raw])
                    if keys.contains(where: { $0.elementsEqual(rawKey) }) {
                        key = String(decoding: rawKey, as: UTF8.self)
                    }
                } else {
                    index = keyStart
                    let text = try parseString()
                    if keys.contains(where: { $0.elementsEqual(text.utf8) }) { key = text }
                }
            } else {
                key = try parseString()
            }
            skipWhitespace()
            guard index < bytes.count else { throw endOfData() }
            guard bytes[index] == UInt8(ascii: ":") else { throw invalidValue() }
            index += 1
            if let key { try member(&self, key) } else { try skipValue() }
        } while try !closes(UInt8(ascii: "}"))
    }

    /// The end of the run of plain string bytes from `start` (no `"`, no `\\`, no control
    /// character), read eight bytes at a time: stops at the first word holding any of them (or
    /// fewer than eight bytes before the end), which the byte-by-byte reading then goes through.
    /// `nonASCII` gathers the bits of the words passed over.
    @inline(__always)
    private func plainRun(from start: Int, nonASCII: inout UInt64) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let count = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var cursor = start
        var seen: UInt64 = 0
        while cursor + 8 <= count {
            let word = UnsafeRawPointer(base + cursor).loadUnaligned(as: UInt64.self)
            let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
            let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
            // A zero byte in `quotes` or `backslashes`, or a byte below 0x20 in `word` (exact tests).
            let special =
                ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes) | ((word &- ones &* 0x20) & ~word)
            if special & highs != 0 { break }
            seen |= word
            cursor += 8
        }
        nonASCII |= seen
        return cursor
    }

    // MARK: - Strings

    /// The string whose opening quote is at the index; the index ends after the closing quote.
    private mutating func parseString() throws(Failure) -> String {
        let start = index + 1
        var wordsNonASCII: UInt64 = 0
        var cursor = plainRun(from: start, nonASCII: &wordsNonASCII)
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") {
                index = cursor + 1
                return try string(from: start, to: cursor)
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start, plainEnd: cursor) }
            if byte < 0x20 { throw Failure(offset: cursor, problem: "unescaped control character in string") }
            cursor += 1
        }
        throw endOfData()
    }

    private func string(from start: Int, to end: Int) throws(Failure) -> String {
        guard let text = UTF8Text.string(UnsafeBufferPointer(rebasing: bytes[start..<end])) else {
            throw Failure(offset: start, problem: "invalid UTF-8 in string")
        }
        return text
    }

    /// The rest of a string with escapes, `start..<plainEnd` being the plain bytes before the first backslash.
    private mutating func parseEscapedString(from start: Int, plainEnd: Int) throws(Failure) -> String {
        var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<plainEnd]))
        var cursor = plainEnd
        while cursor < bytes.count {
            let byte = bytes[cursor]
            switch byte {
            case UInt8(ascii: "\""):
                index = cursor + 1
                guard let text = decoded.withUnsafeBufferPointer({ UTF8Text.string($0) }) else {
                    throw Failure(offset: start, problem: "invalid UTF-8 in string")
                }
                return text
            case UInt8(ascii: "\\"):
                guard cursor + 1 < bytes.count else { throw endOfData() }
                let escape = bytes[cursor + 1]
                cursor += 2
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try unicodeEscape(at: &cursor)
                    decoded.append(contentsOf: UTF8.encode(scalar)!)
                default:
                    throw Failure(offset: cursor - 2, problem: "invalid escape sequence")
                }
            case 0..<0x20:
                throw Failure(offset: cursor, problem: "unescaped control character in string")
            default:
                decoded.append(byte)
                cursor += 1
            }
        }
        throw endOfData()
    }

    /// The scalar of `\uXXXX` (the cursor just after `\u`), joining a UTF-16 surrogate pair.
    private func unicodeEscape(at cursor: inout Int) throws(Failure) -> Unicode.Scalar {
        let escapeStart = cursor - 2
        let high = try hexQuad(at: &cursor)
        switch high {
        case 0xD800...0xDBFF:
            guard cursor + 1 < bytes.count, bytes[cursor] == UInt8(ascii: "\\"), bytes[cursor + 1] == UInt8(ascii: "u")
            else {
                throw Failure(
                    offset: escapeStart, problem: "invalid unicode escape: a high surrogate without its low surrogate")
            }
            cursor += 2
            let low = try hexQuad(at: &cursor)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw Failure(
                    offset: escapeStart, problem: "invalid unicode escape: a high surrogate without its low surrogate")
            }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        case 0xDC00...0xDFFF:
            throw Failure(
                offset: escapeStart, problem: "invalid unicode escape: a low surrogate without its high surrogate")
        default:
            return Unicode.Scalar(high)!
        }
    }

    private func hexQuad(at cursor: inout Int) throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard cursor < bytes.count else { throw endOfData() }
            let byte = bytes[cursor]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Failure(offset: cursor, problem: "invalid unicode escape")
            }
            value = value << 4 | UInt32(digit)
            cursor += 1
        }
        return value
    }

    // MARK: - Whitespace and failures

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    private func endOfData() -> Failure { Failure(offset: bytes.count, problem: "unexpected end of data") }

    private func invalidValue() -> Failure { Failure(offset: index, problem: "invalid value") }

    /// The syntax error's reason for people: "is not valid JSON: it is empty", "is not valid
    /// JSON: it ends early, at line 4" (the line of the last character), or "is not valid JSON:
    /// PROBLEM at line L, column C".
    static func reason(for failure: Failure, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        guard let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "is not valid JSON: it is empty" }
        if failure.offset >= bytes.count {
            return "is not valid JSON: it ends early, at line \(lineAndColumn(of: last, in: bytes).line)"
        }
        let (line, column) = lineAndColumn(of: failure.offset, in: bytes)
        return "is not valid JSON: \(failure.problem) at line \(line), column \(column)"
    }

    /// Line and column of a byte offset, both from 1; the column counts Unicode scalars.
    static func lineAndColumn(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in UnsafeBufferPointer(rebasing: bytes[0..<min(offset, bytes.count)]) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}

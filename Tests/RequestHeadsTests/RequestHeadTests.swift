import NIOCore
import Testing

@testable import RequestHeads

/// Request heads as the kept-tile fast path reads them: where a head ends (checked against a
/// plain search for "\r\n\r\n" at every split of the bytes), what it says, and what it leaves to
/// NIO's decoder.
@Suite struct RequestHeadTests {
    private static func next(_ text: String, limit: Int = 16_384) -> RequestHead.Next {
        RequestHead.next(in: ByteBuffer(string: text), maximumHeadBytes: limit)
    }

    private static func head(_ text: String) -> RequestHead? {
        guard case .head(let head, _) = next(text) else { return nil }
        return head
    }

    @Test func aPlainGetIsReadWithTheHeadersThatMatter() throws {
        let text =
            "GET /tilesets/a/1/0/0.png HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"a\"\r\nif-none-match: \"b\"\r\nOrigin: https://example.org\r\n\r\n"
        guard case .head(let head?, let length) = Self.next(text + "GET /next") else {
            Issue.record("not read")
            return
        }
        #expect(length == text.utf8.count)
        #expect(head.isPlainGet && !head.passesConnection)
        #expect(head.target == "/tilesets/a/1/0/0.png")
        #expect(head.ifNoneMatch == "\"a\", \"b\"")
        #expect(head.origin == "https://example.org")
    }

    @Test(arguments: [
        ("HEAD /a HTTP/1.1\r\nHost: x\r\n\r\n", false, false),
        ("GET /a HTTP/1.0\r\nHost: x\r\n\r\n", false, false),
        ("GET /a HTTP/1.1\r\nConnection: close\r\n\r\n", false, false),
        ("GET /a HTTP/1.1\r\nConnection: Keep-Alive\r\n\r\n", true, false),
        ("GET /a HTTP/1.1\r\nExpect: 100-continue\r\n\r\n", false, false),
        ("GET /a HTTP/1.1\r\nOrigin: a\r\nOrigin: b\r\n\r\n", false, false),
        ("GET /a HTTP/1.1\r\nX: a\r\n folded\r\n\r\n", false, false),
        ("GET /a HTTP/1.1\r\n: empty name\r\n\r\n", false, false),
        ("GET /a HTTP/1.1\r\nContent-Length: 0\r\n\r\n", true, true),
        ("GET /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", true, true),
        ("GET /a HTTP/1.1\r\nUpgrade: websocket\r\n\r\n", true, true),
    ])
    func whatMayBeAnsweredFromTheBytes(text: String, plain: Bool, passes: Bool) throws {
        let head = try #require(Self.head(text))
        #expect(head.isPlainGet == plain, "\(text)")
        #expect(head.passesConnection == passes, "\(text)")
    }

    @Test(arguments: [
        "GET /a HTTP/1.1\nHost: x\n\n", "GET /a HTTP/1.1\r\nHost: x\n\n", "GET /a HTTP/1.1\nHost: x\r\n\r\n",
        "GET /a HTTP/1.1\r\nHost: x\n", "GET /a\rb HTTP/1.1\r\n\r\n", "GET /a HTTP/1.1\r\nX: a\rb\r\n\r\n",
        "GET /a\u{0} HTTP/1.1\r\n\r\n", "GET /a HTTP/1.1\r\nX: \u{7F}\r\n\r\n",
        "GET /a HTTP/1.1\r\nX: \u{1B}[1m\r\n\r\n",
    ])
    func aBareLineFeedOrAnyOtherControlCharacterIsTheDecoders(text: String) {
        switch Self.next(text) {
        case .passEverything, .head(nil, _): break
        default: Issue.record("\(Self.next(text)) for \(text.debugDescription)")
        }
    }

    @Test(arguments: [
        "GET  /a HTTP/1.1\r\n\r\n", "GET /a  HTTP/1.1\r\n\r\n", "GET /a b HTTP/1.1\r\n\r\n", " GET /a HTTP/1.1\r\n\r\n",
        "GET /a FTP/1.1\r\n\r\n", "GET /a\tb HTTP/1.1\r\n\r\n", "GET\t/a HTTP/1.1\r\n\r\n", "GET\r\n\r\n", "\r\n\r\n",
    ])
    func aLineThatIsNotARequestLineIsTheDecoders(text: String) {
        #expect(Self.next(text) == .head(nil, length: text.utf8.count), "\(text.debugDescription)")
    }

    @Test func aWholeHeadPastTheLimitOrWithTooManyFieldsIsTheDecoders() throws {
        let long = "GET /a HTTP/1.1\r\nX: \(String(repeating: "x", count: 100))\r\n\r\n"
        #expect(Self.next(long, limit: 50) == .passEverything)
        let many = "GET /a HTTP/1.1\r\n" + (1...101).map { "X-\($0): 1\r\n" }.joined() + "\r\n"
        #expect(try #require(Self.head(many)).isPlainGet == false)
        let enough = "GET /a HTTP/1.1\r\n" + (1...100).map { "X-\($0): 1\r\n" }.joined() + "\r\n"
        #expect(try #require(Self.head(enough)).isPlainGet)
    }

    @Test func aHeadNotWholeIsWaitedForUpToTheLimit() {
        #expect(Self.next("GET /a HTTP/1.1\r\nHost: x\r\n") == .partial)
        #expect(Self.next("GET /a HTTP/1.1\r\nHost: x\r\n", limit: 10) == .passEverything)
        #expect(Self.next("") == .partial)
    }

    /// The stepping search for the blank line finds what a plain search finds, wherever the
    /// bytes are cut and whatever surrounds the line ends.
    @Test func theHeadsEndIsWhereAPlainSearchFindsIt() {
        var random = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [
            Array("\r".utf8), Array("\n".utf8), Array("\r\n".utf8), Array("a".utf8), Array("GET ".utf8),
        ]
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0..<16, using: &random) { bytes += pieces.randomElement(using: &random)! }
            let plain = (0..<max(0, bytes.count - 3)).first { bytes[$0..<($0 + 4)].elementsEqual("\r\n\r\n".utf8) }.map
            { $0 + 4 }
            var buffer = ByteBuffer()
            buffer.writeBytes(bytes)
            #expect(RequestHead.headLength(buffer) == plain, "\(bytes)")
        }
    }
}

/// Where clients reach the server when a proxy in front of it serves it under another address or
/// a path prefix (`serve --public-url`, as TileServer GL's `--public_url`): every URL the server
/// writes (TileJSON `tiles`, style.json sources, sprite and glyphs, `/styles.json` and
/// `/data.json` links) starts with it in place of the request's own `http://HOST`.
///
/// The proxy strips the prefix before passing a request on (nginx's
/// `location /maps/ { proxy_pass http://127.0.0.1:8080/; }`); the server's routes stay at its root.
/// The viewer's pages load everything by relative URLs and need nothing.
public struct PublicURL: Hashable, Sendable {
    /// `https://maps.example.org` for an absolute URL; nil for a path alone (`/maps/`), whose
    /// scheme and host are then the request's (its `Host`, and `X-Forwarded-Proto`).
    public let origin: String?
    /// The path prefix without its trailing slash: `/maps`, or empty for none.
    public let pathPrefix: String

    /// Reads `https://HOST[:PORT][/PATH][/]` or `/PATH[/]`; nil for anything else (another
    /// scheme, a query or fragment, spaces or control characters, an empty host).
    public init?(_ text: String) {
        guard !text.isEmpty, !text.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } ?? false }),
            !text.contains("?"), !text.contains("#")
        else { return nil }
        var rest = Substring(text)
        let lowercased = text.lowercased()
        if lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://") {
            let schemeLength = lowercased.hasPrefix("https://") ? 8 : 7
            let afterScheme = rest.dropFirst(schemeLength)
            let authority = afterScheme.prefix { $0 != "/" }
            guard !authority.isEmpty, !authority.contains("@"),
                authority.allSatisfy({ $0.isLetter || $0.isNumber || ".-:[]_".contains($0) })
            else { return nil }
            origin = String(lowercased.prefix(schemeLength)) + authority
            rest = afterScheme.dropFirst(authority.count)
        } else {
            guard rest.hasPrefix("/") else { return nil }
            origin = nil
        }
        while rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("//"), !rest.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }) else {
            return nil
        }
        pathPrefix = String(rest)
    }

    /// The base of the URLs written for a request whose own base is `requestBase` (`SCHEME://HOST`).
    func base(requestBase: String) -> String { (origin ?? requestBase) + pathPrefix }
}
